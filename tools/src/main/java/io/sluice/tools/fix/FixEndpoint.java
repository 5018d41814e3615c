package io.sluice.tools.fix;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * Where a FIX acceptor listens. A TCP host and port, the path of a Unix domain socket, or a TCP host and port speaking
 * TLS (with the client's TLS context: whom it trusts, which certificate it presents). Opens blocking client
 * connections to it (with TCP_NODELAY on TCP, so small FIX messages leave at once).
 */
public record FixEndpoint(FixTransport transport, String host, int port, Path socketPath, SSLContext tls) {
    /** @return the TCP endpoint {@code host:port}. */
    public static FixEndpoint tcp(final String host, final int port) {
        return new FixEndpoint(FixTransport.TCP, host, port, null, null);
    }

    /** @return the Unix domain socket endpoint at {@code path}. */
    public static FixEndpoint uds(final Path path) {
        return new FixEndpoint(FixTransport.UDS, null, 0, path, null);
    }

    /** @return the TLS endpoint {@code host:port}, connected to with {@code context}. */
    public static FixEndpoint tls(final String host, final int port, final SSLContext context) {
        return new FixEndpoint(FixTransport.TLS, host, port, null, context);
    }

    /** @return the socket address clients connect to. */
    public SocketAddress address() {
        return transport == FixTransport.UDS
                ? UnixDomainSocketAddress.of(socketPath) : new InetSocketAddress(host, port);
    }

    /** Opens a TLS connection and completes its handshake; throws if that fails. */
    public SSLSocket connectTls() throws IOException {
        final SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(address());
            socket.startHandshake();
            return socket;
        } catch (final IOException e) {
            socket.close();
            throw new IOException("cannot connect to " + this + ": " + e.getMessage(), e);
        }
    }

    /** Opens a blocking plain connection (also to a TLS endpoint, whose handshake it does not start). */
    public SocketChannel connect() throws IOException {
        final SocketChannel channel = transport == FixTransport.UDS
                ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open(StandardProtocolFamily.INET);
        try {
            if (transport != FixTransport.UDS) {
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
        return switch (transport) {
            case TCP -> "tcp://" + host + ":" + port;
            case TLS -> "tls://" + host + ":" + port;
            case UDS -> "uds://" + socketPath;
        };
    }
}
