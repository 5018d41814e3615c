package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * A gateway's record that it sent a report to its FIX session: the report's MetaData with the last two
 * hops filled in ({@link MetaData#gatewayRead()}, {@link MetaData#fixSent()}). Gateways append these to
 * their delivery journal ({@link io.sluice.contracts.journal.Journals#gatewayDeliveries}) once the socket write
 * that carried the report has returned, or with fixSent 0 when the report did not go out then (client offline,
 * connection closed); the latency tail joins them with the engine's reports to time the whole path.
 */
public final class Delivery extends Event {
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    private long execId;

    /** @return the FIX session the report went to. */
    public long session() {
        return session;
    }

    public Delivery session(final long session) {
        this.session = session;
        return this;
    }

    /** @return the delivered execution report's ExecID, or 0 for a cancel reject. */
    public long execId() {
        return execId;
    }

    public Delivery execId(final long execId) {
        this.execId = execId;
        return this;
    }

    @Override
    void writeBody(final RecordOut out) {
        out.writeLong(session);
        out.writeLong(execId);
    }

    @Override
    void readBody(final RecordIn in) {
        session = in.readLong();
        execId = in.readLong();
    }
}
