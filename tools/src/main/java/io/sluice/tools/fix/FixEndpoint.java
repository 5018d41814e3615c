package io.sluice.tools.fix;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * Where a FIX acceptor listens: a TCP host and port, or the path of a Unix domain socket. Opens blocking
 * client connections to it (with TCP_NODELAY on TCP, so small FIX messages leave at once).
 */
public record FixEndpoint(FixTransport transport, String host, int port, Path socketPath) {
    /** @return the TCP endpoint {@code host:port}. */
    public static FixEndpoint tcp(final String host, final int port) {
        return new FixEndpoint(FixTransport.TCP, host, port, null);
    }

    /** @return the Unix domain socket endpoint at {@code path}. */
    public static FixEndpoint uds(final Path path) {
        return new FixEndpoint(FixTransport.UDS, null, 0, path);
    }

    /** @return the socket address clients connect to. */
    public SocketAddress address() {
        return transport == FixTransport.TCP
                ? new InetSocketAddress(host, port) : UnixDomainSocketAddress.of(socketPath);
    }

    /** Opens a blocking connection; throws if nothing listens there. */
    public SocketChannel connect() throws IOException {
        final SocketChannel channel = transport == FixTransport.TCP
                ? SocketChannel.open(StandardProtocolFamily.INET) : SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            if (transport == FixTransport.TCP) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            channel.connect(address());
            return channel;
        } catch (final IOException e) {
            channel.close();
            throw new IOException("cannot connect to " + this + ": " + e.getMessage(), e);
        }
    }

    /** @return true once something accepts connections here (the probe connection is closed again). */
    public boolean isAccepting() {
        try (SocketChannel ignored = connect()) {
            return true;
        } catch (final IOException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return transport == FixTransport.TCP ? "tcp://" + host + ":" + port : "uds://" + socketPath;
    }
}
