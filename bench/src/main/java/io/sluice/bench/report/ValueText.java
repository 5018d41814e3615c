package io.sluice.bench.report;

import java.util.Locale;

/**
 * How the report writes values. Numbers with as many digits as their size deserves (thousands grouped, three
 * significant decimals below 10), whole numbers without a fraction, everything else as it is.
 */
public final class ValueText {
    private ValueText() {
    }

    /** @return {@code value} as the report prints it; whole numbers without a fraction, thousands grouped */
    public static String plain(final Object value) {
        if (value instanceof Double number) {
            return isWhole(number) ? String.format(Locale.ROOT, "%,d", number.longValue()) : number(number);
        }
        return String.valueOf(value);
    }

    /** @return {@code value} as it would be typed in a {@link ResultPath} selector: whole numbers as digits only */
    public static String key(final Object value) {
        return value instanceof Double number && isWhole(number) ? Long.toString(number.longValue()) : String.valueOf(value);
    }

    private static boolean isWhole(final double number) {
        return number == Math.rint(number) && Math.abs(number) < 1e15;
    }

    /** @return {@code value} rounded for reading: 1,234,567 / 123.4 / 12.3 / 1.23 / 0.0123 */
    public static String number(final double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "—";
        }
        final double magnitude = Math.abs(value);
        if (magnitude >= 1_000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (magnitude >= 1 || magnitude == 0) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }
}
