package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * In an engine snapshot ({@link EngineSnapshots}): one instrument of the config the state was built under, with the
 * rules that decide what the engine accepts. An engine whose instruments differ refuses the snapshot: its books and
 * its answers to the inputs after it could differ.
 */
public final class SnapshotInstrument extends BytesInBinaryMarshallable {
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    @LongConversion(Price.Text.class)
    private long tickSize;
    private long lotSize;
    @LongConversion(Price.Text.class)
    private long priceLow;
    @LongConversion(Price.Text.class)
    private long priceHigh;
    private long maxOrderQty;
    @LongConversion(Price.Text.class)
    private long maxNotional;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    public SnapshotInstrument set(final long symbol, final long tickSize, final long lotSize, final long priceLow,
                                  final long priceHigh, final long maxOrderQty, final long maxNotional) {
        this.symbol = symbol;
        this.tickSize = tickSize;
        this.lotSize = lotSize;
        this.priceLow = priceLow;
        this.priceHigh = priceHigh;
        this.maxOrderQty = maxOrderQty;
        this.maxNotional = maxNotional;
        return this;
    }

    public long symbol() {
        return symbol;
    }

    public long tickSize() {
        return tickSize;
    }

    public long lotSize() {
        return lotSize;
    }

    public long priceLow() {
        return priceLow;
    }

    public long priceHigh() {
        return priceHigh;
    }

    public long maxOrderQty() {
        return maxOrderQty;
    }

    public long maxNotional() {
        return maxNotional;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeLong(symbol);
        out.writeLong(tickSize);
        out.writeLong(lotSize);
        out.writeLong(priceLow);
        out.writeLong(priceHigh);
        out.writeLong(maxOrderQty);
        out.writeLong(maxNotional);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        symbol = in.readLong();
        tickSize = in.readLong();
        lotSize = in.readLong();
        priceLow = in.readLong();
        priceHigh = in.readLong();
        maxOrderQty = in.readLong();
        maxNotional = in.readLong();
        in.end();
    }
}
