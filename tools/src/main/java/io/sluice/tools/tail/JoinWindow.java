package io.sluice.tools.tail;

import java.util.Arrays;

/**
 * What the tail remembers about one gateway's most recent inputs, so reports and deliveries can be matched
 * to them: a ring indexed by eventId (dense within a gateway journal) holding whether the command was seen,
 * its session, and the engine-journal sequence of its latest report. Memory is fixed at construction;
 * an input more than {@code capacity} eventIds behind the newest is forgotten and can no longer be checked.
 */
final class JoinWindow {
    /** How a report or delivery matched. */
    enum Match {
        /** The input (for a report: its command; for a delivery: its report) was seen. */
        FOUND,
        /** The input is within the window and was not seen. */
        MISSING,
        /** The input is older than the window: nothing can be said. */
        FORGOTTEN
    }

    private static final long EMPTY = Long.MIN_VALUE;

    private final int mask;
    private final long[] eventIds;
    private final long[] sessions;
    private final long[] reportSequences;
    private final boolean[] commands;
    private long newest = EMPTY;

    JoinWindow(final int capacity) {
        mask = requireCapacity(capacity) - 1;
        eventIds = new long[capacity];
        sessions = new long[capacity];
        reportSequences = new long[capacity];
        commands = new boolean[capacity];
        Arrays.fill(eventIds, EMPTY);
    }

    /** @return {@code capacity}, if it is a positive power of two. */
    static int requireCapacity(final int capacity) {
        if (capacity <= 0 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("join window must be a positive power of two, got " + capacity);
        }
        return capacity;
    }

    /** Remembers that command {@code eventId} of {@code session} was read. */
    void command(final long eventId, final long session) {
        final int slot = claim(eventId);
        sessions[slot] = session;
        commands[slot] = true;
        reportSequences[slot] = 0;
    }

    /** Remembers that the engine journal's report number {@code reportSequence} answers {@code eventId}. */
    Match report(final long eventId, final long reportSequence) {
        final int slot = slot(eventId);
        if (eventIds[slot] == eventId) {
            reportSequences[slot] = reportSequence;
            return commands[slot] ? Match.FOUND : Match.MISSING;
        }
        if (forgotten(eventId)) {
            return Match.FORGOTTEN;
        }
        final int claimed = claim(eventId);
        commands[claimed] = false;
        sessions[claimed] = 0;
        reportSequences[claimed] = reportSequence;
        return Match.MISSING;
    }

    /** @return whether the engine journal had a report for {@code eventId}. */
    Match delivery(final long eventId) {
        final int slot = slot(eventId);
        if (eventIds[slot] == eventId) {
            return reportSequences[slot] != 0 ? Match.FOUND : Match.MISSING;
        }
        return forgotten(eventId) ? Match.FORGOTTEN : Match.MISSING;
    }

    /** @return how many of the eventIds {@code from..to} were seen as commands and are still remembered. */
    long commandsBetween(final long from, final long to) {
        long count = 0;
        final long first = newest == EMPTY ? from : Math.max(from, newest - eventIds.length + 1);
        for (long eventId = first; eventId <= to; eventId++) {
            final int slot = slot(eventId);
            if (eventIds[slot] == eventId && commands[slot]) {
                count++;
            }
        }
        return count;
    }

    /** @return the session of command {@code eventId}; valid right after {@link #report} returned FOUND. */
    long session(final long eventId) {
        return sessions[slot(eventId)];
    }

    /** @return the sequence of the latest report for {@code eventId}; valid after a FOUND delivery. */
    long reportSequence(final long eventId) {
        return reportSequences[slot(eventId)];
    }

    private boolean forgotten(final long eventId) {
        return newest != EMPTY && eventId <= newest - eventIds.length;
    }

    private int claim(final long eventId) {
        final int slot = slot(eventId);
        eventIds[slot] = eventId;
        if (newest == EMPTY || eventId > newest) {
            newest = eventId;
        }
        return slot;
    }

    private int slot(final long eventId) {
        return (int) eventId & mask;
    }
}
