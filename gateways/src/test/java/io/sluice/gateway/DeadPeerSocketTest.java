package io.sluice.gateway;

import io.sluice.gateway.codec.FixTags;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Dead peers on a real gateway and real sockets: a client that goes silent after its Logon is logged out and its
 * session is free for the next Logon, and accepted TCP connections carry keepalive with the configured timings, so
 * the kernel finds out a vanished host as well.
 */
class DeadPeerSocketTest {
    private static final Path PROC_NET_TCP = Path.of("/proc/net/tcp");
    /** Linux reports timers in /proc/net/tcp in clock ticks of USER_HZ, 100 a second. */
    private static final int USER_HZ = 100;
    /** The "tr" column of /proc/net/tcp: the socket's keepalive timer is pending. */
    private static final int KEEPALIVE_TIMER = 2;

    @TempDir
    Path root;

    private RunningGateway gateway;

    private void start(final String transport, final int keepaliveIdleSeconds) throws Exception {
        gateway = new RunningGateway(new GatewayConfig().gatewayId(1).journalRoot(root)
                .listen("tcp".equals(transport) ? "tcp://127.0.0.1:0" : "unix:" + root.resolve("gw.sock"))
                .tcpKeepalive(keepaliveIdleSeconds, 3)
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1")));
    }

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
    }

    /**
     * The client sends nothing after its Logon. The test reads what the gateway sends it, which the gateway cannot
     * tell from a dead peer: the kernel acknowledges bytes whether or not the application reads them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void aClientThatGoesSilentIsLoggedOutAndItsSessionCanLogOnAgain(final String transport) throws Exception {
        start(transport, 30);
        try (TestFixClient silent = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            silent.logon("secret1", 1);
            silent.expect("A");
            final List<String> received = new ArrayList<>();
            FixFields last;
            do {
                last = silent.receive();
                received.add(last.msgType());
            } while (!"5".equals(last.msgType()));
            assertEquals(List.of("1", "5"), received.subList(received.size() - 2, received.size()),
                    "heartbeats, a TestRequest, then the Logout: " + received);
            assertTrue(last.get(FixTags.TEXT).matches("No message for \\d+ s, TestRequest unanswered"), last.toString());
            silent.expectClosed();
        }
        try (TestFixClient next = new TestFixClient(gateway.address(), "CLIENT1", 2)) {
            next.logon("secret1", 1);
            next.expect("A");
            next.expectNothingElse();
        }
    }

    @Test
    void anAcceptedTcpConnectionHasKeepaliveWithTheConfiguredIdleTime() throws Exception {
        assumeTrue(Files.isReadable(PROC_NET_TCP), "needs Linux's /proc/net/tcp to see the gateway's socket");
        start("tcp", 7);
        try (SocketChannel client = SocketChannel.open(StandardProtocolFamily.INET)) {
            client.connect(gateway.address());
            final int gatewayPort = ((InetSocketAddress) gateway.address()).getPort();
            final int clientPort = ((InetSocketAddress) client.getLocalAddress()).getPort();
            final long[] ticks = {-1};
            await("the gateway's end of the connection has its keepalive timer running", () -> {
                ticks[0] = keepaliveTimerTicks(gatewayPort, clientPort);
                return ticks[0] >= 0;
            });
            assertTrue(ticks[0] <= 7 * USER_HZ, "first probe due within TCP_KEEPIDLE (7 s), not the system's "
                    + "default (2 h): " + ticks[0] + " ticks");
        }
    }

    /**
     * @return when the keepalive timer of the IPv4 socket {@code localPort -> remotePort} fires, in clock ticks,
     *         or -1 if there is no such socket or no keepalive timer is pending on it
     */
    private static long keepaliveTimerTicks(final int localPort, final int remotePort) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(PROC_NET_TCP);
        } catch (final IOException e) {
            throw new AssertionError("cannot read " + PROC_NET_TCP, e);
        }
        for (final String line : lines.subList(1, lines.size())) {
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when ...
            final String[] fields = line.trim().split("\\s+");
            if (port(fields[1]) == localPort && port(fields[2]) == remotePort) {
                final String[] timer = fields[5].split(":");
                return Integer.parseInt(timer[0], 16) == KEEPALIVE_TIMER ? Long.parseLong(timer[1], 16) : -1;
            }
        }
        return -1;
    }

    private static int port(final String hexAddress) {
        return Integer.parseInt(hexAddress.substring(hexAddress.indexOf(':') + 1), 16);
    }
}
