package io.sluice.gateway.transport;

/**
 * The messages of one connection held back by a {@link SendGate}: a fixed ring of marks (where a message ends in the
 * connection's outbound byte stream, the gate stamp it waits for), oldest first, so a flush writes up to the end of the
 * last message whose stamp the gate has released and nothing beyond. Allocated once with the connection; full, it
 * merges the newest mark into the one before (the merged bytes wait for the later stamp: later, never earlier), so it
 * never grows and never drops a mark. Only the I/O thread uses it.
 */
final class SendMarks {
    private static final int CAPACITY = 256;

    private final long[] ends = new long[CAPACITY];
    private final long[] stamps = new long[CAPACITY];
    private int head;
    private int count;
    private long releasedEnd;

    /** A message queued on the connection ends at {@code end} of its stream and waits for {@code stamp}. */
    void mark(final long end, final long stamp) {
        if (count > 0) {
            final int last = (head + count - 1) % CAPACITY;
            if (stamps[last] >= stamp || count == CAPACITY) {
                ends[last] = end;
                stamps[last] = Math.max(stamps[last], stamp);
                return;
            }
        }
        final int slot = (head + count) % CAPACITY;
        ends[slot] = end;
        stamps[slot] = stamp;
        count++;
    }

    /** @return where, in the connection's outbound stream, the bytes the gate lets out at {@code released} end */
    long releasedEnd(final long released) {
        while (count > 0 && stamps[head] <= released) {
            releasedEnd = ends[head];
            head = (head + 1) % CAPACITY;
            count--;
        }
        return releasedEnd;
    }

    /** @return true while some queued message waits for the gate */
    boolean holding() {
        return count > 0;
    }

    /** Forgets every mark: the connection's queued bytes were dropped. */
    void clear(final long end) {
        head = 0;
        count = 0;
        releasedEnd = end;
    }
}
