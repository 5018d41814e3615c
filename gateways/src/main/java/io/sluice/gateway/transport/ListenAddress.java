package io.sluice.gateway.transport;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

/**
 * Where a gateway listens, as written in its configuration. {@code tcp://host:port} for TCP or {@code
 * unix:/path/to/socket} for a Unix domain socket, in plain text; {@code tls://host:port} and {@code
 * tls+unix:/path/to/socket} for the same carrying TLS (the gateway's {@code tls} settings).
 *
 * @param family  INET for TCP, UNIX for a Unix domain socket
 * @param address the socket address to bind
 * @param tls     whether connections accepted here speak TLS
 */
public record ListenAddress(StandardProtocolFamily family, SocketAddress address, boolean tls) {
    private static final String TCP = "tcp://";
    private static final String UNIX = "unix:";
    private static final String TLS = "tls://";
    private static final String TLS_UNIX = "tls+unix:";

    /** @throws IllegalArgumentException naming the expected forms if {@code text} is none of them */
    public static ListenAddress parse(final String text) {
        if (text != null && (text.startsWith(TCP) || text.startsWith(TLS))) {
            final boolean tls = text.startsWith(TLS);
            final String hostPort = text.substring(tls ? TLS.length() : TCP.length());
            final int colon = hostPort.lastIndexOf(':');
            if (colon > 0) {
                try {
                    final int port = Integer.parseInt(hostPort.substring(colon + 1));
                    return new ListenAddress(StandardProtocolFamily.INET,
                            new InetSocketAddress(hostPort.substring(0, colon), port), tls);
                } catch (final NumberFormatException e) {
                    // reported below
                }
            }
        } else if (text != null && (text.startsWith(UNIX) || text.startsWith(TLS_UNIX))) {
            final boolean tls = text.startsWith(TLS_UNIX);
            final String path = text.substring(tls ? TLS_UNIX.length() : UNIX.length());
            if (!path.isEmpty()) {
                return new ListenAddress(StandardProtocolFamily.UNIX, UnixDomainSocketAddress.of(Path.of(path)), tls);
            }
        }
        throw new IllegalArgumentException("listen address '" + text + "' must be tcp://<host>:<port>,"
                + " unix:<socket path>, tls://<host>:<port> or tls+unix:<socket path>");
    }

    /** @return the address in the configuration's plain form (tcp:// or unix:), with the actual port once bound. */
    public static String format(final SocketAddress address) {
        return format(address, false);
    }

    /** @return the address in the configuration's form, with the actual port once bound. */
    public static String format(final SocketAddress address, final boolean tls) {
        if (address instanceof UnixDomainSocketAddress unix) {
            return (tls ? TLS_UNIX : UNIX) + unix.getPath();
        }
        final InetSocketAddress inet = (InetSocketAddress) address;
        return (tls ? TLS : TCP) + inet.getHostString() + ":" + inet.getPort();
    }
}
