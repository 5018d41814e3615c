package io.sluice.bench.fix;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Encodes the load client's outbound FIX 4.4 messages into one reused direct buffer, without allocating:
 * the body is written first after a reserved gap, then BeginString and BodyLength are written right-aligned
 * in front of it, and the CheckSum after it. Header order is 35, 49, 56, 34, 52.
 */
final class FixMessageWriter {
    static final byte SOH = 1;
    private static final byte[] BEGIN_STRING = "8=FIX.4.4\u00019=".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_RESERVE = 32;

    private final ByteBuffer byteBuffer;
    private final UnsafeBuffer buffer;
    private final byte[] senderCompId;
    private final byte[] targetCompId;
    private final UtcTimestampWriter sendingTime = new UtcTimestampWriter();
    private int position;

    FixMessageWriter(final String senderCompId, final String targetCompId, final int capacity) {
        this.byteBuffer = ByteBuffer.allocateDirect(capacity);
        this.buffer = new UnsafeBuffer(byteBuffer);
        this.senderCompId = ascii(senderCompId);
        this.targetCompId = ascii(targetCompId);
    }

    static byte[] ascii(final String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Starts a message of type {@code msgType} with sequence number {@code msgSeqNum}, sent now. */
    FixMessageWriter begin(final byte msgType, final int msgSeqNum, final long epochMillis) {
        position = HEADER_RESERVE;
        tag(35);
        buffer.putByte(position++, msgType);
        buffer.putByte(position++, SOH);
        field(49, senderCompId);
        field(56, targetCompId);
        field(34, msgSeqNum);
        tag(52);
        position += sendingTime.write(buffer, position, epochMillis);
        buffer.putByte(position++, SOH);
        return this;
    }

    FixMessageWriter field(final int tag, final long value) {
        tag(tag);
        position += buffer.putLongAscii(position, value);
        buffer.putByte(position++, SOH);
        return this;
    }

    FixMessageWriter field(final int tag, final byte[] value) {
        return field(tag, value, value.length);
    }

    FixMessageWriter field(final int tag, final byte[] value, final int length) {
        tag(tag);
        buffer.putBytes(position, value, 0, length);
        position += length;
        buffer.putByte(position++, SOH);
        return this;
    }

    FixMessageWriter field(final int tag, final char value) {
        tag(tag);
        buffer.putByte(position++, (byte) value);
        buffer.putByte(position++, SOH);
        return this;
    }

    /** Writes a UTCTimestamp field (e.g. TransactTime) with millisecond precision. */
    FixMessageWriter timestampField(final int tag, final long epochMillis) {
        tag(tag);
        position += sendingTime.write(buffer, position, epochMillis);
        buffer.putByte(position++, SOH);
        return this;
    }

    /**
     * Completes the message: BeginString, BodyLength and CheckSum.
     *
     * @return the buffer, positioned and limited to exactly the message's bytes
     */
    ByteBuffer finish() {
        final int bodyLength = position - HEADER_RESERVE;
        final int lengthDigits = digits(bodyLength);
        final int start = HEADER_RESERVE - 1 - lengthDigits - BEGIN_STRING.length;
        buffer.putBytes(start, BEGIN_STRING);
        buffer.putNaturalIntAscii(start + BEGIN_STRING.length, bodyLength);
        buffer.putByte(HEADER_RESERVE - 1, SOH);
        int sum = 0;
        for (int i = start; i < position; i++) {
            sum += buffer.getByte(i);
        }
        sum &= 0xFF;
        tag(10);
        buffer.putByte(position++, (byte) ('0' + sum / 100));
        buffer.putByte(position++, (byte) ('0' + sum / 10 % 10));
        buffer.putByte(position++, (byte) ('0' + sum % 10));
        buffer.putByte(position++, SOH);
        byteBuffer.limit(position).position(start);
        return byteBuffer;
    }

    private void tag(final int tag) {
        position += buffer.putNaturalIntAscii(position, tag);
        buffer.putByte(position++, (byte) '=');
    }

    private static int digits(final int value) {
        int digits = 1;
        for (int rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        return digits;
    }
}
