package io.sluice.bench.runtime;

import io.sluice.bench.report.Spread;
import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.List;

/**
 * What one warm-up run saw, second by second from the moment the engine and gateway processes were launched. The round
 * trips completed in each second (a histogram in nanoseconds, measured from each order's intended send time), when the
 * path was up (processes ready, liquidity seeded, load session logged on) and when the first order came back filled,
 * after which the load runs. The figures the warm-up benchmark reports are
 * computed here, from the series alone:
 * <ul>
 *   <li>peak throughput: the median of the per-second throughputs over the second half of the load (steady
 *   state: a single catch-up second after a stall would otherwise count as the peak);</li>
 *   <li>time to 95 % of peak: from launch to the end of the first second whose throughput reaches 95 % of that
 *   peak;</li>
 *   <li>p99 in the first {@value #EARLY_SECONDS} s of load (from the second of the first fill) versus p99 over
 *   the steady second half. (Measured from launch, a slow start would leave the early window empty.)</li>
 * </ul>
 *
 * @param launchToUpNanos        from launching the processes to the path being up
 * @param launchToFirstFillNanos from launching the processes to the first order's fill arriving at the client
 * @param seconds                second i holds the round trips completed in [i, i+1) s after launch
 */
public record WarmUpCurve(long launchToUpNanos, long launchToFirstFillNanos, List<Histogram> seconds) {
    /** The early window whose p99 is compared with steady state. */
    public static final int EARLY_SECONDS = 10;
    private static final double NEAR_PEAK = 0.95;

    /** @return orders completed in each second since launch. */
    public long[] throughput() {
        return seconds.stream().mapToLong(Histogram::getTotalCount).toArray();
    }

    /** @return the median per-second throughput over the second half of the run (orders/s). */
    public double peakThroughput() {
        final long[] perSecond = throughput();
        final long[] steady = Arrays.copyOfRange(perSecond, Math.min(steadyFrom(), perSecond.length),
                perSecond.length);
        return Spread.of(Arrays.stream(steady).asDoubleStream().toArray()).median();
    }

    /** @return seconds from launch to the end of the first second at 95 % of peak, or NaN if none reached it. */
    public double secondsTo95PercentOfPeak() {
        final double peak = peakThroughput();
        final long[] perSecond = throughput();
        for (int i = 0; i < perSecond.length; i++) {
            if (perSecond[i] > 0 && perSecond[i] >= NEAR_PEAK * peak) {
                return i + 1;
            }
        }
        return Double.NaN;
    }

    /** @return p99 (µs) of the round trips completed in the first {@value #EARLY_SECONDS} s of load. */
    public double earlyP99Micros() {
        return p99Micros(loadFrom(), Math.min(loadFrom() + EARLY_SECONDS, seconds.size()));
    }

    /** @return p99 (µs) of the round trips completed in the second half of the load. */
    public double steadyP99Micros() {
        return p99Micros(steadyFrom(), seconds.size());
    }

    /** @return p50 (µs) of the round trips completed in the second half of the load. */
    public double steadyP50Micros() {
        return merged(steadyFrom(), seconds.size()).getValueAtPercentile(50) / 1_000.0;
    }

    /** @return p99 (µs) of second {@code second} alone, NaN if it completed nothing. */
    public double p99MicrosOf(final int second) {
        return p99Micros(second, second + 1);
    }

    /** @return p50 (µs) of second {@code second} alone, NaN if it completed nothing. */
    public double p50MicrosOf(final int second) {
        final Histogram histogram = seconds.get(second);
        return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(50) / 1_000.0;
    }

    /** @return the second in which the first order was filled: the load runs from there. */
    private int loadFrom() {
        return (int) Math.min(seconds.size(), launchToFirstFillNanos / 1_000_000_000L);
    }

    private int steadyFrom() {
        return loadFrom() + (seconds.size() - loadFrom()) / 2;
    }

    private double p99Micros(final int from, final int to) {
        final Histogram histogram = merged(from, to);
        return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(99) / 1_000.0;
    }

    private Histogram merged(final int from, final int to) {
        final Histogram merged = new Histogram(3);
        for (int i = from; i < to; i++) {
            merged.add(seconds.get(i));
        }
        return merged;
    }
}
