package io.sluice.bench.runtime;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The warm-up figures come from the per-second series alone, as the benchmark documents them. */
final class WarmUpCurveTest {
    private static final long MS = 1_000_000L;

    @Test
    void peakIsTheMedianOfTheSteadySecondHalfAndTimeTo95PercentCountsFromLaunch() {
        // launched at 0, first fill in second 2; load seconds 2..11 (10 s), steady half = seconds 7..11
        final WarmUpCurve curve = curve(2_500 * MS, new long[] {0, 0, 10, 400, 900, 960, 1000, 1000, 990, 1010, 1000, 980},
                100_000);
        assertEquals(1000, curve.peakThroughput());
        assertEquals(6, curve.secondsTo95PercentOfPeak(), "second 5 (index) holds 960 >= 950: its end is 6 s");
    }

    @Test
    void aCatchUpBurstAfterAStallIsNotThePeak() {
        final WarmUpCurve curve = curve(0, new long[] {100, 5000, 1000, 1000, 1000, 1000, 1000, 1000}, 100_000);
        assertEquals(1000, curve.peakThroughput());
        assertEquals(2, curve.secondsTo95PercentOfPeak());
    }

    @Test
    void aRunThatNeverReachesItsPeakHasNoTimeToPeak() {
        final WarmUpCurve curve = curve(0, new long[] {0, 0, 0, 0}, 1_000);
        assertTrue(Double.isNaN(curve.secondsTo95PercentOfPeak()));
        assertTrue(Double.isNaN(curve.steadyP99Micros()));
    }

    @Test
    void earlyP99CoversTheFirstTenSecondsOfLoadAndSteadyP99TheSecondHalf() {
        final List<Histogram> seconds = new ArrayList<>();
        for (int s = 0; s < 30; s++) {
            final Histogram histogram = new Histogram(3);
            if (s >= 5) {
                // 100 round trips per second: 5 ms each in load seconds 5..14, 50 µs afterwards
                histogram.recordValueWithCount(s < 15 ? 5 * MS : 50_000, 100);
            }
            seconds.add(histogram);
        }
        final WarmUpCurve curve = new WarmUpCurve(4_000 * MS, 5_100 * MS, seconds);
        assertEquals(5_000, curve.earlyP99Micros(), 5);
        assertEquals(50, curve.steadyP99Micros(), 0.1);
        assertEquals(50, curve.steadyP50Micros(), 0.1);
        assertArrayEquals(new long[] {0, 0, 0, 0, 0, 100}, Arrays.copyOf(curve.throughput(), 6));
    }

    private static WarmUpCurve curve(final long firstFillNanos, final long[] perSecond, final long roundTripNanos) {
        final List<Histogram> seconds = new ArrayList<>();
        for (final long count : perSecond) {
            final Histogram histogram = new Histogram(3);
            if (count > 0) {
                histogram.recordValueWithCount(roundTripNanos, count);
            }
            seconds.add(histogram);
        }
        return new WarmUpCurve(firstFillNanos, firstFillNanos, seconds);
    }
}
