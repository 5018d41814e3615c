package io.sluice.replication;

import io.sluice.contracts.journal.ExcerptCount;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * One journal a {@link Shipper} tails: opened read-only, its tailer, the excerpt read but not yet framed (held by the
 * {@link CausalGate}; its bytes in a buffer reused), where the log holds it up to, and what Kafka has acknowledged of
 * it (written by the producer's callback thread, read by the agent).
 */
final class ShippedJournal implements AutoCloseable {
    /** Where a journal is in its life in the shipper. */
    enum State {
        /** Opened; where to resume not yet learnt from the log. */
        RESUMING,
        /** Resumed: shipping from the excerpt after the last one the log holds. */
        SHIPPING
    }

    final JournalName name;
    /** The journal's name in ASCII, as a log frame names it. */
    final byte[] nameBytes;
    final ChronicleQueue queue;
    final ExcerptTailer tailer;
    State state = State.RESUMING;
    /** Its counters, from when it first resumed. */
    ReplicationCounters.Journal counters;

    /** The excerpt read and not yet framed: its bytes (the first {@link #pendingLength}), index and read time. */
    final UnsafeBuffer pending = new UnsafeBuffer(new byte[512]);
    int pendingLength = -1;
    long pendingIndex = -1;
    long pendingReadTicks;

    /** The last excerpt in the frames handed to the producer (the log holds it once they are acknowledged), -1: none. */
    long loggedIndex = -1;
    /** The CRC-32C of that excerpt. */
    int loggedChecksum;
    /** In the frame being built: how many excerpts, the last one's index and checksum. */
    int frameCount;
    long frameLastIndex;
    int frameLastChecksum;

    /** The last excerpt Kafka has acknowledged, -1 before any: written by the producer's callback thread. */
    volatile long acknowledgedIndex = -1;
    /** Excerpts Kafka acknowledged since this shipper started: written by the producer's callback thread. */
    volatile long acknowledged;

    ShippedJournal(final JournalName name, final Path dir) {
        this.name = name;
        this.nameBytes = name.name().getBytes(StandardCharsets.US_ASCII);
        this.queue = Journals.openReadOnly(dir);
        this.tailer = queue.createTailer();
        // Read by the shipper's agent thread alone: Chronicle's check of that on every read costs a tenth of the
        // shipper's CPU, each poll of an idle journal included.
        this.tailer.singleThreadedCheckDisabled(true);
    }

    boolean hasPending() {
        return pendingLength >= 0;
    }

    /** @return true if the next excerpt was read into {@link #pending}, false if there is none yet */
    boolean readNext(final long nowTicks) {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return false;
            }
            final Bytes<?> bytes = dc.wire().bytes();
            final int length = (int) bytes.readRemaining();
            if (pending.capacity() < length) {
                pending.wrap(new byte[Math.max(length, 2 * pending.capacity())]);
            }
            bytes.read(pending.byteArray(), 0, length);
            pendingLength = length;
            pendingIndex = dc.index();
            pendingReadTicks = nowTicks;
            return true;
        }
    }

    /** The pending excerpt went into the frame being built, with its CRC-32C. */
    void framed(final int checksum) {
        frameCount++;
        frameLastIndex = pendingIndex;
        frameLastChecksum = checksum;
        pendingLength = -1;
    }

    /** The frame being built went to the producer: the log holds its excerpts once Kafka acknowledges it. */
    void frameSent() {
        loggedIndex = frameLastIndex;
        loggedChecksum = frameLastChecksum;
        frameCount = 0;
    }

    /** Kafka acknowledged excerpts of this journal up to {@code index}, {@code count} of them: on the callback thread. */
    void acknowledge(final long index, final int count) {
        acknowledgedIndex = index;
        acknowledged += count; // one writer: the producer's callback thread
        counters.acknowledgedIndex.setRelease(index);
        counters.records.getAndAddRelease(count);
    }

    /**
     * The journal resumes after {@code index} (-1: from its first excerpt), the last excerpt the log holds of it, whose
     * CRC-32C is {@code checksum}.
     */
    void resumeAfter(final long index, final int checksum) {
        loggedIndex = index;
        loggedChecksum = checksum;
        frameCount = 0;
        pendingLength = -1;
        acknowledgedIndex = Math.max(acknowledgedIndex, index);
        counters.acknowledgedIndex.setRelease(acknowledgedIndex);
        state = State.SHIPPING;
    }

    /** A transaction was aborted: where the journal resumes is learnt from the log again, as at start. */
    void rewind() {
        pendingLength = -1;
        frameCount = 0;
        state = State.RESUMING;
    }

    /**
     * @return how many excerpts of the journal Kafka has not acknowledged, read or not; or {@link ExcerptCount#UNKNOWN}
     * at the instant its writer creates a cycle file
     */
    long behind() {
        return ExcerptCount.after(queue, acknowledgedIndex);
    }

    @Override
    public void close() {
        tailer.close();
        queue.close();
    }
}
