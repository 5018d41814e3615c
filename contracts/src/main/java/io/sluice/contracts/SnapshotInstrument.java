package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * In an engine snapshot ({@link EngineSnapshots}): one instrument of the config the state was built under, and its
 * trading state then. The instrument comes with the rules that decide what the engine accepts; its trading state is its
 * session (open or closed), halt and last trade price. An engine whose instruments' rules differ refuses the snapshot:
 * its books and its answers to the inputs after it could differ.
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
    private TradingSession session = TradingSession.OPEN;
    private TradingHalt halt = TradingHalt.NOT_HALTED;
    @LongConversion(Price.Text.class)
    private long lastTradePrice;
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

    /**
     * Sets the instrument's trading state: its session and halt, and the price of its last trade (0 for none), which
     * firms' price collars are measured from.
     */
    public SnapshotInstrument state(final TradingSession session, final TradingHalt halt, final long lastTradePrice) {
        this.session = session;
        this.halt = halt;
        this.lastTradePrice = lastTradePrice;
        return this;
    }

    /** @return the price of the instrument's last trade, 0 if it had none */
    public long lastTradePrice() {
        return lastTradePrice;
    }

    /** @return the trading session, as it was; null if the snapshot holds an unknown value */
    public TradingSession session() {
        return session;
    }

    /** @return whether the instrument was halted; null if the snapshot holds an unknown value */
    public TradingHalt halt() {
        return halt;
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
        out.writeByte((byte) (session == null ? -1 : session.ordinal()));
        out.writeByte((byte) (halt == null ? -1 : halt.ordinal()));
        out.writeLong(lastTradePrice);
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
        session = TradingSession.fromOrdinal(in.readByte());
        halt = TradingHalt.fromOrdinal(in.readByte());
        lastTradePrice = in.readLong();
        in.end();
    }
}
