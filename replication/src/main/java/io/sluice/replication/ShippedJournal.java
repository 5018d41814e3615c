package io.sluice.replication;

import io.sluice.contracts.journal.ExcerptCount;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

import java.nio.file.Path;

/**
 * One journal a {@link Shipper} tails: opened read-only, its tailer, the excerpt read but not yet sent (held by the
 * {@link CausalGate}, or refused by a producer that could not take it), and the excerpts sent in the open transaction
 * (in order, with when each was read).
 */
final class ShippedJournal implements AutoCloseable {
    /** Where a journal is in its life in the shipper. */
    enum State {
        /** Opened; where to resume not yet learnt from Kafka. */
        RESUMING,
        /** Resumed: shipping from the excerpt after the last one Kafka holds. */
        SHIPPING
    }

    /** The most excerpts of one journal in one transaction; the shipper reads no further until it is committed. */
    static final int MAX_IN_FLIGHT = 1 << 14;

    final JournalName name;
    final String topic;
    final ChronicleQueue queue;
    final ExcerptTailer tailer;
    State state = State.RESUMING;
    /** Its counters, from when it resumed. */
    ReplicationCounters.Journal counters;

    /** The index of the last excerpt read from the journal, -1 before any. */
    long lastReadIndex = -1;
    byte[] pending;
    long pendingIndex = -1;
    /** When the pending excerpt was read, SluiceClock ticks. */
    long pendingReadTicks;

    /** When Kafka last acknowledged an excerpt of this journal: set by the producer's callback thread. */
    volatile long lastAcknowledgedNanos = System.nanoTime();

    private final long[] inFlightIndex = new long[MAX_IN_FLIGHT];
    private final long[] inFlightReadTicks = new long[MAX_IN_FLIGHT];
    private long head;
    private long tail;
    long processedIndex = -1;
    /** Excerpts committed since this shipper started. */
    long acknowledged;

    ShippedJournal(final JournalName name, final String topic, final Path dir) {
        this.name = name;
        this.topic = topic;
        this.queue = Journals.openReadOnly(dir);
        this.tailer = queue.createTailer();
    }

    boolean inFlightFull() {
        return tail - head == MAX_IN_FLIGHT;
    }

    long inFlight() {
        return tail - head;
    }

    /** Records an excerpt sent in the open transaction: its index, and when it was read (SluiceClock ticks). */
    void sent(final long index, final long readTicks) {
        final int slot = (int) (tail++ & (MAX_IN_FLIGHT - 1));
        inFlightIndex[slot] = index;
        inFlightReadTicks[slot] = readTicks;
    }

    /** @return when the oldest excerpt read and not yet committed was read (SluiceClock ticks), or 0 if none */
    long oldestUnacknowledgedReadTicks() {
        if (head < tail) {
            return inFlightReadTicks[(int) (head & (MAX_IN_FLIGHT - 1))];
        }
        return pending != null ? pendingReadTicks : 0;
    }

    /**
     * The transaction holding every excerpt sent since the last commit is committed (the gate learns it from the
     * shipper, once for every journal): Kafka holds this journal up to the last of them.
     *
     * @return the number of excerpts committed
     */
    int committed() {
        final int count = (int) (tail - head);
        if (count > 0) {
            processedIndex = inFlightIndex[(int) ((tail - 1) & (MAX_IN_FLIGHT - 1))];
            head = tail;
            acknowledged += count;
        }
        return count;
    }

    /**
     * The transaction was aborted: what was sent since the last commit is not in Kafka, and where the journal resumes is
     * learnt from Kafka again, as at start.
     */
    void rewind() {
        head = tail;
        pending = null;
        state = State.RESUMING;
    }

    /**
     * The journal resumes after {@code index}, its last record Kafka has committed (whose command, if any, was
     * {@code eventId}): tells the gate.
     */
    void resumesAfter(final CausalGate gate, final long index, final long eventId) {
        processedIndex = index;
        switch (name.kind()) {
            case GATEWAY_COMMANDS, ADMIN -> gate.commandCommitted(name.gatewayId(), eventId);
            case ENGINE -> gate.engineCommitted(index);
            case GATEWAY_OUT -> {
            }
        }
    }

    /**
     * @return how many excerpts the journal holds after {@code index} (all of them for -1), now, or
     * {@link ExcerptCount#UNKNOWN} at the instant its writer creates a cycle file
     */
    long excerptsAfter(final long index) {
        return ExcerptCount.after(queue, index);
    }

    @Override
    public void close() {
        tailer.close();
        queue.close();
    }
}
