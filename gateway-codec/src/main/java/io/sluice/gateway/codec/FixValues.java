package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;

/** Reads FIX integer values from a buffer without allocating; bad input gives a sentinel, not an exception. */
public final class FixValues {
    /** Returned for a value that is not a valid non-negative integer. */
    public static final long INVALID = FixMessage.INVALID;
    private static final int MAX_DIGITS = 18;

    private FixValues() {
    }

    /** @return the value of 1 to 18 ASCII digits, or {@link #INVALID}. */
    public static long parseUnsigned(final DirectBuffer buffer, final int offset, final int length) {
        if (length < 1 || length > MAX_DIGITS) {
            return INVALID;
        }
        long value = 0;
        for (int i = 0; i < length; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b < '0' || b > '9') {
                return INVALID;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }
}
