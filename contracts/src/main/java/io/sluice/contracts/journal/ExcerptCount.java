package io.sluice.contracts.journal;

import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.RollingChronicleQueue;
import net.openhft.chronicle.queue.impl.single.NotReachedException;

/**
 * How many excerpts a journal holds, counted while another process may be creating or appending to it. Two
 * Chronicle races meet a reader of a journal whose first cycle file is being created:
 * <ul>
 *   <li>{@code ExcerptTailer.toEnd()} (so also {@code lastIndex()} and {@code entryCount()}) can throw
 *       {@link NotReachedException} ("NOT_REACHED index: 7fffffff00000000") for that instant;</li>
 *   <li>{@code firstIndex()} reads the lowest cycle from a directory listing refreshed at most once a millisecond,
 *       so it can still say "none" ({@link Long#MAX_VALUE}) after the last index was found, and counting from there
 *       throws.</li>
 * </ul>
 * Every count of a journal another process writes, and every move to the end of one that may not have its first
 * cycle yet, goes through this class. No tailer is sent to the end of a journal whose listing holds no cycle (there is
 * nothing there yet); the first race, left at the instant the cycle appears, is reported as {@link #UNKNOWN} (the
 * caller keeps its previous figure and counts again at its next sample); the second is mended by counting from the
 * start of the known index's cycle, the only cycle such a journal has. It never forces a refresh of the listing: that
 * writes the lowest and highest cycle into the journal's metadata, which a reader must leave to the writer. Not for a
 * per-message path: counting across cycles allocates.
 */
public final class ExcerptCount {
    /** The count or index when Chronicle cannot reach the journal's end at this instant: count again later. */
    public static final long UNKNOWN = Long.MIN_VALUE;

    private ExcerptCount() {
    }

    /** @return how many excerpts {@code journal} holds now (0 for none), or {@link #UNKNOWN} */
    public static long of(final ChronicleQueue journal) {
        return after(journal, -1);
    }

    /**
     * @param index an index of {@code journal}'s, or -1 for before its first excerpt
     * @return how many excerpts {@code journal} holds after {@code index} now, or {@link #UNKNOWN}
     */
    public static long after(final ChronicleQueue journal, final long index) {
        final long last = lastIndex(journal);
        if (last == UNKNOWN) {
            return UNKNOWN;
        }
        if (last <= index) { // also an empty journal: last -1
            return 0;
        }
        return index < 0 ? between(journal, firstIndex(journal, last), last) + 1 : between(journal, index, last);
    }

    /** @return {@code journal.lastIndex()} (-1 for an empty journal), or {@link #UNKNOWN} */
    public static long lastIndex(final ChronicleQueue journal) {
        if (!holdsACycle(journal)) {
            return -1;
        }
        try {
            return journal.lastIndex();
        } catch (final NotReachedException cycleBeingCreated) {
            return UNKNOWN;
        }
    }

    /**
     * Moves {@code tailer} to the end of {@code journal}, where the next excerpt appended will be; a tailer of a
     * journal with no cycle yet stays where it is (there is nothing to pass over).
     *
     * @param tailer a tailer of {@code journal}'s, reused (moved to the end within a cycle, it allocates nothing)
     * @return the index the next excerpt appended will have (0 for a journal with no cycle yet), or {@link #UNKNOWN}
     */
    public static long toEnd(final ChronicleQueue journal, final ExcerptTailer tailer) {
        if (!holdsACycle(journal)) {
            return 0;
        }
        try {
            return tailer.toEnd().index();
        } catch (final NotReachedException cycleBeingCreated) {
            return UNKNOWN;
        }
    }

    /**
     * @return whether {@code journal}'s directory listing holds a cycle file; while it holds none, a tailer sent to the
     * end races the creation of the first one
     */
    private static boolean holdsACycle(final ChronicleQueue journal) {
        return journal.firstIndex() != Long.MAX_VALUE;
    }

    /**
     * @param knownIndex the index of an excerpt the journal holds, or of its end (read from it just before)
     * @return the index of the journal's first excerpt, at or before {@code knownIndex}
     */
    public static long firstIndex(final ChronicleQueue journal, final long knownIndex) {
        long first = journal.firstIndex();
        if (first > knownIndex) {
            final RollCycle rollCycle = journal.rollCycle();
            first = rollCycle.toIndex(rollCycle.toCycle(knownIndex), 0);
        }
        return first;
    }

    /**
     * @return how many excerpts {@code journal} holds from {@code fromIndex} (included) to {@code toIndex} (excluded):
     * within one cycle a subtraction that allocates nothing, across cycles Chronicle's count
     */
    public static long between(final ChronicleQueue journal, final long fromIndex, final long toIndex) {
        if (toIndex <= fromIndex) {
            return 0;
        }
        final RollCycle rollCycle = journal.rollCycle();
        if (rollCycle.toCycle(fromIndex) == rollCycle.toCycle(toIndex)) {
            return rollCycle.toSequenceNumber(toIndex) - rollCycle.toSequenceNumber(fromIndex);
        }
        return ((RollingChronicleQueue) journal).countExcerpts(fromIndex, toIndex);
    }
}
