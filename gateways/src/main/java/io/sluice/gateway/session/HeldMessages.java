package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixMessage;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Client messages that arrived with a MsgSeqNum too high, held in arrival order while the session asks for
 * the gap to be resent, and handled once the gap is filled, as QuickFIX/J does: each is handled as soon as its
 * turn comes instead of when the client's resend reaches it, and the resent copy (PossDupFlag=Y, now too low)
 * is ignored. Bounded: a message that does not fit is not held; the resend, which asks for everything from the
 * gap on, brings it again. The buffer is made at the first gap, so sessions that never see one pay nothing;
 * holding and releasing allocate nothing. Each entry is the message's seq, receive time, a flag and its body
 * (MsgType up to CheckSum), copied.
 */
final class HeldMessages {
    private static final int SEQ = 0;
    private static final int TICKS = 8;
    private static final int LENGTH = 16;
    private static final int ANSWERED = 20;
    private static final int HEADER = 24;

    private final int capacity;
    private UnsafeBuffer buffer;
    private FixMessage released;
    private int head;
    private int tail;

    /** @param capacity the most bytes held, entry headers included */
    HeldMessages(final int capacity) {
        this.capacity = capacity;
    }

    /**
     * Holds a copy of {@code message}.
     *
     * @param answered the session already acted on it (a ResendRequest answered at once): on release it only
     *                 takes its place in the sequence
     * @return false if there is no room for it
     */
    boolean hold(final long seq, final FixMessage message, final long receivedTicks, final boolean answered) {
        final int length = message.bodyEnd() - message.bodyStart();
        final int entry = align(HEADER + length);
        if (buffer == null) {
            buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
            released = new FixMessage(message.maxFields(), message.validation());
        }
        if (head == tail) {
            head = 0;
            tail = 0;
        }
        if (tail + entry > capacity) {
            return false;
        }
        buffer.putLong(tail + SEQ, seq);
        buffer.putLong(tail + TICKS, receivedTicks);
        buffer.putInt(tail + LENGTH, length);
        buffer.putInt(tail + ANSWERED, answered ? 1 : 0);
        buffer.putBytes(tail + HEADER, message.buffer(), message.bodyStart(), length);
        tail += entry;
        return true;
    }

    boolean isEmpty() {
        return head == tail;
    }

    /** @return the MsgSeqNum of the oldest held message; only when not {@link #isEmpty()}. */
    long firstSeq() {
        return buffer.getLong(head + SEQ);
    }

    /** @return when the oldest held message was received, in SluiceClock ticks. */
    long firstReceivedTicks() {
        return buffer.getLong(head + TICKS);
    }

    /** @return true if the session already acted on the oldest held message. */
    boolean firstAnswered() {
        return buffer.getInt(head + ANSWERED) != 0;
    }

    /**
     * Removes the oldest held message and returns it parsed; valid until the next {@link #hold}, which may
     * reuse its bytes.
     */
    FixMessage release() {
        final int length = buffer.getInt(head + LENGTH);
        released.parse(buffer, head + HEADER, head + HEADER + length);
        head += align(HEADER + length);
        return released;
    }

    /** Forgets the oldest held message. */
    void drop() {
        head += align(HEADER + buffer.getInt(head + LENGTH));
    }

    void clear() {
        head = 0;
        tail = 0;
    }

    private static int align(final int length) {
        return (length + 7) & ~7;
    }
}
