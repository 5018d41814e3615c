package io.sluice.bench.runtime;

import java.util.Arrays;
import java.util.Locale;

/**
 * One figure measured in several repeated runs: its median (the figure tables quote) and its range, so that a
 * reader sees how far the runs disagree before trusting a difference between variants.
 */
public record Spread(double median, double min, double max, int runs) {
    /** @return the spread of {@code values}, ignoring NaN (a run that produced no figure); all NaN gives NaN. */
    public static Spread of(final double... values) {
        final double[] finite = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (finite.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        final int n = finite.length;
        final double median = n % 2 == 1 ? finite[n / 2] : (finite[n / 2 - 1] + finite[n / 2]) / 2;
        return new Spread(median, finite[0], finite[n - 1], n);
    }

    /** @return e.g. {@code "123.4 (120.1-130.0)"} with the given number of decimals. */
    public String format(final int decimals) {
        final String number = "%." + decimals + "f";
        return String.format(Locale.ROOT, number + " (" + number + "-" + number + ")", median, min, max);
    }

    /** @return the median as a ratio to {@code baseline}'s median. */
    public double ratioTo(final Spread baseline) {
        return median / baseline.median;
    }
}
