package io.sluice.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * One figure across the repeated runs of a scenario: smallest, median and largest value, and how many runs
 * had it. The report shows the median with the range beside it, so the noise is in plain sight.
 *
 * @param count how many runs had the figure; 0 means none did (then the others are NaN)
 */
public record Spread(double min, double median, double max, int count) {
    /** @return the spread of {@code values}; nulls (runs that lack the figure) are left out */
    public static Spread of(final List<Double> values) {
        final List<Double> present = new ArrayList<>();
        for (final Double value : values) {
            if (value != null && !value.isNaN()) {
                present.add(value);
            }
        }
        if (present.isEmpty()) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        Collections.sort(present);
        final int n = present.size();
        final double median = n % 2 == 1 ? present.get(n / 2) : (present.get(n / 2 - 1) + present.get(n / 2)) / 2;
        return new Spread(present.getFirst(), median, present.getLast(), n);
    }

    /** @return the spread of {@code values}; NaN (a run that produced no figure) is left out */
    public static Spread of(final double... values) {
        return of(Arrays.stream(values).boxed().toList());
    }

    /** @return the median as a ratio to {@code baseline}'s median */
    public double ratioTo(final Spread baseline) {
        return median / baseline.median;
    }

    /** @return e.g. {@code "123.4 (120.1-130.0)"}: median (min-max) with {@code decimals} decimals */
    public String format(final int decimals) {
        final String number = "%." + decimals + "f";
        return String.format(Locale.ROOT, number + " (" + number + "-" + number + ")", median, min, max);
    }

    /** @return a JSON section with the median, min and max */
    public BenchResult json() {
        return BenchResult.section().put("median", median).put("min", min).put("max", max);
    }

    /**
     * @return "median (min – max)"; just the value (whole numbers without a fraction) when every run agrees;
     *         "—" when no run has the figure
     */
    public String text() {
        if (count == 0) {
            return "—";
        }
        if (count == 1 || min == max) {
            return ValueText.plain(median);
        }
        return ValueText.number(median) + " (" + ValueText.number(min) + " – " + ValueText.number(max) + ")";
    }
}
