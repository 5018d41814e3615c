package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * A request to cancel an open order, from FIX OrderCancelRequest (35=F). The order is named by its
 * current ClOrdID in OrigClOrdID; the request itself has a new ClOrdID.
 */
public final class CancelOrder extends Event {
    @LongConversion(ShortTextLongConverter.class)
    private long session;
    @LongConversion(ShortTextLongConverter.class)
    private long clOrdId;
    @LongConversion(ShortTextLongConverter.class)
    private long origClOrdId;
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    private Side side;
    @LongConversion(ShortTextLongConverter.class)
    private long onBehalfOfCompId;
    @LongConversion(ShortTextLongConverter.class)
    private long deliverToCompId;

    public long session() {
        return session;
    }

    public CancelOrder session(final long session) {
        this.session = session;
        return this;
    }

    public long clOrdId() {
        return clOrdId;
    }

    public CancelOrder clOrdId(final long clOrdId) {
        this.clOrdId = clOrdId;
        return this;
    }

    public long origClOrdId() {
        return origClOrdId;
    }

    public CancelOrder origClOrdId(final long origClOrdId) {
        this.origClOrdId = origClOrdId;
        return this;
    }

    public long symbol() {
        return symbol;
    }

    public CancelOrder symbol(final long symbol) {
        this.symbol = symbol;
        return this;
    }

    public Side side() {
        return side;
    }

    public CancelOrder side(final Side side) {
        this.side = side;
        return this;
    }

    /** @return the client's OnBehalfOfCompID (115), or 0: the answer carries it back as DeliverToCompID (128). */
    public long onBehalfOfCompId() {
        return onBehalfOfCompId;
    }

    public CancelOrder onBehalfOfCompId(final long onBehalfOfCompId) {
        this.onBehalfOfCompId = onBehalfOfCompId;
        return this;
    }

    /** @return the client's DeliverToCompID (128), or 0: the answer carries it back as OnBehalfOfCompID (115). */
    public long deliverToCompId() {
        return deliverToCompId;
    }

    public CancelOrder deliverToCompId(final long deliverToCompId) {
        this.deliverToCompId = deliverToCompId;
        return this;
    }

    @Override
    void writeBody(final RecordOut out) {
        out.writeLong(session);
        out.writeLong(clOrdId);
        out.writeLong(origClOrdId);
        out.writeLong(symbol);
        writeCode(out, side);
        out.writeLong(onBehalfOfCompId);
        out.writeLong(deliverToCompId);
    }

    @Override
    void readBody(final RecordIn in) {
        session = in.readLong();
        clOrdId = in.readLong();
        origClOrdId = in.readLong();
        symbol = in.readLong();
        side = Side.fromFixCode(in.readByte());
        onBehalfOfCompId = in.readLong();
        deliverToCompId = in.readLong();
    }
}
