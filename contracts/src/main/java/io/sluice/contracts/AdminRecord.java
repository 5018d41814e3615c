package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * What an {@link AdminCommand} and its {@link AdminOutcome} both start with, written and read here once. The {@link
 * AdminAction} and what it names (a gateway and one of its sessions, an instrument), right after the MetaData.
 * Each record's own fields follow, as a {@link Report}'s subclasses follow the fields every report has.
 *
 * @param <R> the record itself, which the setters return
 */
public abstract class AdminRecord<R extends AdminRecord<R>> extends Event {
    private AdminAction action;
    private int gatewayId;
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;

    public AdminAction action() {
        return action;
    }

    public R action(final AdminAction action) {
        this.action = action;
        return self();
    }

    /** @return the gateway hosting {@link #session()}, for session actions; 0 otherwise. */
    public int gatewayId() {
        return gatewayId;
    }

    public R gatewayId(final int gatewayId) {
        this.gatewayId = gatewayId;
        return self();
    }

    /** @return the session (client SenderCompID) for session actions; 0 otherwise. */
    public long session() {
        return session;
    }

    public R session(final long session) {
        this.session = session;
        return self();
    }

    /** @return the instrument for instrument actions; 0 for "all" where the action allows it. */
    public long symbol() {
        return symbol;
    }

    public R symbol(final long symbol) {
        this.symbol = symbol;
        return self();
    }

    /** Copies the MetaData, the action and what it names from {@code other}. */
    final R copyNaming(final AdminRecord<?> other) {
        metaData().copyFrom(other.metaData());
        action = other.action;
        gatewayId = other.gatewayId;
        session = other.session;
        symbol = other.symbol;
        return self();
    }

    @Override
    void writeBody(final RecordOut out) {
        out.writeByte((byte) (action == null ? -1 : action.ordinal()));
        out.writeInt(gatewayId);
        out.writeLong(session);
        out.writeLong(symbol);
    }

    @Override
    void readBody(final RecordIn in) {
        action = AdminAction.fromOrdinal(in.readByte());
        gatewayId = in.readInt();
        session = in.readLong();
        symbol = in.readLong();
    }

    @SuppressWarnings("unchecked")
    private R self() {
        return (R) this;
    }
}
