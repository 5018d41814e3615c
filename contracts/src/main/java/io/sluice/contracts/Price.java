package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConverter;

import java.math.BigDecimal;

/**
 * Prices are fixed-point longs with {@value #DECIMALS} implied decimals, in the journal, the engine and
 * every DTO: {@code 101.25} is stored as {@code 10_125_000_000}. Never {@code double}. Quantities are
 * whole units (plain longs).
 */
public final class Price {
    /** Implied decimal places. */
    public static final int DECIMALS = 8;
    /** The fixed-point value of 1.0. */
    public static final long SCALE = 100_000_000L;

    private Price() {
    }

    /** @return {@code units} whole price units as fixed point, e.g. {@code of(101) == 101.0}. */
    public static long of(final long units) {
        return Math.multiplyExact(units, SCALE);
    }

    /**
     * Shows fixed-point prices as decimals ({@code 101.25}) in YAML dumps, configs and tests. Used
     * through {@code @LongConversion(Price.Text.class)}; never on the hot path.
     */
    public static final class Text implements LongConverter {
        public static final Text INSTANCE = new Text();

        @Override
        public long parse(final CharSequence text) {
            final String s = text.toString().trim();
            if (s.isEmpty()) {
                return 0;
            }
            final BigDecimal decimal = new BigDecimal(s);
            return decimal.movePointRight(DECIMALS).longValueExact();
        }

        @Override
        public void append(final StringBuilder text, final long value) {
            appendTo(text, value);
        }

        /** Appends {@code value} as a decimal without trailing zeros, e.g. {@code -0.5}, {@code 101}; allocates nothing. */
        public static void appendTo(final StringBuilder text, final long value) {
            // Divide before negating so that Long.MIN_VALUE needs no special case.
            final long whole = value / SCALE;
            long fraction = Math.abs(value % SCALE);
            if (value < 0) {
                text.append('-');
            }
            text.append(Math.abs(whole));
            if (fraction != 0) {
                int digits = DECIMALS;
                while (fraction % 10 == 0) {
                    fraction /= 10;
                    digits--;
                }
                text.append('.');
                int length = 1;
                for (long rest = fraction / 10; rest != 0; rest /= 10) {
                    length++;
                }
                for (int pad = digits - length; pad > 0; pad--) {
                    text.append('0');
                }
                text.append(fraction);
            }
        }

        @Override
        public boolean allSafeChars() {
            return true;
        }
    }
}
