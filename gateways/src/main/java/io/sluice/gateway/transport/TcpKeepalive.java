package io.sluice.gateway.transport;

import jdk.net.ExtendedSocketOptions;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/**
 * TCP keepalive for accepted client connections, so that the kernel finds out a peer whose host vanished even while the
 * FIX session is quiet. A power cut, a cable pulled, a NAT forgetting the flow: after {@code idleSeconds} without
 * traffic it probes every {@code intervalSeconds}, and {@value #PROBES} unanswered probes reset the connection, which
 * the transport then reports lost. The kernel's own defaults (two hours idle)
 * are far too slow for a trading session. The FIX heartbeat (a minimum HeartBtInt, see
 * {@code FixSession}) finds out every silent peer too; this is the same guarantee one layer down.
 *
 * @param idleSeconds     TCP_KEEPIDLE: quiet time before the first probe
 * @param intervalSeconds TCP_KEEPINTERVAL: time between probes
 */
public record TcpKeepalive(int idleSeconds, int intervalSeconds) {
    /** TCP_KEEPCOUNT: unanswered probes before the kernel gives up on the peer. */
    public static final int PROBES = 3;

    /** The largest idle time or interval Linux accepts, in seconds. */
    public static final int MAX_SECONDS = 32_767;

    /**
     * Turns keepalive on for {@code channel} (SO_KEEPALIVE) and sets its timings where the platform supports
     * setting them per socket (Linux, macOS, Windows 10+); elsewhere the system-wide timings apply.
     */
    public void applyTo(final SocketChannel channel) throws IOException {
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        if (channel.supportedOptions().contains(ExtendedSocketOptions.TCP_KEEPIDLE)) {
            channel.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, idleSeconds);
            channel.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, intervalSeconds);
            channel.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, PROBES);
        }
    }
}
