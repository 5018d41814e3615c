package io.sluice.gateway.transport;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

/**
 * Where a gateway listens, as written in its configuration: {@code tcp://host:port} for TCP or
 * {@code unix:/path/to/socket} for a Unix domain socket.
 *
 * @param family  INET for TCP, UNIX for a Unix domain socket
 * @param address the socket address to bind
 */
public record ListenAddress(StandardProtocolFamily family, SocketAddress address) {
    private static final String TCP = "tcp://";
    private static final String UNIX = "unix:";

    /** @throws IllegalArgumentException naming the expected forms if {@code text} is neither */
    public static ListenAddress parse(final String text) {
        if (text != null && text.startsWith(TCP)) {
            final String hostPort = text.substring(TCP.length());
            final int colon = hostPort.lastIndexOf(':');
            if (colon > 0) {
                try {
                    final int port = Integer.parseInt(hostPort.substring(colon + 1));
                    return new ListenAddress(StandardProtocolFamily.INET,
                            new InetSocketAddress(hostPort.substring(0, colon), port));
                } catch (final NumberFormatException e) {
                    // reported below
                }
            }
        } else if (text != null && text.startsWith(UNIX) && text.length() > UNIX.length()) {
            return new ListenAddress(StandardProtocolFamily.UNIX,
                    UnixDomainSocketAddress.of(Path.of(text.substring(UNIX.length()))));
        }
        throw new IllegalArgumentException("listen address '" + text
                + "' must be tcp://<host>:<port> or unix:<socket path>");
    }

    /** @return the address in the configuration's form, with the actual port once bound. */
    public static String format(final SocketAddress address) {
        if (address instanceof UnixDomainSocketAddress unix) {
            return UNIX + unix.getPath();
        }
        final InetSocketAddress inet = (InetSocketAddress) address;
        return TCP + inet.getHostString() + ":" + inet.getPort();
    }
}
