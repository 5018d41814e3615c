package io.sluice.gateway.codec;

import io.sluice.contracts.Price;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * FIX decimal values (Price, Qty) to and from fixed-point longs with {@link Price#DECIMALS} implied
 * decimals, on buffers, without allocating and without {@code double}. Digits beyond the eighth decimal
 * must be zeros; values that would overflow are refused with {@link #INVALID}.
 */
public final class FixDecimal {
    /** Returned for a value that is not a representable decimal. */
    public static final long INVALID = Long.MIN_VALUE;
    private static final int MAX_LENGTH = 40;

    private FixDecimal() {
    }

    /** @return the decimal (optional '-', digits, optional '.' and digits) as a fixed-point long, or {@link #INVALID}. */
    public static long parsePrice(final DirectBuffer buffer, final int offset, final int length) {
        if (length < 1 || length > MAX_LENGTH) {
            return INVALID;
        }
        int position = offset;
        final int end = offset + length;
        final boolean negative = buffer.getByte(position) == '-';
        if (negative) {
            position++;
        }
        long whole = 0;
        int wholeDigits = 0;
        while (position < end && buffer.getByte(position) != '.') {
            final byte b = buffer.getByte(position++);
            if (b < '0' || b > '9') {
                return INVALID;
            }
            whole = whole * 10 + (b - '0');
            if (whole > Long.MAX_VALUE / Price.SCALE) {
                return INVALID;
            }
            wholeDigits++;
        }
        long fraction = 0;
        int fractionDigits = 0;
        if (position < end) {
            position++;
            if (position == end) {
                return INVALID;
            }
            while (position < end) {
                final byte b = buffer.getByte(position++);
                if (b < '0' || b > '9') {
                    return INVALID;
                }
                if (fractionDigits < Price.DECIMALS) {
                    fraction = fraction * 10 + (b - '0');
                    fractionDigits++;
                } else if (b != '0') {
                    return INVALID;
                }
            }
        }
        if (wholeDigits == 0 && fractionDigits == 0) {
            return INVALID;
        }
        for (int i = fractionDigits; i < Price.DECIMALS; i++) {
            fraction *= 10;
        }
        final long magnitude = whole * Price.SCALE + fraction;
        if (magnitude < 0) {
            return INVALID;
        }
        return negative ? -magnitude : magnitude;
    }

    /** @return a whole quantity ("100" or "100.00"), or {@link #INVALID} if negative, fractional or too large. */
    public static long parseQuantity(final DirectBuffer buffer, final int offset, final int length) {
        final long fixed = parsePrice(buffer, offset, length);
        if (fixed == INVALID || fixed < 0 || fixed % Price.SCALE != 0) {
            return INVALID;
        }
        return fixed / Price.SCALE;
    }

    /** Writes a fixed-point value as a decimal without trailing zeros; @return the number of bytes written. */
    public static int encodePrice(final long value, final MutableDirectBuffer buffer, final int offset) {
        int position = offset;
        final long whole = value / Price.SCALE;
        long fraction = Math.abs(value % Price.SCALE);
        if (value < 0) {
            buffer.putByte(position++, (byte) '-');
        }
        position += encodeUnsigned(Math.abs(whole), buffer, position);
        if (fraction != 0) {
            int digits = Price.DECIMALS;
            while (fraction % 10 == 0) {
                fraction /= 10;
                digits--;
            }
            buffer.putByte(position++, (byte) '.');
            for (int i = digits - 1; i >= 0; i--) {
                buffer.putByte(position + i, (byte) ('0' + fraction % 10));
                fraction /= 10;
            }
            position += digits;
        }
        return position - offset;
    }

    /** Writes a non-negative long in decimal; @return the number of bytes written. */
    public static int encodeUnsigned(final long value, final MutableDirectBuffer buffer, final int offset) {
        int digits = 1;
        for (long rest = value / 10; rest != 0; rest /= 10) {
            digits++;
        }
        long rest = value;
        for (int i = digits - 1; i >= 0; i--) {
            buffer.putByte(offset + i, (byte) ('0' + rest % 10));
            rest /= 10;
        }
        return digits;
    }
}
