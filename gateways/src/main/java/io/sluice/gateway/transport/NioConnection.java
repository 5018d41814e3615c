package io.sluice.gateway.transport;

import io.sluice.contracts.time.SluiceClock;
import io.sluice.gateway.session.FixConnection;
import io.sluice.gateway.session.FixSession;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One accepted client socket (TCP or Unix domain), non-blocking, with a receive buffer the handler parses
 * in place and a bounded send buffer. The transport {@link #poll polls} it once per round of the I/O thread
 * (no selector: see {@link NioTransport}). Sending never blocks and is batched: messages queued during one
 * round go out in one write when the transport {@link NioTransport#flush() flushes} (an ack and a fill read
 * together from the engine journal cost one system call, and the client one wake-up); what the socket does
 * not take then waits in the send buffer and is written again each round, and a message that does not fit
 * is refused, which the session treats as a client that cannot keep up. A reserve at the end of the send
 * buffer keeps room for a last message (the Logout saying why). Used only by the transport's I/O thread.
 */
public final class NioConnection implements FixConnection {
    private final SocketChannel channel;
    private final NioTransport transport;
    private final ByteBuffer receive;
    private final UnsafeBuffer receiveView;
    private final ByteBuffer send;
    private final UnsafeBuffer sendView;
    private final int reserve;
    private final long acceptedNanos = System.nanoTime();
    private boolean writePending;
    private boolean flushQueued;
    private boolean closed;
    private long closingSinceNanos;
    private FixSession session;

    NioConnection(final NioTransport transport, final SocketChannel channel, final int receiveBytes,
                  final int sendBytes, final int reserve) {
        this.transport = transport;
        this.channel = channel;
        this.receive = ByteBuffer.allocateDirect(receiveBytes);
        this.receiveView = new UnsafeBuffer(receive);
        this.send = ByteBuffer.allocateDirect(sendBytes + reserve);
        this.sendView = new UnsafeBuffer(send);
        this.reserve = reserve;
    }

    @Override
    public boolean send(final DirectBuffer buffer, final int offset, final int length) {
        if (isClosed() || send.remaining() - reserve < length) {
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
    public int writableBytes() {
        return isClosed() ? 0 : Math.max(0, send.remaining() - reserve);
    }

    /**
     * Queues the last message and closes: at once if the socket takes everything, otherwise after lingering
     * (reading nothing more) until the client has read what is queued or the transport's linger time ends,
     * so that a Logout explaining why reaches a client that is merely slow.
     */
    @Override
    public void sendAndClose(final DirectBuffer buffer, final int offset, final int length) {
        if (isClosed()) {
            return;
        }
        if (send.remaining() >= length) {
            append(buffer, offset, length);
        }
        if (flush() && send.position() > 0) {
            closingSinceNanos = System.nanoTime();
        } else {
            close();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        flush();
        closed = true;
        try {
            channel.close();
        } catch (final IOException ignored) {
            // Closing a socket that failed: nothing more to do.
        }
    }

    /** @return true once closed or closing: nothing more may be sent or received. */
    @Override
    public boolean isClosed() {
        return closed || closingSinceNanos != 0;
    }

    /** @return true while lingering to flush a last message, since {@link #closingSinceNanos()}. */
    boolean isLingering() {
        return !closed && closingSinceNanos != 0;
    }

    long closingSinceNanos() {
        return closingSinceNanos;
    }

    boolean isFullyClosed() {
        return closed;
    }

    @Override
    public FixSession session() {
        return session;
    }

    @Override
    public void session(final FixSession session) {
        this.session = session;
    }

    /** @return when the connection was accepted, in {@link System#nanoTime()}. */
    public long acceptedNanos() {
        return acceptedNanos;
    }

    /** @return bytes waiting in the send buffer. */
    public int pendingBytes() {
        return send.position();
    }

    /**
     * One round: while lingering, writes what is still queued and closes once it is out; otherwise writes
     * what an earlier round could not, then reads what arrived and hands it to the handler.
     *
     * @return 1 if bytes were written or read, else 0
     */
    int poll(final ConnectionHandler handler) {
        if (closed) {
            return 0;
        }
        if (closingSinceNanos != 0) {
            final int before = send.position();
            if (!flush() || send.position() == 0) {
                close();
            }
            return before == send.position() ? 0 : 1;
        }
        int work = 0;
        if (writePending) {
            final int before = send.position();
            if (!flush()) {
                lost(handler);
                return 1;
            }
            work = before == send.position() ? 0 : 1;
        }
        return work + read(handler);
    }

    /** Writes what was queued since the last flush (called by the transport once per round). */
    void flushQueued(final ConnectionHandler handler) {
        flushQueued = false;
        if (!flush()) {
            lost(handler);
        }
    }

    /** @return 1 if bytes were read (or the connection was lost), 0 if none had arrived. */
    private int read(final ConnectionHandler handler) {
        final int read;
        try {
            read = channel.read(receive);
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
        final int available = receive.position();
        final int consumed = handler.onData(this, receiveView, 0, available, SluiceClock.nowTicks());
        if (consumed < 0 || closed) {
            return 1;
        }
        final int remaining = available - consumed;
        if (consumed > 0 && remaining > 0) {
            receiveView.putBytes(0, receiveView, consumed, remaining);
        }
        receive.position(remaining);
        if (!receive.hasRemaining()) {
            // A frame larger than the receive buffer: the framer's body limit makes this unreachable.
            lost(handler);
        }
        return 1;
    }

    private void append(final DirectBuffer buffer, final int offset, final int length) {
        final int position = send.position();
        sendView.putBytes(position, buffer, offset, length);
        send.position(position + length);
    }

    /** @return false if the socket failed. */
    private boolean flush() {
        if (closed || send.position() == 0) {
            return true;
        }
        send.flip();
        boolean written = true;
        try {
            channel.write(send);
        } catch (final IOException e) {
            written = false;
        }
        send.compact();
        if (!written) {
            send.clear();
            return false;
        }
        writePending = send.position() > 0;
        return true;
    }

    private void lost(final ConnectionHandler handler) {
        if (!closed) {
            send.clear();
            close();
            handler.onDisconnected(this);
        }
    }
}
