package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * Everything a gateway's restart recovers for one session from its own journal, written at once ({@link
 * GatewayRecords#checkpoint}). The session's next sequence numbers both ways, plus what the gateway as a whole
 * recovered (the last command eventId whose progress is recorded, and the engine-journal excerpt of the last report
 * delivered with how many of its reports were, the last admin command it answered), and the eventId of the session's
 * last recorded client progress (which cancel-on-disconnect reads after a restart). A gateway writes one excerpt of
 * these, one per session it has state
 * for, when it starts and when its journal rolls to a new day, so that a restart reading only the days after it (the
 * older cycles archived) recovers the same state as one reading the journal whole. Carries a {@link RecordChecksum}
 * like every record.
 */
public final class SessionCheckpoint extends BytesInBinaryMarshallable {
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    private long nextSenderSeq;
    private long nextTargetSeq;
    private long recordedEventId;
    private long deliveredEngineIndex;
    private long deliveredFromExcerpt;
    private long lastProgressEventId;
    private long answeredAdminEventId;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    public SessionCheckpoint set(final long session, final long nextSenderSeq, final long nextTargetSeq,
                                 final long recordedEventId, final long deliveredEngineIndex,
                                 final long deliveredFromExcerpt, final long lastProgressEventId,
                                 final long answeredAdminEventId) {
        this.session = session;
        this.nextSenderSeq = nextSenderSeq;
        this.nextTargetSeq = nextTargetSeq;
        this.recordedEventId = recordedEventId;
        this.deliveredEngineIndex = deliveredEngineIndex;
        this.deliveredFromExcerpt = deliveredFromExcerpt;
        this.lastProgressEventId = lastProgressEventId;
        this.answeredAdminEventId = answeredAdminEventId;
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

    /** @return the gateway's highest command eventId whose client message's progress was recorded */
    public long recordedEventId() {
        return recordedEventId;
    }

    /** @return the gateway's engine-journal index of the last report delivered, 0 if none */
    public long deliveredEngineIndex() {
        return deliveredEngineIndex;
    }

    /** @return how many of the gateway's reports in the excerpt at {@link #deliveredEngineIndex()} were delivered */
    public long deliveredFromExcerpt() {
        return deliveredFromExcerpt;
    }

    /** @return the eventId of the session's last recorded client progress, -1 if none */
    public long lastProgressEventId() {
        return lastProgressEventId;
    }

    /** @return the admin journal eventId of the last admin command the gateway answered, 0 if none */
    public long answeredAdminEventId() {
        return answeredAdminEventId;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeLong(session);
        out.writeLong(nextSenderSeq);
        out.writeLong(nextTargetSeq);
        out.writeLong(recordedEventId);
        out.writeLong(deliveredEngineIndex);
        out.writeLong(deliveredFromExcerpt);
        out.writeLong(lastProgressEventId);
        out.writeLong(answeredAdminEventId);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        session = in.readLong();
        nextSenderSeq = in.readLong();
        nextTargetSeq = in.readLong();
        recordedEventId = in.readLong();
        deliveredEngineIndex = in.readLong();
        deliveredFromExcerpt = in.readLong();
        lastProgressEventId = in.readLong();
        answeredAdminEventId = in.readLong();
        in.end();
    }
}
