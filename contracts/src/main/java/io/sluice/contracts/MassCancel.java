package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * A request to cancel many of one session's resting orders at once: from FIX OrderMassCancelRequest (35=q), or
 * written by the gateway itself for cancel-on-disconnect ({@link MassCancelCause}). It only ever reaches the orders
 * of the session that sent it (the gateway in the MetaData and {@link #session()}). The engine answers with one
 * cancel execution report per order it cancels, then one {@link MassCancelReport}.
 */
public final class MassCancel extends SessionCommand<MassCancel> {
    @LongConversion(ShortTextLongConverter.class)
    private long clOrdId;
    private MassCancelScope scope;
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    private Side side;
    private MassCancelCause cause;

    /** @return the request's ClOrdID (11), or 0 when the gateway wrote it for cancel-on-disconnect. */
    public long clOrdId() {
        return clOrdId;
    }

    public MassCancel clOrdId(final long clOrdId) {
        this.clOrdId = clOrdId;
        return this;
    }

    /** @return which orders: one instrument's ({@link #symbol()}) or all of the session's. */
    public MassCancelScope scope() {
        return scope;
    }

    public MassCancel scope(final MassCancelScope scope) {
        this.scope = scope;
        return this;
    }

    /** @return the instrument (55) of a {@link MassCancelScope#SECURITY} request; 0 otherwise. */
    public long symbol() {
        return symbol;
    }

    public MassCancel symbol(final long symbol) {
        this.symbol = symbol;
        return this;
    }

    /** @return only orders of this side (54), or {@code null} for both sides. */
    public Side side() {
        return side;
    }

    public MassCancel side(final Side side) {
        this.side = side;
        return this;
    }

    public MassCancelCause cause() {
        return cause;
    }

    public MassCancel cause(final MassCancelCause cause) {
        this.cause = cause;
        return this;
    }

    @Override
    void writeFields(final RecordOut out) {
        out.writeLong(clOrdId);
        writeCode(out, scope);
        out.writeLong(symbol);
        writeCode(out, side);
        out.writeByte((byte) (cause == null ? -1 : cause.ordinal()));
    }

    @Override
    void readFields(final RecordIn in) {
        clOrdId = in.readLong();
        scope = MassCancelScope.fromFixCode(in.readByte());
        symbol = in.readLong();
        side = Side.fromFixCode(in.readByte());
        cause = MassCancelCause.fromOrdinal(in.readByte());
    }
}
