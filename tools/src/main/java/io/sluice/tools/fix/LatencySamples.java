package io.sluice.tools.fix;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Every round trip of a measured run, kept raw (a histogram's buckets blur the mean). So the mean can be given with a
 * bootstrap confidence interval: resample the run with replacement many times, take each resample's mean, and report
 * the percentiles of those means. Capacity is fixed up front; recording never
 * allocates.
 */
public final class LatencySamples {
    private final long[] nanos;
    private int count;

    public LatencySamples(final int capacity) {
        nanos = new long[capacity];
    }

    /** Records one round trip; beyond capacity, samples are not kept (the capacity is the run's size). */
    public void record(final long roundTripNanos) {
        if (count < nanos.length) {
            nanos[count++] = roundTripNanos;
        }
    }

    public int count() {
        return count;
    }

    /** @return the mean round trip in nanoseconds. */
    public double mean() {
        return mean(nanos, count());
    }

    /**
     * @param confidence e.g. 0.95
     * @param resamples  how many bootstrap resamples, e.g. 1000
     * @return {low, high} of the percentile bootstrap interval of the mean, in nanoseconds
     */
    public double[] bootstrapMeanInterval(final double confidence, final int resamples, final long seed) {
        final int n = count();
        if (n == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        final SplittableRandom random = new SplittableRandom(seed);
        final double[] means = new double[resamples];
        for (int r = 0; r < resamples; r++) {
            long sum = 0;
            for (int i = 0; i < n; i++) {
                sum += nanos[random.nextInt(n)];
            }
            means[r] = (double) sum / n;
        }
        Arrays.sort(means);
        final double tail = (1 - confidence) / 2;
        return new double[] {means[(int) Math.floor(tail * (resamples - 1))],
                means[(int) Math.ceil((1 - tail) * (resamples - 1))]};
    }

    private static double mean(final long[] values, final int n) {
        if (n == 0) {
            return Double.NaN;
        }
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += values[i];
        }
        return (double) sum / n;
    }
}
