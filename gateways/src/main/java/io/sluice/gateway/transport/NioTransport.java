package io.sluice.gateway.transport;

import io.sluice.gateway.session.FixSession;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;

/**
 * A non-blocking acceptor over TCP or a Unix domain socket, serving every connection from the one thread
 * that calls {@link #poll()}. Only ready sockets cost anything: a {@link Selector} (epoll on Linux) reports
 * the listening socket and the connections that can be read or written, through
 * {@link Selector#selectNow(Consumer)} with one consumer built at construction, so no selected-key set is
 * filled and nothing is allocated per round. The JDK's epoll selector looks each ready descriptor up in a
 * {@code HashMap<Integer, SelectionKey>}, boxing it; {@code jvm.options} sets {@code -XX:AutoBoxCacheMax}
 * so that boxing any descriptor a gateway can have comes from the JDK's cache ({@link #boxingIsCached()}
 * checks it at start).
 * <p>
 * Admission: a new connection is accepted and closed at once if the gateway holds {@code maxConnections}, or
 * if its source address holds {@code maxConnectionsPerAddress} ({@link ConnectionLimits}; not applied to Unix
 * domain socket peers, which are all local). Otherwise it borrows a pre-logon buffer pair
 * ({@link ConnectionBufferPool}), and if its address already holds its share of them, or none is free, an older
 * connection still waiting for its Logon is closed to make way (the pool says which): the newest is never the one
 * refused. Refusals and evictions are only counted here; the owner logs them once per burst. Connections that log
 * on move to their session's own buffers, allocated at start. A connection's events go to its
 * {@link NioConnection} and from there to the {@link ConnectionHandler}.
 * <p>
 * It listens on one or more addresses, all served by the one selector; each is plain or TLS
 * ({@link ListenAddress#tls()}). A connection accepted on a TLS address gets a {@link TlsLayer} on the transport's
 * {@link TlsContext}, and starts in {@link ConnectionState#HANDSHAKING}; every buffer pair then also holds the TLS
 * record buffers, allocated at start like the rest.
 */
public final class NioTransport implements AutoCloseable {
    /** The highest file descriptor the epoll selector may box without allocating (see jvm.options). */
    public static final int CACHED_DESCRIPTORS = 65_535;
    private static final int ACCEPTS_PER_ROUND = 64;
    /**
     * How many connections with bulk messages ({@link NioConnection#sendBulk}: market data) one {@link #flush} writes
     * at most, after all the others: a round's fan-out never holds the order path's next round up for long, and a
     * connection waiting its turn gathers more messages for one write.
     */
    static final int BULK_WRITES_PER_FLUSH = 8;

    private final Selector selector;
    private final ListenSockets sockets;
    private final List<Listener> listeners = new ArrayList<>();
    private final TlsContext tls;
    private final int tlsBytes;
    private final ConnectionHandler handler;
    private final int receiveBytes;
    private final int sendBytes;
    private final int reserve;
    private final int socketSendBufferBytes;
    private final long lingerNanos;
    private final NanoClock nanoClock;
    private final TcpKeepalive keepalive;
    private final ConnectionLimits limits;
    private final ConnectionBufferPool preLogonBuffers;
    private final Long2ObjectHashMap<ConnectionBuffers> sessionBuffers = new Long2ObjectHashMap<>();
    private final Consumer<SelectionKey> onReady = this::onReady;
    private final NioConnection[] connections;
    private int connectionCount;
    private NioConnection[] toFlush = new NioConnection[16];
    private int toFlushCount;
    private NioConnection[] bulk = new NioConnection[16];
    private int bulkHead;
    private int bulkCount;
    private int bulkToWrite;
    private long nextBulkWriteNanos;
    /**
     * How often the connections waiting with bulk messages are written, at most: each write then carries the messages
     * of this long, so a fan-out to many costs the machine few system calls per message.
     */
    private final long bulkWriteIntervalNanos;
    /**
     * How many bulk writes a second all connections together get at most: with many subscribers each is written less
     * often than the interval, and the fan-out's system calls stay a bounded share of the machine.
     */
    private final WriteBudget bulkBudget;
    private int roundWork;
    private int evicted;
    private SocketAddress firstEvicted;
    private SocketAddress lastEvicted;
    private SendGate gate;
    private long lastReleased = Long.MIN_VALUE;

    /**
     * @param sockets      where to listen, bound: one or more addresses, each plain or TLS; closed with the transport
     * @param tls          the TLS context of the TLS addresses, or null if there are none
     * @param receiveBytes per-connection receive buffer (larger than the largest message)
     * @param sendBytes    per-session send buffer bound; a client further behind is logged out
     * @param reserve      extra room for the last message to a connection being closed
     * @param socketSendBufferBytes the kernel's send buffer per socket (SO_SNDBUF), or 0 for the OS default
     * @param lingerMillis how long a closing connection may take to flush its last message
     * @param admission    connection limits and the size of the pre-logon buffer pool
     * @param keepalive    TCP keepalive for accepted TCP connections (not applicable to Unix domain sockets)
     * @param bulkWriteIntervalNanos how often connections with bulk messages (market data) are written, at most; 0: every
     *                     round
     * @param bulkWritesPerSecond how many bulk writes a second all connections together get at most; 0: no limit
     * @param nanoClock    the clock of the logon timeout and the linger time
     */
    public NioTransport(final ListenSockets sockets, final TlsContext tls, final ConnectionHandler handler,
                        final int receiveBytes, final int sendBytes, final int reserve, final int socketSendBufferBytes,
                        final long lingerMillis, final Admission admission, final TcpKeepalive keepalive,
                        final long bulkWriteIntervalNanos, final int bulkWritesPerSecond,
                        final NanoClock nanoClock) {
        if (tls == null && sockets.addresses().stream().anyMatch(ListenAddress::tls)) {
            throw new IllegalArgumentException("a TLS listen address needs TLS settings");
        }
        this.sockets = sockets;
        this.keepalive = keepalive;
        this.nanoClock = nanoClock;
        this.bulkWriteIntervalNanos = bulkWriteIntervalNanos;
        this.bulkBudget = new WriteBudget(bulkWritesPerSecond, BULK_WRITES_PER_FLUSH);
        this.socketSendBufferBytes = socketSendBufferBytes;
        this.lingerNanos = lingerMillis * 1_000_000L;
        this.tls = tls;
        this.tlsBytes = tls == null ? 0 : 2 * tls.packetBytes();
        this.handler = handler;
        // With TLS, a whole record's plaintext must fit behind the part of a message still waiting in the buffer.
        this.receiveBytes = tls == null ? receiveBytes : receiveBytes + tls.applicationBytes();
        this.sendBytes = sendBytes;
        this.reserve = reserve;
        this.limits = new ConnectionLimits(admission.maxConnections(), admission.maxConnectionsPerAddress());
        this.preLogonBuffers = new ConnectionBufferPool(admission.preLogonBuffers(),
                admission.preLogonBuffersPerAddress(), this.receiveBytes, 2 * reserve, tlsBytes);
        this.connections = new NioConnection[admission.maxConnections()];
        try {
            selector = Selector.open();
            for (int i = 0; i < sockets.addresses().size(); i++) {
                final Listener listener = new Listener(sockets.addresses().get(i), sockets.server(i));
                listeners.add(listener);
                listener.server.register(selector, SelectionKey.OP_ACCEPT, listener);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot listen: " + e, e);
        }
    }

    /** A server socket and the address it was configured as (the key's attachment). */
    private record Listener(ListenAddress address, ServerSocketChannel server) {
    }

    /**
     * Limits on what clients may hold before and after logging on.
     *
     * @param maxConnections           connections the gateway holds at most
     * @param maxConnectionsPerAddress connections one TCP source address holds at most
     * @param preLogonBuffers          connections that may wait for their Logon at once (buffer pairs allocated)
     * @param preLogonBuffersPerAddress of those, how many one TCP source address may hold
     */
    public record Admission(int maxConnections, int maxConnectionsPerAddress, int preLogonBuffers,
                            int preLogonBuffersPerAddress) {
    }

    /**
     * @return true if boxing every descriptor up to {@link #CACHED_DESCRIPTORS} comes from the JDK's cache,
     *         so the selector allocates nothing per ready socket
     */
    public static boolean boxingIsCached() {
        return Integer.valueOf(CACHED_DESCRIPTORS) == Integer.valueOf(CACHED_DESCRIPTORS);
    }

    /**
     * Holds every message sent on a connection accepted from now on until {@code gate} releases it (see
     * {@link SendGate}); call before the first {@link #poll()}, and call {@link #releaseHeld()} every round.
     */
    public void holdSendsFor(final SendGate gate) {
        this.gate = gate;
    }

    /**
     * Writes the held messages the gate has released since the last call, on every connection holding some; costs one
     * read of the gate while it has not moved.
     *
     * @return how many connections were written to
     */
    public int releaseHeld() {
        if (gate == null) {
            return 0;
        }
        final long released = gate.released();
        if (released == lastReleased) {
            return 0;
        }
        lastReleased = released;
        int work = 0;
        for (int i = connectionCount - 1; i >= 0; i--) {
            work += connections[i].releaseHeld(handler);
        }
        return work;
    }

    /** Allocates, once, the buffers {@code sessionId} works in whenever it is logged on. */
    public void reserveSessionBuffers(final long sessionId) {
        sessionBuffers.put(sessionId, new ConnectionBuffers(receiveBytes, sendBytes + reserve, tlsBytes, false));
    }

    /** @return the first listen address as bound (with the actual port when the configuration asked for port 0). */
    public SocketAddress localAddress() {
        return localAddress(0);
    }

    /** @return the {@code index}th listen address as bound, in the configuration's order. */
    public SocketAddress localAddress(final int index) {
        try {
            return listeners.get(index).server.getLocalAddress();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return every listen address as bound, in the configuration's form (tcp://, tls://, unix:, tls+unix:). */
    public List<String> describeListening() {
        final List<String> described = new ArrayList<>();
        for (int i = 0; i < listeners.size(); i++) {
            described.add(ListenAddress.format(localAddress(i), listeners.get(i).address.tls()));
        }
        return described;
    }

    /**
     * Accepts waiting clients and serves the connections that are ready, without blocking.
     *
     * @return how many connections were accepted, read from or written to
     */
    public int poll() {
        roundWork = 0;
        try {
            selector.selectNow(onReady);
        } catch (final IOException e) {
            throw new UncheckedIOException("selector failed", e);
        }
        return roundWork;
    }

    /**
     * Writes every connection's messages queued since the last flush, one write per connection, then up to
     * {@value #BULK_WRITES_PER_FLUSH} of the connections waiting with bulk messages, oldest first, as far as the bulk
     * writes a second allow; call once per round
     * of the I/O thread, after the sockets and the engine journal were polled.
     *
     * @return how many connections were written to
     */
    public int flush() {
        final int count = flushQueued();
        if (bulkCount == 0) {
            return count;
        }
        final long now = nanoClock.nanoTime();
        if (bulkToWrite == 0 && now - nextBulkWriteNanos >= 0) {
            nextBulkWriteNanos = now + bulkWriteIntervalNanos;
            bulkToWrite = bulkCount;
        }
        int bulkWritten = 0;
        for (; bulkWritten < BULK_WRITES_PER_FLUSH && bulkToWrite > 0 && bulkBudget.tryWrite(now); bulkWritten++) {
            bulkToWrite--;
            final NioConnection connection = bulk[bulkHead];
            bulk[bulkHead] = null;
            bulkHead = (bulkHead + 1) & (bulk.length - 1);
            bulkCount--;
            connection.flushBulkQueued(handler);
        }
        return count + bulkWritten;
    }

    /**
     * Writes every connection's messages queued since the last flush, one write per connection, but none of the
     * connections waiting only with bulk messages: the order path's reports leave before a round's market-data fan-out.
     *
     * @return how many connections were written to
     */
    public int flushQueued() {
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
            toFlush = Arrays.copyOf(toFlush, 2 * toFlushCount);
        }
        toFlush[toFlushCount++] = connection;
    }

    /** Queues a connection for a later {@link #flush} that has room in its bulk writes, oldest first. */
    void flushBulkLater(final NioConnection connection) {
        if (bulkCount == bulk.length) {
            final NioConnection[] grown = new NioConnection[2 * bulkCount];
            for (int i = 0; i < bulkCount; i++) {
                grown[i] = bulk[(bulkHead + i) & (bulk.length - 1)];
            }
            bulk = grown;
            bulkHead = 0;
        }
        bulk[(bulkHead + bulkCount++) & (bulk.length - 1)] = connection;
    }

    /**
     * Closes connections that have not been bound to a FIX session (no successful Logon) within
     * {@code timeoutNanos} of being accepted, so idle or silent sockets cannot pile up, and closing
     * connections that lingered longer than the linger time without their client reading.
     *
     * @return how many were closed
     */
    public int closeUnboundOlderThan(final long timeoutNanos) {
        final long now = nanoClock.nanoTime();
        int closed = 0;
        for (int i = connectionCount - 1; i >= 0; i--) {
            final NioConnection connection = connections[i];
            if (connection.state().isUnbound() && now - connection.acceptedNanos() > timeoutNanos) {
                handler.onLogonTimeout(connection, now - connection.acceptedNanos());
                connection.close();
                closed++;
            } else if (connection.state() == ConnectionState.LINGERING
                    && now - connection.closingSinceNanos() > lingerNanos) {
                connection.close();
                closed++;
            }
        }
        return closed;
    }

    /** @return connections open now (logged on, waiting for a Logon, or lingering). */
    public int connectionCount() {
        return connectionCount;
    }

    /** @return connections refused for {@code refusal} since the last {@link #clearRefused()}. */
    public int refused(final ConnectionRefusal refusal) {
        return limits.refusedCount(refusal);
    }

    /** @return connections refused for any reason since the last {@link #clearRefused()}. */
    public int refused() {
        return limits.refusedCount();
    }

    /** Starts counting refusals again, after the owner has logged them. */
    public void clearRefused() {
        limits.clearRefused();
    }

    /**
     * @return connections closed while waiting for their Logon, to make way for newer ones, since the last
     *         {@link #clearEvicted()}
     */
    public int evicted() {
        return evicted;
    }

    /** @return the address of the first connection {@link #evicted()} counts, or null if none. */
    public SocketAddress firstEvicted() {
        return firstEvicted;
    }

    /** @return the address of the last connection {@link #evicted()} counts, or null if none. */
    public SocketAddress lastEvicted() {
        return lastEvicted;
    }

    /** Starts counting evictions again, after the owner has logged them. */
    public void clearEvicted() {
        evicted = 0;
        firstEvicted = null;
        lastEvicted = null;
    }

    public int preLogonBuffersPerAddress() {
        return preLogonBuffers.perAddress();
    }

    public int maxConnections() {
        return limits.maxConnections();
    }

    public int maxConnectionsPerAddress() {
        return limits.maxPerAddress();
    }

    @Override
    public void close() {
        try {
            for (int i = connectionCount - 1; i >= 0; i--) {
                connections[i].close();
            }
            selector.close();
            sockets.close();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the buffers of {@code session}, now held by {@code connection}; a connection that still held
     *         them (lingering over its last message) is closed first
     */
    ConnectionBuffers sessionBuffers(final FixSession session, final NioConnection connection) {
        ConnectionBuffers buffers = sessionBuffers.get(session.id());
        if (buffers == null) {
            reserveSessionBuffers(session.id());
            buffers = sessionBuffers.get(session.id());
        }
        final NioConnection holder = buffers.holder();
        if (holder != connection) {
            if (holder != null) {
                holder.close();
            }
            buffers.lendTo(connection);
        }
        return buffers;
    }

    /** A write to {@code connection}'s socket returned: its owner hears at once. */
    void written(final NioConnection connection, final long writtenBytes) {
        handler.onWritten(connection, writtenBytes);
    }

    /** Takes back buffers {@code connection} no longer works in. */
    void giveBack(final ConnectionBuffers buffers, final NioConnection connection) {
        if (buffers.pooled) {
            preLogonBuffers.giveBack(buffers, connection);
        } else {
            buffers.returnFrom(connection);
        }
    }

    /** A connection closed: its buffers come back, it leaves the limits' counts and the table. */
    void closed(final NioConnection connection, final ConnectionBuffers buffers) {
        giveBack(buffers, connection);
        limits.close(connection.remoteAddressKey());
        final int slot = connection.slot;
        final NioConnection last = connections[--connectionCount];
        connections[slot] = last;
        last.slot = slot;
        connections[connectionCount] = null;
    }

    private void onReady(final SelectionKey key) {
        final Object attachment = key.attachment();
        if (attachment instanceof NioConnection connection) {
            roundWork += connection.onReady(key.readyOps(), handler);
        } else {
            acceptWaiting((Listener) attachment);
        }
    }

    private void acceptWaiting(final Listener listener) {
        for (int i = 0; i < ACCEPTS_PER_ROUND; i++) {
            final SocketChannel channel;
            try {
                channel = listener.server.accept();
            } catch (final IOException e) {
                return;
            }
            if (channel == null) {
                return;
            }
            roundWork++;
            admit(channel, listener.address);
        }
    }

    private void admit(final SocketChannel channel, final ListenAddress listen) {
        final SocketAddress remote;
        try {
            remote = channel.getRemoteAddress();
        } catch (final IOException e) {
            closeQuietly(channel);
            return;
        }
        final long addressKey = RemoteAddress.key(remote);
        if (limits.open(addressKey) != null) {
            closeQuietly(channel);
            return;
        }
        final TlsLayer tlsLayer;
        try {
            tlsLayer = listen.tls() ? new TlsLayer(tls.newServerEngine(remote), tls.packetBytes()) : null;
        } catch (final SSLException e) {
            limits.close(addressKey);
            closeQuietly(channel);
            return;
        }
        final NioConnection evict = preLogonBuffers.evictionFor(addressKey);
        if (evict != null) {
            evict(evict);
        }
        final NioConnection connection = new NioConnection(this, channel, remote, addressKey, reserve, tlsLayer, gate,
                nanoClock);
        final ConnectionBuffers buffers = preLogonBuffers.borrow(connection);
        final SelectionKey key;
        try {
            channel.configureBlocking(false);
            if (socketSendBufferBytes > 0) {
                channel.setOption(StandardSocketOptions.SO_SNDBUF, socketSendBufferBytes);
            }
            if (listen.family() == StandardProtocolFamily.INET) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                keepalive.applyTo(channel);
            }
            key = channel.register(selector, SelectionKey.OP_READ, connection);
        } catch (final IOException e) {
            // A client that vanished during accept: nothing to serve.
            limits.close(addressKey);
            preLogonBuffers.giveBack(buffers, connection);
            closeQuietly(channel);
            return;
        }
        connection.slot = connectionCount;
        connections[connectionCount++] = connection;
        connection.open(buffers, key);
    }

    /** Closes a connection still waiting for its Logon, which gives its pre-logon pair back, and counts it. */
    private void evict(final NioConnection connection) {
        connection.close();
        evicted++;
        if (firstEvicted == null) {
            firstEvicted = connection.remoteAddress();
        }
        lastEvicted = connection.remoteAddress();
    }

    private static void closeQuietly(final SocketChannel channel) {
        try {
            channel.close();
        } catch (final IOException ignored) {
            // Already gone.
        }
    }
}
