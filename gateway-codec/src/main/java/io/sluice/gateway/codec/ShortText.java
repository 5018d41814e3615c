package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * FIX text identifiers (CompIDs, ClOrdID, Account, Symbol) to and from the longs of Chronicle's
 * {@code ShortTextLongConverter}, on buffers, without allocating. That converter is base 85 over a fixed
 * alphabet, at most 10 characters, and throws on anything else; here a value that it could not turn back
 * into the same text (a character outside the alphabet, more than 10 characters, a leading space, or a
 * 10-character value beyond 64 bits) is refused with {@link #INVALID} before it gets that far.
 */
public final class ShortText {
    /** The converter's alphabet; a character's index is its digit. */
    public static final String ALPHABET =
            " 123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz\"#$%&'()*+,-./0";
    /** The most characters a value may have. */
    public static final int MAX_LENGTH = 10;
    /** Returned by {@link #parse} for text that cannot be represented; no valid text maps to 0. */
    public static final long INVALID = 0;

    private static final long BASE = ALPHABET.length();
    private static final byte[] DIGITS = new byte[128];
    private static final byte[] SYMBOLS = ALPHABET.getBytes(StandardCharsets.US_ASCII);

    static {
        Arrays.fill(DIGITS, (byte) -1);
        for (int i = 0; i < SYMBOLS.length; i++) {
            DIGITS[SYMBOLS[i]] = (byte) i;
        }
    }

    private ShortText() {
    }

    /** @return the long for the text, equal to {@code ShortTextLongConverter.INSTANCE.parse}, or {@link #INVALID}. */
    public static long parse(final DirectBuffer buffer, final int offset, final int length) {
        if (length < 1 || length > MAX_LENGTH || buffer.getByte(offset) == ' ') {
            return INVALID;
        }
        long value = 0;
        for (int i = 0; i < length; i++) {
            final byte b = buffer.getByte(offset + i);
            final int digit = b >= 0 ? DIGITS[b] : -1;
            if (digit < 0 || Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, BASE)) > 0) {
                return INVALID;
            }
            value = value * BASE + digit;
        }
        return value;
    }

    /** @return the long for a Java string, or {@link #INVALID}: for configuration and tests. */
    public static long parse(final CharSequence text) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[text.length()]);
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            buffer.putByte(i, c < 128 ? (byte) c : (byte) 0);
        }
        return parse(buffer, 0, text.length());
    }

    /** @return how many characters {@link #encode} writes for {@code value}. */
    public static int length(final long value) {
        int length = 0;
        long rest = value;
        if (rest < 0) {
            rest = Long.divideUnsigned(rest, BASE);
            length++;
        }
        while (rest != 0) {
            rest /= BASE;
            length++;
        }
        return length;
    }

    /** Writes the text of {@code value} at {@code offset}; @return the number of bytes written. */
    public static int encode(final long value, final MutableDirectBuffer buffer, final int offset) {
        final int length = length(value);
        long rest = value;
        int position = offset + length;
        if (rest < 0) {
            buffer.putByte(--position, SYMBOLS[(int) Long.remainderUnsigned(rest, BASE)]);
            rest = Long.divideUnsigned(rest, BASE);
        }
        while (rest != 0) {
            buffer.putByte(--position, SYMBOLS[(int) (rest % BASE)]);
            rest /= BASE;
        }
        return length;
    }

    /** @return the text of {@code value}, allocating: for logs, configuration and tests only. */
    public static String toString(final long value) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[16]);
        final int length = encode(value, buffer, 0);
        return buffer.getStringWithoutLengthAscii(0, length);
    }
}
