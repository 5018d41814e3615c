package io.sluice.gateway.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.util.function.Consumer;

/**
 * A non-blocking acceptor over TCP or a Unix domain socket, serving every connection from the one thread
 * that calls {@link #poll()}. A {@link Selector} watches only the listening socket; each accepted connection
 * is polled directly, a non-blocking read (and a write of what an earlier round left) per connection per
 * round, as Aeron's transport pollers do for few channels. The reason is allocation: the JDK's epoll
 * selector looks up every ready descriptor in a {@code HashMap<Integer, SelectionKey>}, boxing it, and a
 * descriptor above the JDK's small-integer cache (127) allocates on every ready event; a gateway process
 * holding many journal files gets such descriptors. Direct polling allocates nothing, whatever the
 * descriptor; its cost is one system call per connection per round, right for the tens of sessions a
 * gateway serves. A connection's events go to its {@link NioConnection} and from there to the
 * {@link ConnectionHandler}.
 */
public final class NioTransport implements AutoCloseable {
    private final Selector selector;
    private final ServerSocketChannel server;
    private final ListenAddress listen;
    private final ConnectionHandler handler;
    private final int receiveBytes;
    private final int sendBytes;
    private final int reserve;
    private final int socketSendBufferBytes;
    private final long lingerNanos;
    private final TcpKeepalive keepalive;
    private final Consumer<SelectionKey> onAcceptable = key -> accept();
    private NioConnection[] connections = new NioConnection[16];
    private int connectionCount;
    private NioConnection[] toFlush = new NioConnection[16];
    private int toFlushCount;

    /**
     * @param receiveBytes per-connection receive buffer (larger than the largest message)
     * @param sendBytes    per-connection send buffer bound; a client further behind is logged out
     * @param reserve      extra room for the last message to a connection being closed
     * @param socketSendBufferBytes the kernel's send buffer per socket (SO_SNDBUF), or 0 for the OS default
     * @param lingerMillis how long a closing connection may take to flush its last message
     * @param keepalive    TCP keepalive for accepted TCP connections (not applicable to Unix domain sockets)
     */
    public NioTransport(final ListenAddress listen, final ConnectionHandler handler, final int receiveBytes,
                        final int sendBytes, final int reserve, final int socketSendBufferBytes,
                        final long lingerMillis, final TcpKeepalive keepalive) {
        this.keepalive = keepalive;
        this.socketSendBufferBytes = socketSendBufferBytes;
        this.lingerNanos = lingerMillis * 1_000_000L;
        this.listen = listen;
        this.handler = handler;
        this.receiveBytes = receiveBytes;
        this.sendBytes = sendBytes;
        this.reserve = reserve;
        try {
            if (listen.address() instanceof UnixDomainSocketAddress unix) {
                Files.deleteIfExists(unix.getPath());
            }
            selector = Selector.open();
            server = ServerSocketChannel.open(listen.family());
            if (listen.family() == StandardProtocolFamily.INET) {
                server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            }
            server.bind(listen.address());
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot listen on " + ListenAddress.format(listen.address()) + ": " + e, e);
        }
    }

    /** @return the bound address (with the actual port when the configuration asked for port 0). */
    public SocketAddress localAddress() {
        try {
            return server.getLocalAddress();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Accepts a waiting client, then polls every connection once, without blocking.
     *
     * @return how many connections were accepted, read from or written to
     */
    public int poll() {
        int work;
        try {
            work = selector.selectNow(onAcceptable);
        } catch (final IOException e) {
            throw new UncheckedIOException("selector failed", e);
        }
        final int count = connectionCount;
        for (int i = 0; i < count; i++) {
            work += connections[i].poll(handler);
        }
        return work;
    }

    /**
     * Writes every connection's messages queued since the last flush, one write per connection; call once per
     * round of the I/O thread, after the sockets and the engine journal were polled.
     *
     * @return how many connections were written to
     */
    public int flush() {
        final int count = toFlushCount;
        for (int i = 0; i < count; i++) {
            final NioConnection connection = toFlush[i];
            toFlush[i] = null;
            connection.flushQueued(handler);
        }
        toFlushCount = 0;
        return count;
    }

    void flushLater(final NioConnection connection) {
        if (toFlushCount == toFlush.length) {
            toFlush = java.util.Arrays.copyOf(toFlush, 2 * toFlushCount);
        }
        toFlush[toFlushCount++] = connection;
    }

    /**
     * Closes connections that have not been bound to a FIX session (no successful Logon) within
     * {@code timeoutNanos} of being accepted, so idle or silent sockets cannot pile up, and closing
     * connections that lingered longer than the linger time without their client reading.
     *
     * @return how many were closed
     */
    public int closeUnboundOlderThan(final long timeoutNanos) {
        final long now = System.nanoTime();
        int closed = 0;
        int kept = 0;
        for (int i = 0; i < connectionCount; i++) {
            final NioConnection connection = connections[i];
            if (!connection.isClosed() && connection.session() == null && now - connection.acceptedNanos() > timeoutNanos) {
                connection.close();
                closed++;
            } else if (connection.isLingering() && now - connection.closingSinceNanos() > lingerNanos) {
                connection.close();
                closed++;
            }
            if (!connection.isFullyClosed()) {
                connections[kept++] = connection;
            }
        }
        for (int i = kept; i < connectionCount; i++) {
            connections[i] = null;
        }
        connectionCount = kept;
        return closed;
    }

    @Override
    public void close() {
        try {
            for (int i = 0; i < connectionCount; i++) {
                connections[i].close();
            }
            selector.close();
            server.close();
            if (listen.address() instanceof UnixDomainSocketAddress unix) {
                Files.deleteIfExists(unix.getPath());
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void accept() {
        try {
            final SocketChannel channel = server.accept();
            if (channel == null) {
                return;
            }
            channel.configureBlocking(false);
            if (socketSendBufferBytes > 0) {
                channel.setOption(StandardSocketOptions.SO_SNDBUF, socketSendBufferBytes);
            }
            if (listen.family() == StandardProtocolFamily.INET) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                keepalive.applyTo(channel);
            }
            final NioConnection connection = new NioConnection(this, channel, receiveBytes, sendBytes, reserve);
            if (connectionCount == connections.length) {
                connections = java.util.Arrays.copyOf(connections, 2 * connectionCount);
            }
            connections[connectionCount++] = connection;
        } catch (final IOException e) {
            // A client that vanished during accept: nothing to serve.
        }
    }
}
