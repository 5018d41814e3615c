package io.sluice.replication;

import net.openhft.chronicle.queue.impl.RollingChronicleQueue;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.single.InternalAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.apache.kafka.common.TopicPartition;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * One journal a {@link Receiver} rebuilds under the replica root: the local journal, which is the receiver's commit
 * point (its last index and its excerpt count say which record of the topic comes next), and Chronicle's low-level
 * appender, which writes a record's bytes as the excerpt at the record's own index. Every record must be exactly the
 * next excerpt: the next sequence of the same cycle, or sequence 0 of a later cycle (a journal rolled); anything else
 * is a gap or a mismatch and stops the receiver.
 */
final class ReplicaJournal implements AutoCloseable {
    final JournalName name;
    final TopicPartition partition;
    final ChronicleQueue queue;
    private final InternalAppender appender;
    private final RollCycle rollCycle;
    long lastIndex;
    long count;
    long duplicates;
    /** SluiceClock time the last record written was stamped with by its writer (or read by the shipper). */
    long lastStampTicks;

    ReplicaJournal(final JournalName name, final TopicPartition partition, final Path dir) {
        this.name = name;
        this.partition = partition;
        this.queue = Journals.open(dir);
        this.appender = (InternalAppender) queue.createAppender();
        this.rollCycle = queue.rollCycle();
        final long last = queue.lastIndex();
        lastIndex = last < 0 ? -1 : last;
        count = lastIndex < 0 ? 0 : ((RollingChronicleQueue) queue).countExcerpts(queue.firstIndex(), lastIndex) + 1;
    }

    /** @return the bytes of the local excerpt at {@code index}, or null if there is none */
    byte[] excerptAt(final long index) {
        try (ExcerptTailer tailer = queue.createTailer()) {
            if (!tailer.moveToIndex(index)) {
                return null;
            }
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return null;
                }
                final Bytes<?> bytes = dc.wire().bytes();
                final byte[] copy = new byte[(int) bytes.readRemaining()];
                bytes.read(copy);
                return copy;
            }
        }
    }

    /** @return why {@code index} cannot be the next excerpt, or null if it is exactly the next */
    String notNext(final long index) {
        if (lastIndex < 0) {
            return rollCycle.toSequenceNumber(index) == 0 ? null
                    : "the replica journal is empty, so its first excerpt must be sequence 0 of a cycle";
        }
        final int lastCycle = rollCycle.toCycle(lastIndex);
        final int cycle = rollCycle.toCycle(index);
        if (cycle == lastCycle && index == lastIndex + 1) {
            return null;
        }
        if (cycle > lastCycle && rollCycle.toSequenceNumber(index) == 0) {
            return null;
        }
        return "expected the excerpt after " + IndexText.of(lastIndex) + (index > lastIndex ? ": a gap" : ": an index already written");
    }

    /** @return true if {@code bytes} equal the local excerpt at {@code index} (a record Kafka holds twice) */
    boolean holds(final long index, final byte[] bytes) {
        return Arrays.equals(excerptAt(index), bytes);
    }

    /** Writes {@code bytes} as the excerpt at {@code index}, which {@link #notNext} accepted. */
    void write(final long index, final byte[] bytes) {
        appender.writeBytes(index, Bytes.wrapForRead(bytes));
        final long written = appender.lastIndexAppended();
        if (written != index) {
            throw ReplicationRefusedException.at(Receiver.ROLE, name, index, "Chronicle appended the record at "
                    + IndexText.of(written) + " instead");
        }
        lastIndex = index;
        count++;
    }

    @Override
    public void close() {
        appender.close();
        queue.close();
    }
}
