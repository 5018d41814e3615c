package io.sluice.bench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Repeated runs are summarised by median and range; a run without a figure does not count. */
final class SpreadTest {
    @Test
    void anOddNumberOfRunsHasTheMiddleOneAsMedian() {
        final Spread spread = Spread.of(30, 10, 20);
        assertEquals(new Spread(10, 20, 30, 3), spread);
        assertEquals("20.0 (10.0-30.0)", spread.format(1));
    }

    @Test
    void anEvenNumberOfRunsAveragesTheMiddleTwoAndNaNIsLeftOut() {
        assertEquals(new Spread(10, 25, 40, 4), Spread.of(40, Double.NaN, 10, 20, 30));
    }

    @Test
    void noFiguresGiveNaNAndRatiosAreOfMedians() {
        assertTrue(Double.isNaN(Spread.of(Double.NaN).median()));
        assertEquals(0.5, Spread.of(1, 2, 3).ratioTo(Spread.of(4, 4, 5)));
    }
}
