package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * A cancel/replace of an open order, from FIX OrderCancelReplaceRequest (35=G): the new terms under a
 * new ClOrdID, naming the order to change by its current ClOrdID in OrigClOrdID.
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
    protected void writeBody(final BytesOut<?> bytes) {
        super.writeBody(bytes);
        bytes.writeLong(origClOrdId);
    }

    @Override
    protected void readBody(final BytesIn<?> bytes) {
        super.readBody(bytes);
        origClOrdId = bytes.readLong();
    }
}
