package io.sluice.bench.fix;

import org.HdrHistogram.Histogram;

/**
 * What one measured load run against one target produced: the round-trip histogram (nanoseconds), the mean
 * with its bootstrap confidence interval, and the run's throughput.
 *
 * @param meanLowNanos  low end of the 95 % bootstrap interval of the mean
 * @param meanHighNanos high end of that interval
 */
public record MeasuredRun(FixTarget target, int window, Histogram roundTrips, double meanNanos,
                          double meanLowNanos, double meanHighNanos, long orders, long filled, long rejected,
                          long elapsedNanos) {
    /** @return orders finished per second over the measured run. */
    public double ordersPerSecond() {
        return orders * 1e9 / elapsedNanos;
    }
}
