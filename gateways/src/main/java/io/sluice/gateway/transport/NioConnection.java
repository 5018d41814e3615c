package io.sluice.gateway.transport;

import io.sluice.contracts.time.SluiceClock;
import io.sluice.gateway.session.FixConnection;
import io.sluice.gateway.session.FixSession;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;

/**
 * One accepted client socket (TCP or Unix domain), non-blocking, served only when the transport's selector
 * reports it ready. It works in borrowed {@link ConnectionBuffers}: a pre-logon pair from the transport's
 * pool until a Logon binds it to a session, then that session's own pair (the pending bytes move across,
 * and the pre-logon pair goes back to the pool). The handler parses the receive buffer in place. Sending
 * never blocks and is batched: messages queued during one round go out in one write when the transport
 * {@link NioTransport#flush() flushes}; what the socket does not take waits in the send buffer, and the
 * connection asks the selector to report it writable; a message that does not fit is refused, which the
 * session treats as a client that cannot keep up. A reserve at the end of the send buffer keeps room for a
 * last message (the Logout saying why). Its life is an explicit {@link ConnectionState}: handshaking (TLS only),
 * awaiting logon, logged on, lingering, closed. On a TLS address a {@link TlsLayer} sits between the socket and the
 * buffers: the handler sees the same plaintext FIX bytes either way. It counts the bytes queued and the bytes the
 * socket took ({@link #queuedBytes()}, and {@link ConnectionHandler#onWritten} after every write), so its owner can
 * tell when a message has left. With a {@link SendGate} (a gateway in acknowledged replication) each queued message is
 * stamped, and a flush takes only the bytes of the messages the gate has released ({@link SendMarks}): a plain write
 * writes only those, and on TLS only those are handed to the SSLEngine's wrap (once wrapped, bytes are on their way);
 * the rest stays queued, in plaintext, until {@link NioTransport#releaseHeld()} finds the gate moved. Used only by the
 * transport's I/O thread.
 */
public final class NioConnection implements FixConnection {
    private final NioTransport transport;
    private final SocketChannel channel;
    private final SocketAddress remoteAddress;
    private final long remoteAddressKey;
    private final int reserve;
    private final SendGate gate;
    private final SendMarks marks;
    private final NanoClock nanoClock;
    private final long acceptedNanos;
    /** The TLS layer, or null on a plain address. */
    private final TlsLayer tls;
    private SelectionKey key;
    private ConnectionBuffers buffers;
    private ConnectionState state;
    private long queuedBytes;
    private long writtenBytes;
    private boolean writePending;
    private boolean flushQueued;
    private boolean bulkQueued;
    private long closingSinceNanos;
    private FixSession session;
    /** Index in the transport's table of connections. */
    int slot;

    NioConnection(final NioTransport transport, final SocketChannel channel, final SocketAddress remoteAddress,
                  final long remoteAddressKey, final int reserve, final TlsLayer tls, final SendGate gate,
                  final NanoClock nanoClock) {
        this.transport = transport;
        this.nanoClock = nanoClock;
        this.acceptedNanos = nanoClock.nanoTime();
        this.tls = tls;
        this.state = tls == null ? ConnectionState.AWAITING_LOGON : ConnectionState.HANDSHAKING;
        this.gate = gate;
        this.marks = gate == null ? null : new SendMarks();
        this.channel = channel;
        this.remoteAddress = remoteAddress;
        this.remoteAddressKey = remoteAddressKey;
        this.reserve = reserve;
    }

    /** Starts serving: the buffers it works in and its registration with the transport's selector. */
    void open(final ConnectionBuffers buffers, final SelectionKey key) {
        this.buffers = buffers;
        this.key = key;
    }

    @Override
    public boolean send(final DirectBuffer buffer, final int offset, final int length) {
        if (!state.isOpen() || buffers.send.remaining() - reserve < length) {
            return false;
        }
        append(buffer, offset, length);
        if (!flushQueued && !writePending) {
            flushQueued = true;
            transport.flushLater(this);
        }
        return true;
    }

    @Override
    public boolean sendBulk(final DirectBuffer buffer, final int offset, final int length) {
        if (!state.isOpen() || buffers.send.remaining() - reserve < length) {
            return false;
        }
        append(buffer, offset, length);
        if (!flushQueued && !bulkQueued && !writePending) {
            bulkQueued = true;
            transport.flushBulkLater(this);
        }
        return true;
    }

    @Override
    public int writableBytes() {
        return !state.isOpen() ? 0 : Math.max(0, buffers.send.remaining() - reserve);
    }

    @Override
    public long queuedBytes() {
        return queuedBytes;
    }

    /**
     * Queues the last message and closes: at once if the socket takes everything, otherwise after lingering
     * (reading nothing more) until the client has read what is queued or the transport's linger time ends,
     * so that a Logout explaining why reaches a client that is merely slow.
     */
    @Override
    public void sendAndClose(final DirectBuffer buffer, final int offset, final int length) {
        if (!state.isOpen()) {
            return;
        }
        if (buffers.send.remaining() >= length) {
            append(buffer, offset, length);
        }
        if (flush() && pending()) {
            state = ConnectionState.LINGERING;
            closingSinceNanos = nanoClock.nanoTime();
            interest(writePending ? SelectionKey.OP_WRITE : 0); // bytes a gate holds wait for releaseHeld()
        } else {
            close();
        }
    }

    @Override
    public void close() {
        if (state == ConnectionState.CLOSED) {
            return;
        }
        flush();
        if (tls != null && state != ConnectionState.HANDSHAKING) {
            tls.closeOutbound(channel, buffers);
        }
        state = ConnectionState.CLOSED;
        try {
            channel.close();
        } catch (final IOException ignored) {
            // Closing a socket that failed: nothing more to do.
        }
        transport.closed(this, buffers);
    }

    /** @return true once closed or closing: nothing more may be sent or received. */
    @Override
    public boolean isClosed() {
        return state == ConnectionState.LINGERING || state == ConnectionState.CLOSED;
    }

    /**
     * @return the certificate the client presented in the TLS handshake (trusted by the gateway's trust store), or
     *         null on a plain address or if it presented none
     */
    @Override
    public X509Certificate peerCertificate() {
        return tls == null || state == ConnectionState.HANDSHAKING ? null : tls.peerCertificate();
    }

    ConnectionState state() {
        return state;
    }

    long closingSinceNanos() {
        return closingSinceNanos;
    }

    @Override
    public FixSession session() {
        return session;
    }

    /**
     * Binds the connection to a session (or unbinds it, as the session lets go of a connection it is closing).
     * Binding moves it into the session's own buffers, with what it has queued to send, and into
     * {@link ConnectionState#LOGGED_ON}; the bytes still unread in the pre-logon receive buffer follow when the
     * handler returns from the read that bound it ({@link #read}).
     */
    @Override
    public void session(final FixSession session) {
        this.session = session;
        if (session != null && state.isOpen()) {
            final ConnectionBuffers own = transport.sessionBuffers(session, this);
            if (own != buffers) {
                own.takeOver(buffers);
                buffers = own;
            }
            state = ConnectionState.LOGGED_ON;
        }
    }

    @Override
    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    public long remoteAddressKey() {
        return remoteAddressKey;
    }

    /** @return when the connection was accepted, in the transport's {@link NanoClock}. */
    long acceptedNanos() {
        return acceptedNanos;
    }

    /**
     * Serves the readiness the selector reported: while lingering, writes what is still queued and closes
     * once it is out; otherwise writes what an earlier round could not, then reads what arrived and hands it
     * to the handler.
     *
     * @return 1 if bytes were written or read, else 0
     */
    int onReady(final int readyOps, final ConnectionHandler handler) {
        if (state == ConnectionState.CLOSED) {
            return 0;
        }
        if (state == ConnectionState.LINGERING) {
            if (!flush() || !pending()) {
                close();
            } else if (!writePending) {
                interest(0); // the rest is held by the gate: releaseHeld() writes it
            }
            return 1;
        }
        if (state == ConnectionState.HANDSHAKING) {
            return handshake(readyOps, handler);
        }
        int work = 0;
        if (writePending && (readyOps & SelectionKey.OP_WRITE) != 0) {
            if (!flush()) {
                lost(handler);
                return 1;
            }
            work = 1;
        }
        if ((readyOps & SelectionKey.OP_READ) != 0 && state.isOpen()) {
            work += read(handler);
        }
        return work;
    }

    /** Writes what was queued since the last flush (called by the transport once per round). */
    void flushQueued(final ConnectionHandler handler) {
        flushQueued = false;
        if (!flush()) {
            lost(handler);
        }
    }

    /** Writes what is queued, its turn in the transport's bulk queue come (already written if flushed since). */
    void flushBulkQueued(final ConnectionHandler handler) {
        bulkQueued = false;
        if (!flush()) {
            lost(handler);
        }
    }

    /** @return 1 if bytes were read (or the connection was lost), 0 if none had arrived. */
    private int read(final ConnectionHandler handler) {
        final ConnectionBuffers reading = buffers;
        final int read;
        try {
            read = channel.read(tls == null ? reading.receive : reading.tlsIn);
        } catch (final IOException e) {
            lost(handler);
            return 1;
        }
        if (read < 0) {
            lost(handler);
            return 1;
        }
        if (read == 0) {
            return 0;
        }
        if (tls != null) {
            unwrapAndDeliver(handler);
        } else {
            deliver(handler);
        }
        return 1;
    }

    /**
     * The TLS handshake's turn: reads the client's records, answers them, and once the handshake is done moves on to
     * {@link ConnectionState#AWAITING_LOGON} (FIX bytes that came with the client's last flight are handed on at
     * once). A failed handshake is reported to the handler with its reason and the connection closed.
     */
    private int handshake(final int readyOps, final ConnectionHandler handler) {
        try {
            if ((readyOps & SelectionKey.OP_READ) != 0 && channel.read(buffers.tlsIn) < 0) {
                // Gone before finishing (a port probe, a client giving up): not a failed handshake.
                lost(handler);
                return 1;
            }
            final TlsLayer.HandshakeStep step = tls.handshake(channel, buffers);
            if (step == TlsLayer.HandshakeStep.DONE) {
                state = ConnectionState.AWAITING_LOGON;
                interest(SelectionKey.OP_READ);
                handler.onHandshakeDone(this, tls.describe());
                unwrapAndDeliver(handler);
            } else {
                interest(step == TlsLayer.HandshakeStep.NEED_WRITE
                        ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
            }
        } catch (final SSLException e) {
            buffers.send.clear();
            close();
            handler.onHandshakeFailed(this, e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (final IOException e) {
            lost(handler);
        }
        return 1;
    }

    /**
     * Unwraps the records read so far and hands their FIX bytes to the handler, as often as the receive buffer
     * needs to make room; answers records the engine must answer (a key update).
     */
    private void unwrapAndDeliver(final ConnectionHandler handler) {
        while (state.isOpen()) {
            final TlsLayer.Unwrapped unwrapped;
            try {
                unwrapped = tls.unwrap(buffers);
            } catch (final SSLException e) {
                lost(handler);
                return;
            }
            if (tls.wantsWrap() && !flush()) {
                lost(handler);
                return;
            }
            if (unwrapped == TlsLayer.Unwrapped.PEER_CLOSED) {
                lost(handler);
                return;
            }
            if (buffers.receive.position() > 0 && !deliver(handler)) {
                return;
            }
            if (unwrapped == TlsLayer.Unwrapped.NEED_MORE) {
                return;
            }
        }
    }

    /**
     * Hands the receive buffer's bytes to the handler and keeps what it did not consume.
     *
     * @return false if the connection closed or was lost meanwhile
     */
    private boolean deliver(final ConnectionHandler handler) {
        final ConnectionBuffers reading = buffers;
        final ByteBuffer receive = reading.receive;
        final int available = receive.position();
        final int consumed = handler.onData(this, reading.receiveView, 0, available, SluiceClock.nowTicks());
        if (buffers != reading) {
            // A Logon bound the connection to its session: unread bytes follow it, the pre-logon pair goes back.
            if (consumed >= 0 && state.isOpen()) {
                buffers.receiveView.putBytes(0, reading.receiveView, consumed, available - consumed);
                buffers.receive.position(available - consumed);
            }
            transport.giveBack(reading, this);
            return consumed >= 0 && state.isOpen();
        }
        if (consumed < 0 || !state.isOpen()) {
            return false;
        }
        final int remaining = available - consumed;
        if (consumed > 0 && remaining > 0) {
            reading.receiveView.putBytes(0, reading.receiveView, consumed, remaining);
        }
        receive.position(remaining);
        if (!receive.hasRemaining()) {
            // A frame larger than the receive buffer: the framer's body limit makes this unreachable.
            lost(handler);
            return false;
        }
        return true;
    }

    private void append(final DirectBuffer buffer, final int offset, final int length) {
        final ByteBuffer send = buffers.send;
        final int position = send.position();
        buffers.sendView.putBytes(position, buffer, offset, length);
        send.position(position + length);
        queuedBytes += length;
        if (marks != null) {
            marks.mark(queuedBytes, gate.stamp());
        }
    }

    /**
     * Writes bytes the gate released since they were queued, unless the socket is already waited for.
     *
     * @return 1 if it tried, 0 if nothing was held
     */
    int releaseHeld(final ConnectionHandler handler) {
        if (marks == null || !marks.holding() || writePending || state == ConnectionState.CLOSED) {
            return 0;
        }
        if (!flush()) {
            lost(handler);
        } else if (state == ConnectionState.LINGERING) {
            if (!pending()) {
                close();
            } else if (writePending) {
                interest(SelectionKey.OP_WRITE);
            }
        }
        return 1;
    }

    /** @return false if the socket failed. */
    private boolean flush() {
        if (state == ConnectionState.CLOSED) {
            return true;
        }
        final ByteBuffer send = buffers.send;
        final long written;
        final boolean pending;
        if (tls != null) {
            if (state == ConnectionState.HANDSHAKING || !tls.pending(buffers) && !tls.wantsWrap()) {
                return true;
            }
            written = tls.flush(channel, buffers, releasable(send.position()));
            if (written < 0) {
                send.clear();
                return false;
            }
            // Waiting for the socket for records and released plaintext; what the gate holds waits for releaseHeld().
            pending = tls.recordsWaiting(buffers) || releasable(send.position()) > 0;
        } else {
            final int queued = send.position();
            if (queued == 0) {
                return true;
            }
            final int releasable = releasable(queued);
            int socketTook = 0;
            if (releasable > 0) {
                send.position(0).limit(releasable);
                try {
                    socketTook = channel.write(send);
                } catch (final IOException e) {
                    socketTook = -1;
                }
                send.limit(queued);
                if (socketTook < 0) {
                    send.clear();
                    if (marks != null) {
                        marks.clear(queuedBytes);
                    }
                    return false;
                }
                send.compact();
            }
            written = socketTook;
            // Waiting for the socket only for bytes it may take; bytes the gate holds wait for releaseHeld().
            pending = socketTook < releasable;
        }
        if (written > 0) {
            writtenBytes += written;
            transport.written(this, writtenBytes);
        }
        if (pending != writePending && state.isOpen()) {
            interest(pending ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }
        writePending = pending;
        return true;
    }

    /**
     * @return how many of the {@code queued} bytes at the start of the send buffer may leave now: all of them without
     *         a gate, else those of the messages whose stamp the gate has released (the send buffer holds the stream's
     *         bytes from {@code queuedBytes - queued} on: those before were written, or on TLS wrapped)
     */
    private int releasable(final int queued) {
        return marks == null ? queued : (int) Math.max(0,
                Math.min(queued, marks.releasedEnd(gate.released()) - (queuedBytes - queued)));
    }

    /** @return true while bytes wait to go out (plaintext, or TLS records). */
    private boolean pending() {
        return tls != null ? tls.pending(buffers) : buffers.send.position() > 0;
    }

    private void interest(final int ops) {
        if (key.isValid()) {
            key.interestOps(ops);
        }
    }

    private void lost(final ConnectionHandler handler) {
        if (state != ConnectionState.CLOSED) {
            buffers.send.clear();
            if (marks != null) {
                marks.clear(queuedBytes);
            }
            close();
            handler.onDisconnected(this);
        }
    }
}
