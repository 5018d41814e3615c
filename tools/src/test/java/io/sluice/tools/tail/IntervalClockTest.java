package io.sluice.tools.tail;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Time in the tail moves with the journals: intervals end when a later timestamp is read, never on their own. */
class IntervalClockTest {
    private final List<long[]> ended = new ArrayList<>();
    private final IntervalClock clock = new IntervalClock(100, (start, end) -> ended.add(new long[] {start, end}));

    @Test
    void theFirstIntervalStartsWithTimeAndTheOthersOnBoundaries() {
        clock.observe(1_050);
        clock.observe(1_099);
        assertEquals(0, ended.size(), "nothing ends before its end");
        clock.observe(1_100);
        clock.observe(1_250);
        clock.finish();
        assertInterval(0, 1_050, 1_100);
        assertInterval(1, 1_100, 1_200);
        assertInterval(2, 1_200, 1_251);
        assertEquals(3, ended.size(), "a jump past several intervals ends only the current one");
    }

    @Test
    void timeNeverGoesBackAndZeroIsNoTime() {
        clock.observe(0);
        clock.observe(1_000);
        clock.observe(900);
        assertEquals(1_000, clock.now());
        assertEquals(1_000, clock.firstObserved());
    }

    private void assertInterval(final int index, final long start, final long end) {
        assertEquals(start, ended.get(index)[0], "start of interval " + index);
        assertEquals(end, ended.get(index)[1], "end of interval " + index);
    }
}
