package io.sluice.marketdata.journal;

import io.sluice.marketdata.feed.FeedLayout;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.RollingChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.text.ParseException;

/**
 * Finds the batch of the market-data journal that holds a given sequence. A binary search over the excerpts of the
 * cycle (day) that holds it, reading only each probed batch's first sequence and count. What the journal no longer
 * holds (days archived away) and what it does not hold yet are answered as such, not searched for.
 */
public final class SequenceSearch implements AutoCloseable {
    /** The sequence is below the first the journal holds. */
    public static final long ARCHIVED = -2;
    /** The sequence is at or beyond the next to be written. */
    public static final long NOT_YET_WRITTEN = -3;

    private final RollingChronicleQueue journal;
    private final ExcerptTailer tailer;
    private final UnsafeBuffer header = new UnsafeBuffer(0, 0);
    private long firstSequence;
    private int count;

    public SequenceSearch(final ChronicleQueue journal) {
        this.journal = (RollingChronicleQueue) journal;
        tailer = journal.createTailer();
    }

    /** @return the index of the batch that holds {@code sequence}, or {@link #ARCHIVED} or {@link #NOT_YET_WRITTEN} */
    public long indexOf(final long sequence) {
        final RollCycle rollCycle = journal.rollCycle();
        final int firstCycle = journal.firstCycle();
        final int lastCycle = journal.lastCycle();
        if (lastCycle < 0) {
            return NOT_YET_WRITTEN;
        }
        for (int cycle = lastCycle; cycle >= firstCycle; cycle = earlier(cycle, firstCycle)) {
            final long first = rollCycle.toIndex(cycle, 0);
            final long last = cycle == lastCycle ? journal.lastIndex() : rollCycle.toIndex(cycle + 1, 0) - 1;
            if (last < first || !read(first)) {
                continue;
            }
            if (firstSequence > sequence) {
                if (cycle == firstCycle) {
                    return ARCHIVED;
                }
                continue;
            }
            long low = first;
            long high = last;
            while (low <= high) {
                final long mid = (low + high) >>> 1;
                if (!read(mid)) {
                    high = mid - 1;
                } else if (sequence < firstSequence) {
                    high = mid - 1;
                } else if (sequence >= firstSequence + count) {
                    low = mid + 1;
                } else {
                    return mid;
                }
            }
            return NOT_YET_WRITTEN;
        }
        return NOT_YET_WRITTEN;
    }

    /** @return the cycle before {@code cycle} that holds a file, or one below {@code firstCycle} if none does */
    private int earlier(final int cycle, final int firstCycle) {
        if (cycle <= firstCycle) {
            return firstCycle - 1;
        }
        try {
            final int previous = journal.nextCycle(cycle, TailerDirection.BACKWARD);
            return previous < cycle ? previous : firstCycle - 1;
        } catch (final ParseException e) {
            return cycle - 1;
        }
    }

    /** @return the sequence the next message written will have (1 for an empty journal) */
    public long nextToWrite() {
        final long last = journal.lastIndex();
        return last >= 0 && read(last) ? firstSequence + count : 1;
    }

    /** @return the first sequence the journal holds, or 0 if it holds none */
    public long firstHeld() {
        final int firstCycle = journal.firstCycle();
        return firstCycle >= 0 && read(journal.rollCycle().toIndex(firstCycle, 0)) ? firstSequence : 0;
    }

    /** Reads the first sequence and count of the batch at {@code index}; @return false if there is none */
    private boolean read(final long index) {
        if (!tailer.moveToIndex(index)) {
            return false;
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent() || dc.isMetaData()) {
                return false;
            }
            final Bytes<?> bytes = dc.wire().bytes();
            if (bytes.readRemaining() < BatchLayout.BLOCKS) {
                return false;
            }
            header.wrap(bytes.addressForRead(bytes.readPosition()), BatchLayout.BLOCKS);
            firstSequence = header.getLong(BatchLayout.FIRST_SEQUENCE, FeedLayout.ORDER);
            count = header.getInt(BatchLayout.COUNT, FeedLayout.ORDER);
            return true;
        }
    }

    @Override
    public void close() {
        tailer.close();
    }
}
