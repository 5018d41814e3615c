package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.codec.FixFramer;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.testkit.fix.FixFields;
import org.agrona.DirectBuffer;

import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.Deque;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A connection whose far end is the test: what the session sends is framed, parsed and queued for
 * assertions, and the test decides when the "socket" is full. Session tests drive sessions directly,
 * with a clock they move by hand, so every timing rule is tested without sleeping.
 */
final class MemoryConnection implements FixConnection {
    private final Deque<FixFields> sent = new ArrayDeque<>();
    private final FixFramer framer = new FixFramer(65_536);
    private final FixMessage message = new FixMessage(256);
    private FixSession session;
    private boolean closed;
    private boolean full;
    private int budget = -1;
    private long addressKey = 7;
    private long queuedBytes;

    @Override
    public boolean send(final DirectBuffer buffer, final int offset, final int length) {
        if (closed || full || budget == 0) {
            return false;
        }
        if (budget > 0) {
            budget--;
        }
        record(buffer, offset, length);
        return true;
    }

    @Override
    public long queuedBytes() {
        return queuedBytes;
    }

    @Override
    public int writableBytes() {
        return closed || full || budget == 0 ? 0 : 1 << 20;
    }

    /** From now on the "socket" takes only {@code messages} more messages until {@link #unlimited()}. */
    void takeOnly(final int messages) {
        budget = messages;
    }

    void unlimited() {
        budget = -1;
    }

    @Override
    public SocketAddress remoteAddress() {
        return null;
    }

    @Override
    public long remoteAddressKey() {
        return addressKey;
    }

    /** The client connects from source address {@code key} (7 unless told). */
    MemoryConnection from(final long key) {
        addressKey = key;
        return this;
    }

    @Override
    public void sendAndClose(final DirectBuffer buffer, final int offset, final int length) {
        if (!closed) {
            record(buffer, offset, length);
        }
        close();
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public boolean isClosed() {
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

    /** From now on the client reads nothing: every send is refused. */
    void fill() {
        full = true;
    }

    /** @return the next message the session sent, asserting its MsgType. */
    FixFields next(final String msgType) {
        final FixFields next = sent.poll();
        assertNotNull(next, "expected a " + msgType + " message, the session sent nothing more");
        assertEquals(msgType, next.msgType(), () -> "unexpected message " + next);
        return next;
    }

    /** Forgets what was sent so far. */
    void clear() {
        sent.clear();
    }

    boolean nothingSent() {
        return sent.isEmpty();
    }

    private void record(final DirectBuffer buffer, final int offset, final int length) {
        queuedBytes += length;
        assertEquals(length, framer.scan(buffer, offset, length));
        assertEquals(FixError.NONE, framer.error());
        assertEquals(FixError.NONE, message.parse(buffer, framer.bodyStart(), framer.bodyEnd()));
        sent.add(new FixFields(message, buffer.getStringWithoutLengthAscii(offset, length).replace('\u0001', '|')));
    }
}
