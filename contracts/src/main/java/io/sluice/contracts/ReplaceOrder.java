package io.sluice.contracts;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * A cancel/replace of an open order, from FIX OrderCancelReplaceRequest (35=G). It carries the new terms under a new
 * ClOrdID, naming the order to change by its current ClOrdID in OrigClOrdID.
 */
public final class ReplaceOrder extends OrderCommand {
    @LongConversion(ShortTextLongConverter.class)
    private long origClOrdId;

    public long origClOrdId() {
        return origClOrdId;
    }

    public ReplaceOrder origClOrdId(final long origClOrdId) {
        this.origClOrdId = origClOrdId;
        return this;
    }

    @Override
    void writeBody(final RecordOut out) {
        super.writeBody(out);
        out.writeLong(origClOrdId);
    }

    @Override
    void readBody(final RecordIn in) {
        super.readBody(in);
        origClOrdId = in.readLong();
    }
}
