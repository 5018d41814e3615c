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
 * that calls {@link #poll()}. Polling uses {@link Selector#selectNow(Consumer)} with a consumer made once,
 * so steady-state reads and writes allocate nothing. A connection's events go to its {@link NioConnection}
 * and from there to the {@link ConnectionHandler}.
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
    private final Consumer<SelectionKey> onSelected = this::onSelected;
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
     */
    public NioTransport(final ListenAddress listen, final ConnectionHandler handler, final int receiveBytes,
                        final int sendBytes, final int reserve, final int socketSendBufferBytes,
                        final long lingerMillis) {
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

    /** Handles whatever the sockets have ready, without blocking; @return the number of ready keys. */
    public int poll() {
        try {
            return selector.selectNow(onSelected);
        } catch (final IOException e) {
            throw new UncheckedIOException("selector failed", e);
        }
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
            for (final SelectionKey key : selector.keys()) {
                if (key.attachment() instanceof NioConnection connection) {
                    connection.close();
                }
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

    private void onSelected(final SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            accept();
            return;
        }
        final NioConnection connection = (NioConnection) key.attachment();
        if (key.isWritable()) {
            connection.onWritable(handler);
        }
        if (key.isValid() && key.isReadable()) {
            connection.onReadable(handler);
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
            }
            final SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
            final NioConnection connection = new NioConnection(this, channel, key, receiveBytes, sendBytes, reserve);
            key.attach(connection);
            if (connectionCount == connections.length) {
                connections = java.util.Arrays.copyOf(connections, 2 * connectionCount);
            }
            connections[connectionCount++] = connection;
        } catch (final IOException e) {
            // A client that vanished during accept: nothing to serve.
        }
    }
}
