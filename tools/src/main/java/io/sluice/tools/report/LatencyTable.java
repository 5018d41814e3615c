package io.sluice.tools.report;

import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Prints latency histograms as an aligned table, one row per histogram: count, mean, p50 ... p99.99 and
 * max in µs. The demo, the tail and every benchmark print their rows through this so all of them read alike. Tables made with
 * {@link #withRate} add a rate column (count per second of the period the rows cover).
 */
public final class LatencyTable {
    /** Percentiles every latency figure reports, in this order: the table's columns, and the benchmarks' results. */
    public static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    private final PrintStream out;
    private final int labelWidth;
    private final boolean rate;

    public LatencyTable(final PrintStream out, final int labelWidth) {
        this(out, labelWidth, false);
    }

    private LatencyTable(final PrintStream out, final int labelWidth, final boolean rate) {
        this.out = out;
        this.labelWidth = labelWidth;
        this.rate = rate;
    }

    /** @return a table whose rows also show a rate; print its rows with {@link #rowNanos(String, Histogram, double)}. */
    public static LatencyTable withRate(final PrintStream out, final int labelWidth) {
        return new LatencyTable(out, labelWidth, true);
    }

    public void header() {
        out.printf(Locale.ROOT, "%-" + labelWidth + "s %12s", "(µs)", "count");
        if (rate) {
            out.printf(Locale.ROOT, " %11s", "rate/s");
        }
        out.printf(Locale.ROOT, " %9s %9s %9s %9s %9s %9s %10s%n",
                "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max");
    }

    /** Prints {@code histogram}, recorded in nanoseconds. */
    public void rowNanos(final String label, final Histogram histogram) {
        rowNanos(label, histogram, Double.NaN);
    }

    /** Prints {@code histogram}, recorded in nanoseconds over {@code seconds}, with its rate when this table has one. */
    public void rowNanos(final String label, final Histogram histogram, final double seconds) {
        out.printf(Locale.ROOT, "%-" + labelWidth + "s %12d", label, histogram.getTotalCount());
        if (rate) {
            out.printf(Locale.ROOT, " %11.0f", seconds > 0 ? histogram.getTotalCount() / seconds : Double.NaN);
        }
        out.printf(Locale.ROOT, " %9.2f", histogram.getMean() / 1_000.0);
        for (final double percentile : PERCENTILES) {
            out.printf(Locale.ROOT, " %9.2f", histogram.getValueAtPercentile(percentile) / 1_000.0);
        }
        out.printf(Locale.ROOT, " %10.2f%n", histogram.getMaxValue() / 1_000.0);
    }
}
