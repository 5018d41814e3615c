package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.MilliTimestampLongConverter;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The record of one FIX message a gateway sent (or numbered for an offline client). Session, MsgSeqNum, MsgType,
 * SendingTime, and for application messages the body fields after the standard header, which is what a resend needs.
 * Part of a gateway's own journal ({@link GatewayRecords}), with a
 * {@link RecordChecksum} like every record. {@link #engineIndex()} is the engine-journal index of the report it carried.
 */
public final class SentMessage extends BytesInBinaryMarshallable {
    /** The largest body a SentMessage holds. */
    public static final int MAX_BODY_LENGTH = 65_536;
    /** Bytes of the fields before the body: session, seqNum, msgType, sendingTime, engineIndex, body length. */
    private static final int HEADER_LENGTH = 4 * Long.BYTES + 2 * Integer.BYTES;

    @LongConversion(ShortTextLongConverter.class)
    private long session;
    private long seqNum;
    private int msgType;
    @LongConversion(MilliTimestampLongConverter.class)
    private long sendingTime;
    private long engineIndex;
    private transient final UnsafeBuffer body;
    private transient int bodyLength;
    private transient DirectBuffer source;
    private transient int sourceOffset;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    /** @param maxBodyLength the largest body this instance reads back */
    public SentMessage(final int maxBodyLength) {
        body = new UnsafeBuffer(new byte[maxBodyLength]);
    }

    /** The instance method readers create: room for the largest body a gateway may be configured for. */
    public SentMessage() {
        this(MAX_BODY_LENGTH);
    }

    /** Sets every field for writing; the body is read from {@code buffer} when written. */
    public SentMessage set(final long session, final long seqNum, final int msgType, final long sendingTime,
                           final long engineIndex, final DirectBuffer buffer, final int offset, final int length) {
        this.session = session;
        this.seqNum = seqNum;
        this.msgType = msgType;
        this.sendingTime = sendingTime;
        this.engineIndex = engineIndex;
        this.source = buffer;
        this.sourceOffset = offset;
        this.bodyLength = length;
        return this;
    }

    public long session() {
        return session;
    }

    public long seqNum() {
        return seqNum;
    }

    public int msgType() {
        return msgType;
    }

    /** @return SendingTime in epoch milliseconds: the OrigSendingTime of a resend. */
    public long sendingTime() {
        return sendingTime;
    }

    /** @return the engine-journal index of the report this message delivered, or 0. */
    public long engineIndex() {
        return engineIndex;
    }

    /** @return the body as read back (valid after a read). */
    public DirectBuffer body() {
        return body;
    }

    public int bodyLength() {
        return bodyLength;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes, HEADER_LENGTH + bodyLength);
        out.writeLong(session);
        out.writeLong(seqNum);
        out.writeInt(msgType);
        out.writeLong(sendingTime);
        out.writeLong(engineIndex);
        out.writeInt(bodyLength);
        out.writeBytes(source, sourceOffset, bodyLength);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes, HEADER_LENGTH + MAX_BODY_LENGTH);
        session = in.readLong();
        seqNum = in.readLong();
        msgType = in.readInt();
        sendingTime = in.readLong();
        engineIndex = in.readLong();
        final int length = in.readInt();
        if (length < 0) {
            throw new IllegalStateException("a stored message body of " + length + " bytes");
        }
        bodyLength = Math.min(length, body.capacity());
        in.readBytes(body, bodyLength);
        in.skip(length - bodyLength);
        in.end();
        source = body;
        sourceOffset = 0;
    }
}
