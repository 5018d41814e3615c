package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes one FIX 4.4 message at a time into a buffer, for either side of a session. Call {@link #start} with the
 * MsgType, {@link #header} and any other fields, then {@link #finish}, which puts BeginString and BodyLength in front
 * and CheckSum behind. The message then lies at {@link #messageOffset()} for
 * {@link #messageLength()} bytes. Nothing is allocated; the buffer must hold the largest message.
 * <pre>{@code
 * encoder.start(MsgTypes.NEW_ORDER_SINGLE).header(sender, target, seqNum, nowMillis)
 *        .shortTextField(FixTags.CL_ORD_ID, clOrdId).charField(FixTags.SIDE, '1')
 *        .longField(FixTags.ORDER_QTY, 100).priceField(FixTags.PRICE, price).finish();
 * channel.write(encoder.messageOffset(), encoder.messageLength()) ...
 * }</pre>
 */
public final class FixEncoder {
    /** Bytes kept free before the body for {@code 8=FIX.4.4|9=nnnnnn|}. */
    public static final int HEADER_RESERVE = FixFramer.BEGIN.length + 7;

    private final MutableDirectBuffer buffer;
    private int position;
    private int msgType;
    private long sendingTime;
    private int bodyStart;
    private int messageOffset;
    private int messageLength;
    private int presummedOffset;
    private int presummedLength;
    private int presummedSum;

    public FixEncoder(final MutableDirectBuffer buffer) {
        this.buffer = buffer;
    }

    public MutableDirectBuffer buffer() {
        return buffer;
    }

    /** Begins a new message with its MsgType (packed, see {@link MsgTypes}). */
    public FixEncoder start(final int msgType) {
        this.msgType = msgType;
        position = HEADER_RESERVE;
        presummedLength = 0;
        putTag(FixTags.MSG_TYPE);
        for (int i = 0, length = MsgTypes.length(msgType); i < length; i++) {
            buffer.putByte(position++, (byte) (msgType >>> (8 * i)));
        }
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    /** Writes SenderCompID, TargetCompID, MsgSeqNum and SendingTime; the body starts after them. */
    public FixEncoder header(final byte[] senderCompId, final byte[] targetCompId, final long msgSeqNum,
                             final long sendingTimeMillis) {
        field(FixTags.SENDER_COMP_ID, senderCompId)
                .field(FixTags.TARGET_COMP_ID, targetCompId)
                .longField(FixTags.MSG_SEQ_NUM, msgSeqNum)
                .timestampField(FixTags.SENDING_TIME, sendingTimeMillis);
        this.sendingTime = sendingTimeMillis;
        this.bodyStart = position;
        return this;
    }

    /** @return the MsgType of the message being written, as given to {@link #start}. */
    public int msgType() {
        return msgType;
    }

    /** @return the SendingTime (52) {@link #header} wrote, in epoch milliseconds. */
    public long sendingTime() {
        return sendingTime;
    }

    /** @return where the fields after the {@link #header} start: the body a session stores for resending. */
    public int bodyStart() {
        return bodyStart;
    }

    public FixEncoder field(final int tag, final byte[] value) {
        putTag(tag);
        buffer.putBytes(position, value);
        position += value.length;
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    /** Writes ASCII text; characters outside printable ASCII are written as '?'. */
    public FixEncoder textField(final int tag, final CharSequence text) {
        putTag(tag);
        for (int i = 0, length = text.length(); i < length; i++) {
            final char c = text.charAt(i);
            buffer.putByte(position++, c >= ' ' && c <= '~' ? (byte) c : (byte) '?');
        }
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    /** Writes a value that is already FIX bytes, e.g. copied from a received message. */
    public FixEncoder field(final int tag, final DirectBuffer source, final int offset, final int length) {
        putTag(tag);
        buffer.putBytes(position, source, offset, length);
        position += length;
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    public FixEncoder longField(final int tag, final long value) {
        if (value == Long.MIN_VALUE) {
            return textField(tag, "-9223372036854775808");
        }
        putTag(tag);
        if (value < 0) {
            buffer.putByte(position++, (byte) '-');
            position += FixDecimal.encodeUnsigned(-value, buffer, position);
        } else {
            position += FixDecimal.encodeUnsigned(value, buffer, position);
        }
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    /** Writes {@code prefix} (ASCII) followed by a non-negative {@code value} in decimal, e.g. {@code G1-4822...}. */
    public FixEncoder prefixedLongField(final int tag, final byte[] prefix, final long value) {
        putTag(tag);
        buffer.putBytes(position, prefix);
        position += prefix.length;
        position += FixDecimal.encodeUnsigned(value, buffer, position);
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    public FixEncoder charField(final int tag, final char value) {
        putTag(tag);
        buffer.putByte(position++, (byte) value);
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    public FixEncoder booleanField(final int tag, final boolean value) {
        return charField(tag, value ? 'Y' : 'N');
    }

    /** Writes a fixed-point price (see {@link io.sluice.contracts.Price}) as a decimal. */
    public FixEncoder priceField(final int tag, final long fixedPoint) {
        putTag(tag);
        position += FixDecimal.encodePrice(fixedPoint, buffer, position);
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    /** Writes an identifier packed by {@link ShortText} as its text. */
    public FixEncoder shortTextField(final int tag, final long id) {
        putTag(tag);
        position += ShortText.encode(id, buffer, position);
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    public FixEncoder timestampField(final int tag, final long epochMillis) {
        putTag(tag);
        position += UtcTimestamp.encode(epochMillis, buffer, position);
        buffer.putByte(position++, FixFramer.SOH);
        return this;
    }

    /**
     * Begins a run of fields with no MsgType, header or framing, from the buffer's start: a part of many messages
     * encoded once ({@link EncodedFields}). Add fields as to a message; {@link #position()} is then its length.
     */
    public FixEncoder startFields() {
        msgType = 0;
        position = 0;
        bodyStart = 0;
        presummedLength = 0;
        return this;
    }

    /**
     * Pastes fields encoded once for many messages; {@link #finish} adds their byte sum to the CheckSum instead of
     * reading them again (the first paste of a message; later ones are read as any other field).
     */
    public FixEncoder encodedFields(final EncodedFields fields) {
        if (presummedLength == 0) {
            presummedOffset = position;
            presummedLength = fields.length();
            presummedSum = fields.byteSum();
        }
        return rawFields(fields.buffer(), 0, fields.length());
    }

    /** Copies whole fields ({@code tag=value<SOH>...}) verbatim, e.g. a stored body being resent. */
    public FixEncoder rawFields(final DirectBuffer source, final int offset, final int length) {
        buffer.putBytes(position, source, offset, length);
        position += length;
        return this;
    }

    /** @return where the next field will be written: mark the start of a body to store it. */
    public int position() {
        return position;
    }

    /** Adds BeginString, BodyLength and CheckSum; @return the length of the finished message. */
    public int finish() {
        final int bodyLength = position - HEADER_RESERVE;
        int digits = 1;
        for (int rest = bodyLength / 10; rest != 0; rest /= 10) {
            digits++;
        }
        messageOffset = HEADER_RESERVE - FixFramer.BEGIN.length - digits - 1;
        buffer.putBytes(messageOffset, FixFramer.BEGIN);
        FixDecimal.encodeUnsigned(bodyLength, buffer, messageOffset + FixFramer.BEGIN.length);
        buffer.putByte(HEADER_RESERVE - 1, FixFramer.SOH);
        final int checksum;
        if (presummedLength == 0) {
            checksum = FixFramer.checksum(buffer, messageOffset, position - messageOffset);
        } else {
            final int presummedEnd = presummedOffset + presummedLength;
            checksum = (FixFramer.checksum(buffer, messageOffset, presummedOffset - messageOffset) + presummedSum
                    + FixFramer.checksum(buffer, presummedEnd, position - presummedEnd)) & 0xFF;
        }
        putTag(FixTags.CHECK_SUM);
        buffer.putByte(position++, (byte) ('0' + checksum / 100));
        buffer.putByte(position++, (byte) ('0' + checksum / 10 % 10));
        buffer.putByte(position++, (byte) ('0' + checksum % 10));
        buffer.putByte(position++, FixFramer.SOH);
        messageLength = position - messageOffset;
        return messageLength;
    }

    /** @return where the finished message starts in {@link #buffer()}. */
    public int messageOffset() {
        return messageOffset;
    }

    /** @return the finished message's length in bytes. */
    public int messageLength() {
        return messageLength;
    }

    private void putTag(final int tag) {
        position += FixDecimal.encodeUnsigned(tag, buffer, position);
        buffer.putByte(position++, (byte) '=');
    }
}
