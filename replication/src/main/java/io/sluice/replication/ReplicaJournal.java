package io.sluice.replication;

import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.journal.JournalDiskFullException;
import io.sluice.runtime.journal.JournalSpace;
import io.sluice.runtime.journal.JournalSpaceKeeper;
import io.sluice.runtime.journal.SpaceLevel;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.single.InternalAppender;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One journal a {@link Receiver} rebuilds under the replica root: the local journal, which is the receiver's commit
 * point (its last index says which record of the topic comes next), and Chronicle's low-level
 * appender, which writes a record's bytes as the excerpt at the record's own index. Every record must be exactly the
 * next excerpt: the next sequence of the same cycle, or sequence 0 of a later cycle (a journal rolled); anything else
 * is a gap or a mismatch and stops the receiver.
 * <p>
 * A full disk is an expected state here as for every Sluice writer: the receiver's one keeper thread keeps
 * {@link JournalSpace#DEFAULT_RESERVE_BYTES} of disk reserved ahead of the appender ({@link JournalSpace}); while none
 * is reserved yet the receiver holds the log ({@link #mayWrite} is false), and with none to be had the receiver
 * stops before writing ({@link JournalDiskFullException}).
 */
final class ReplicaJournal implements AutoCloseable {
    final JournalName name;
    /** The journal's name in ASCII, as a log frame names it. */
    final byte[] nameBytes;
    final ChronicleQueue queue;
    private final InternalAppender appender;
    private final RollCycle rollCycle;
    private final JournalSpace space;
    /**
     * The record's bytes, copied for the appender: one buffer reused, where wrapping each record would allocate. Off
     * the heap, so that Chronicle copies it into the mapped journal in one block: from a heap buffer it wrote the
     * excerpt eight bytes at a time, each write checking its offset (60 % of the receiver's samples in a profile).
     */
    private final Bytes<Void> scratch = Bytes.allocateElasticDirect(1024);
    long lastIndex;
    long duplicates;
    /** SluiceClock time the last record written was stamped with by its writer (or read by the shipper). */
    long lastStampTicks;
    /** Its counters, from when it was added. */
    ReplicationCounters.Journal counters;

    /**
     * Opens the replica of journal {@code name} at {@code dir}, its disk space kept by {@code keeper}, which closes it
     * too (closed before this journal).
     */
    ReplicaJournal(final JournalName name, final Path dir, final JournalSpaceKeeper keeper) {
        this.name = name;
        this.nameBytes = name.name().getBytes(StandardCharsets.US_ASCII);
        JournalSpace.requireRoomToCreate(dir, JournalSpace.DEFAULT_RESERVE_BYTES);
        this.queue = Journals.open(dir);
        this.appender = (InternalAppender) queue.createAppender();
        // Written by the receiver's agent thread alone: Chronicle's check of that on every write is pure cost.
        this.appender.singleThreadedCheckDisabled(true);
        this.space = new JournalSpace(queue, JournalSpace.DEFAULT_RESERVE_BYTES, JournalSpace.DEFAULT_WARNING_BYTES);
        keeper.add(space);
        this.rollCycle = queue.rollCycle();
        final long last = queue.lastIndex();
        lastIndex = last < 0 ? -1 : last;
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

    /**
     * @return true if the {@code length} bytes of {@code bytes} from {@code offset} equal the local excerpt at
     * {@code index} (an excerpt the log holds twice, or a frame the receiver wrote in part before it stopped)
     */
    boolean holds(final long index, final byte[] bytes, final int offset, final int length) {
        final byte[] local = excerptAt(index);
        return local != null && Arrays.equals(local, 0, local.length, bytes, offset, offset + length);
    }

    /** @return true if disk is reserved for the next write (or none can be had: then the write stops the receiver) */
    boolean mayWrite() {
        return space.level() != SpaceLevel.PENDING;
    }

    /**
     * Writes the {@code length} bytes of {@code bytes} from {@code offset} as the excerpt at {@code index}, which
     * {@link #notNext} accepted and {@link #mayWrite} allowed.
     *
     * @throws JournalDiskFullException if no disk can be had for it
     */
    void write(final long index, final byte[] bytes, final int offset, final int length) {
        if (space.level() == SpaceLevel.EXHAUSTED) {
            throw new JournalDiskFullException(Receiver.ROLE + ": stopped before writing, journal disk full: "
                    + space.describeShortage());
        }
        scratch.clear().write(bytes, offset, length);
        appender.writeBytes(index, scratch);
        space.follow(appender);
        final long written = appender.lastIndexAppended();
        if (written != index) {
            throw ReplicationRefusedException.at(Receiver.ROLE, name, index, "Chronicle appended the record at "
                    + IndexText.of(written) + " instead");
        }
        lastIndex = index;
    }

    @Override
    public void close() {
        appender.close();
        queue.close();
        scratch.releaseLast();
    }
}
