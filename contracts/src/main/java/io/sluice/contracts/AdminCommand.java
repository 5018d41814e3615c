package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * One operator command, appended by {@code ./sluice admin} (or the trading-session scheduler) to the deployment's
 * admin journal ({@code Journals.adminJournal}), which the engine and every gateway read. Its MetaData's sourceId is
 * {@code Journals.ADMIN_SOURCE_ID} and its eventId the admin journal's own sequence, so the engine journal records
 * when each command was consumed and replay reproduces it. Which fields matter depends on the {@link AdminAction};
 * the others are 0.
 */
public final class AdminCommand extends AdminRecord<AdminCommand> {
    private long nextSenderSeqNum;
    private long nextTargetSeqNum;
    @LongConversion(ShortTextLongConverter.class)
    private long reason;
    @LongConversion(ShortTextLongConverter.class)
    private long user;
    @LongConversion(ShortTextLongConverter.class)
    private long firm;
    private FirmLimit limit;
    private long limitValue;

    /** @return for {@link AdminAction#SET_SEQUENCE}: the MsgSeqNum (34) of the session's next outbound message. */
    public long nextSenderSeqNum() {
        return nextSenderSeqNum;
    }

    /** @return for {@link AdminAction#SET_SEQUENCE}: the MsgSeqNum (34) expected of the client's next message. */
    public long nextTargetSeqNum() {
        return nextTargetSeqNum;
    }

    public AdminCommand sequence(final long nextSenderSeqNum, final long nextTargetSeqNum) {
        this.nextSenderSeqNum = nextSenderSeqNum;
        this.nextTargetSeqNum = nextTargetSeqNum;
        return this;
    }

    /** @return a short reason (up to 10 characters), e.g. the text of a disconnect's Logout; 0 for none. */
    public long reason() {
        return reason;
    }

    public AdminCommand reason(final long reason) {
        this.reason = reason;
        return this;
    }

    /** @return the OS user who wrote the command (up to 10 characters), for the audit trail. */
    public long user() {
        return user;
    }

    public AdminCommand user(final long user) {
        this.user = user;
        return this;
    }

    /** @return for firm actions: the firm (a session without a firm is the firm named by its CompID); 0 otherwise */
    public long firm() {
        return firm;
    }

    public AdminCommand firm(final long firm) {
        this.firm = firm;
        return this;
    }

    /** @return for {@link AdminAction#SET_FIRM_LIMIT}: the limit to set; null otherwise */
    public FirmLimit limit() {
        return limit;
    }

    /** @return for {@link AdminAction#SET_FIRM_LIMIT}: its new value, in the limit's unit; {@link FirmLimit#NONE} lifts it */
    public long limitValue() {
        return limitValue;
    }

    public AdminCommand limit(final FirmLimit limit, final long limitValue) {
        this.limit = limit;
        this.limitValue = limitValue;
        return this;
    }

    @Override
    void writeBody(final RecordOut out) {
        super.writeBody(out);
        out.writeLong(nextSenderSeqNum);
        out.writeLong(nextTargetSeqNum);
        out.writeLong(reason);
        out.writeLong(user);
        out.writeLong(firm);
        out.writeByte((byte) (limit == null ? -1 : limit.ordinal()));
        out.writeLong(limitValue);
    }

    @Override
    void readBody(final RecordIn in) {
        super.readBody(in);
        nextSenderSeqNum = in.readLong();
        nextTargetSeqNum = in.readLong();
        reason = in.readLong();
        user = in.readLong();
        firm = in.readLong();
        limit = FirmLimit.fromOrdinal(in.readByte());
        limitValue = in.readLong();
    }
}
