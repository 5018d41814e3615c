package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * A session's sequence numbers as recorded in the gateway journal: after each processed client message
 * ({@link GatewayRecords#received}) and on a sequence reset ({@link GatewayRecords#reset}). It also
 * carries the gateway's last command eventId at that moment, so a restart can tell which commands in
 * the command journal came from messages whose progress was not recorded yet. Carries a {@link RecordChecksum}
 * like every record.
 */
public final class SessionProgress extends BytesInBinaryMarshallable {
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    private long nextSenderSeq;
    private long nextTargetSeq;
    private long lastEventId;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    public SessionProgress set(final long session, final long nextSenderSeq, final long nextTargetSeq,
                               final long lastEventId) {
        this.session = session;
        this.nextSenderSeq = nextSenderSeq;
        this.nextTargetSeq = nextTargetSeq;
        this.lastEventId = lastEventId;
        return this;
    }

    public long session() {
        return session;
    }

    public long nextSenderSeq() {
        return nextSenderSeq;
    }

    public long nextTargetSeq() {
        return nextTargetSeq;
    }

    public long lastEventId() {
        return lastEventId;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeLong(session);
        out.writeLong(nextSenderSeq);
        out.writeLong(nextTargetSeq);
        out.writeLong(lastEventId);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        session = in.readLong();
        nextSenderSeq = in.readLong();
        nextTargetSeq = in.readLong();
        lastEventId = in.readLong();
        in.end();
    }
}
