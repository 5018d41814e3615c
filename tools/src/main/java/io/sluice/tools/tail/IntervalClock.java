package io.sluice.tools.tail;

/**
 * The tail's notion of time: the latest timestamp read from the journals (or, once live and idle, the
 * wall clock), cut into intervals aligned on multiples of the interval length (but for the first, which starts
 * at the first time observed). Reading a recorded journal
 * set thus gives the same intervals as watching it live, at whatever speed it is read. Records are counted
 * in the interval current when they are read, so intervals are exact to within the journals' skew.
 */
final class IntervalClock {
    /** Told when an interval ends. */
    interface Listener {
        void intervalEnded(long startTicks, long endTicks);
    }

    private static final long NOT_STARTED = Long.MIN_VALUE;

    private final long lengthTicks;
    private final Listener listener;
    private long firstObserved = NOT_STARTED;
    private long start = NOT_STARTED;
    private long end = NOT_STARTED;
    private long now;

    IntervalClock(final long lengthTicks, final Listener listener) {
        if (lengthTicks <= 0) {
            throw new IllegalArgumentException("interval must be positive, got " + lengthTicks + " ticks");
        }
        this.lengthTicks = lengthTicks;
        this.listener = listener;
    }

    /** Moves time forward to {@code ticks} (never back), ending the current interval if it passed. */
    void observe(final long ticks) {
        if (ticks > now) {
            now = ticks;
            if (now >= end) {
                if (start != NOT_STARTED) {
                    listener.intervalEnded(start, end);
                }
                final long boundary = now - Math.floorMod(now, lengthTicks);
                // The first interval starts when time does; the others on a boundary.
                start = firstObserved == NOT_STARTED ? now : boundary;
                end = boundary + lengthTicks;
                if (firstObserved == NOT_STARTED) {
                    firstObserved = now;
                }
            }
        }
    }

    /** Ends the current interval where time stands now. */
    void finish() {
        if (start != NOT_STARTED) {
            listener.intervalEnded(start, Math.min(end, now + 1));
            start = NOT_STARTED;
            end = NOT_STARTED;
        }
    }

    /** @return the first time observed, or {@code Long.MIN_VALUE} if time never started. */
    long firstObserved() {
        return firstObserved;
    }

    /** @return the latest time observed, in ticks. */
    long now() {
        return now;
    }
}
