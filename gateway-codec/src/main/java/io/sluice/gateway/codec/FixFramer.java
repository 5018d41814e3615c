package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Finds where one FIX 4.4 message ends in a stream of bytes. It checks that the message begins {@code
 * 8=FIX.4.4|9=<n>|}, that BodyLength (9) ends exactly where {@code 10=ddd|} begins, and that the CheckSum matches. It
 * reads the buffer only; it never allocates or throws on bad input.
 */
public final class FixFramer {
    /** {@code 8=FIX.4.4<SOH>9=}: every frame starts with these bytes. */
    public static final byte[] BEGIN = "8=FIX.4.4\u00019=".getBytes(StandardCharsets.US_ASCII);
    /** Length of the CheckSum field {@code 10=ddd<SOH>}. */
    public static final int CHECKSUM_FIELD_LENGTH = 7;
    /** The FIX field delimiter. */
    public static final byte SOH = 1;
    private static final int MAX_BODY_LENGTH_DIGITS = 6;
    /** Where the BeginString field's SOH is in {@link #BEGIN}. */
    private static final int BEGIN_STRING_END = 9;

    private final int maxBodyLength;
    private FixError error = FixError.NONE;
    private int bodyStart;
    private int bodyEnd;

    /** @param maxBodyLength the largest BodyLength accepted; larger frames are framing errors. */
    public FixFramer(final int maxBodyLength) {
        this.maxBodyLength = maxBodyLength;
    }

    /**
     * Scans for one frame at {@code offset}.
     *
     * @return the frame's length in bytes if it is complete (check {@link #error()}: {@link FixError#NONE} or
     *         {@link FixError#BAD_CHECKSUM}, which means skip it); 0 if more bytes are needed; -1 if the bytes
     *         are not a FIX 4.4 frame ({@link #error()} says why: {@link FixError#BAD_BEGIN_STRING} for another
     *         BeginString, otherwise garbled bytes to skip up to {@link #nextFrameStart} or abandon)
     */
    public int scan(final DirectBuffer buffer, final int offset, final int length) {
        error = FixError.NONE;
        final int prefix = Math.min(length, BEGIN.length);
        for (int i = 0; i < prefix; i++) {
            if (buffer.getByte(offset + i) != BEGIN[i]) {
                // "8=" then another value: a BeginString other than FIX.4.4; otherwise the first fields are garbled.
                return fail(i >= 2 && i < BEGIN_STRING_END ? FixError.BAD_BEGIN_STRING : FixError.GARBLED_START);
            }
        }
        if (length <= BEGIN.length) {
            return 0;
        }
        int position = offset + BEGIN.length;
        final int end = offset + length;
        int bodyLength = 0;
        int digits = 0;
        while (true) {
            if (position == end) {
                return 0;
            }
            final byte b = buffer.getByte(position++);
            if (b == SOH) {
                break;
            }
            if (b < '0' || b > '9' || ++digits > MAX_BODY_LENGTH_DIGITS) {
                return fail(FixError.BAD_BODY_LENGTH);
            }
            bodyLength = bodyLength * 10 + (b - '0');
        }
        if (digits == 0) {
            return fail(FixError.BAD_BODY_LENGTH);
        }
        if (bodyLength > maxBodyLength) {
            return fail(FixError.BODY_TOO_LONG);
        }
        final int checksumStart = position + bodyLength;
        final int frameLength = checksumStart + CHECKSUM_FIELD_LENGTH - offset;
        if (frameLength > length) {
            return 0;
        }
        if (bodyLength == 0 || buffer.getByte(checksumStart - 1) != SOH
                || buffer.getByte(checksumStart) != '1' || buffer.getByte(checksumStart + 1) != '0'
                || buffer.getByte(checksumStart + 2) != '=' || buffer.getByte(checksumStart + 6) != SOH) {
            return fail(FixError.BAD_BODY_LENGTH);
        }
        bodyStart = position;
        bodyEnd = checksumStart;
        final int declared = threeDigits(buffer, checksumStart + 3);
        if (declared != checksum(buffer, offset, checksumStart - offset)) {
            error = FixError.BAD_CHECKSUM;
        }
        return frameLength;
    }

    /**
     * Finds where the next frame may begin after a garbled one at {@code offset}: the next {@link #BEGIN}, or the
     * start of a part of it at the end of the bytes (the rest has not arrived yet).
     *
     * @return how many bytes to skip, at least 1
     */
    public static int nextFrameStart(final DirectBuffer buffer, final int offset, final int length) {
        for (int start = 1; start < length; start++) {
            final int compared = Math.min(BEGIN.length, length - start);
            int i = 0;
            while (i < compared && buffer.getByte(offset + start + i) == BEGIN[i]) {
                i++;
            }
            if (i == compared) {
                return start;
            }
        }
        return length;
    }

    /** @return why the last {@link #scan} failed, or {@link FixError#NONE}. */
    public FixError error() {
        return error;
    }

    /** @return where the last complete frame's body (MsgType onwards) begins. */
    public int bodyStart() {
        return bodyStart;
    }

    /** @return where the last complete frame's CheckSum field begins. */
    public int bodyEnd() {
        return bodyEnd;
    }

    /** @return the FIX CheckSum of {@code length} bytes: their sum modulo 256. */
    public static int checksum(final DirectBuffer buffer, final int offset, final int length) {
        int sum = 0;
        for (int i = 0; i < length; i++) {
            sum += buffer.getByte(offset + i);
        }
        return sum & 0xFF;
    }

    private static int threeDigits(final DirectBuffer buffer, final int offset) {
        int value = 0;
        for (int i = 0; i < 3; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b < '0' || b > '9') {
                return -1;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    private int fail(final FixError why) {
        error = why;
        return -1;
    }
}
