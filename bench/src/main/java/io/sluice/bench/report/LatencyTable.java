package io.sluice.bench.report;

import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Prints latency histograms as an aligned table, one row per histogram: count, mean, p50 ... p99.99 and
 * max in µs. Every benchmark prints its rows through this so all of them read alike.
 */
public final class LatencyTable {
    private final PrintStream out;
    private final int labelWidth;

    public LatencyTable(final PrintStream out, final int labelWidth) {
        this.out = out;
        this.labelWidth = labelWidth;
    }

    public void header() {
        out.printf(Locale.ROOT, "%-" + labelWidth + "s %12s %9s %9s %9s %9s %9s %9s %10s%n",
                "(µs)", "count", "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max");
    }

    /** Prints {@code histogram}, recorded in nanoseconds. */
    public void rowNanos(final String label, final Histogram histogram) {
        out.printf(Locale.ROOT, "%-" + labelWidth + "s %12d %9.2f", label, histogram.getTotalCount(),
                histogram.getMean() / 1_000.0);
        for (final double percentile : BenchResult.PERCENTILES) {
            out.printf(Locale.ROOT, " %9.2f", histogram.getValueAtPercentile(percentile) / 1_000.0);
        }
        out.printf(Locale.ROOT, " %10.2f%n", histogram.getMaxValue() / 1_000.0);
    }
}
