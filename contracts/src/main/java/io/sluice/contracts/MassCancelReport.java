package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * The engine's answer to a {@link MassCancel}, after the cancel reports of the orders it canceled: FIX
 * OrderMassCancelReport (35=r) when the client asked ({@link MassCancelCause#CLIENT_REQUEST}). The request's
 * ClOrdID is {@link #clOrdId()}; {@link #orderId()} is the engine's id for the request (37). A refused request
 * (an unknown instrument, say) has a {@link #rejectReason()} other than NONE and cancels nothing: MassCancelResponse
 * (531) 0 and MassCancelRejectReason (532) from the reason; otherwise 531 echoes {@link #scope()}.
 */
public final class MassCancelReport extends Report {
    private MassCancelScope scope;
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    private Side side;
    private MassCancelCause cause;
    private long affectedOrders;

    public MassCancelScope scope() {
        return scope;
    }

    public MassCancelReport scope(final MassCancelScope scope) {
        this.scope = scope;
        return this;
    }

    public long symbol() {
        return symbol;
    }

    public MassCancelReport symbol(final long symbol) {
        this.symbol = symbol;
        return this;
    }

    /** @return the side the request was narrowed to, or {@code null} for both. */
    public Side side() {
        return side;
    }

    public MassCancelReport side(final Side side) {
        this.side = side;
        return this;
    }

    public MassCancelCause cause() {
        return cause;
    }

    public MassCancelReport cause(final MassCancelCause cause) {
        this.cause = cause;
        return this;
    }

    /** @return how many orders were canceled: TotalAffectedOrders (533). */
    public long affectedOrders() {
        return affectedOrders;
    }

    public MassCancelReport affectedOrders(final long affectedOrders) {
        this.affectedOrders = affectedOrders;
        return this;
    }

    @Override
    void writeBody(final RecordOut out) {
        super.writeBody(out);
        writeCode(out, scope);
        out.writeLong(symbol);
        writeCode(out, side);
        out.writeByte((byte) (cause == null ? -1 : cause.ordinal()));
        out.writeLong(affectedOrders);
    }

    @Override
    void readBody(final RecordIn in) {
        super.readBody(in);
        scope = MassCancelScope.fromFixCode(in.readByte());
        symbol = in.readLong();
        side = Side.fromFixCode(in.readByte());
        cause = MassCancelCause.fromOrdinal(in.readByte());
        affectedOrders = in.readLong();
    }
}
