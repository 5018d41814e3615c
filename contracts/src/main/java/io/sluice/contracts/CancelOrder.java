package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * A request to cancel an open order, from FIX OrderCancelRequest (35=F). The order is named by its
 * current ClOrdID in OrigClOrdID; the request itself has a new ClOrdID.
 */
public final class CancelOrder extends SessionCommand<CancelOrder> {
    @LongConversion(ShortTextLongConverter.class)
    private long clOrdId;
    @LongConversion(ShortTextLongConverter.class)
    private long origClOrdId;
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    private Side side;

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

    @Override
    void writeFields(final RecordOut out) {
        out.writeLong(clOrdId);
        out.writeLong(origClOrdId);
        out.writeLong(symbol);
        writeCode(out, side);
    }

    @Override
    void readFields(final RecordIn in) {
        clOrdId = in.readLong();
        origClOrdId = in.readLong();
        symbol = in.readLong();
        side = Side.fromFixCode(in.readByte());
    }
}
