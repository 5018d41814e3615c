package io.sluice.engine.config;

import io.sluice.contracts.Price;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * One tradable instrument as the engine's YAML config declares it. Its symbol, the price grid (tick size), the quantity
 * grid (lot size), the band of acceptable limit prices and the per-order risk limits. Prices
 * and notionals are written as decimals and held as fixed point ({@link Price}); quantities are whole
 * units. Example:
 * <pre>
 *   { symbol: VOD.L, tickSize: 0.01, lotSize: 10, priceLow: 50, priceHigh: 150,
 *     maxOrderQty: 100000, maxNotional: 5000000 }
 * </pre>
 */
public final class InstrumentConfig extends SelfDescribingMarshallable {
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    @LongConversion(Price.Text.class)
    private long tickSize;
    private long lotSize = 1;
    @LongConversion(Price.Text.class)
    private long priceLow;
    @LongConversion(Price.Text.class)
    private long priceHigh;
    private long maxOrderQty;
    @LongConversion(Price.Text.class)
    private long maxNotional;

    /** @return the symbol, packed by {@link ShortTextLongConverter}. */
    public long symbol() {
        return symbol;
    }

    public InstrumentConfig symbol(final long symbol) {
        this.symbol = symbol;
        return this;
    }

    /** @return the price increment, fixed point: limit prices must be multiples of it. */
    public long tickSize() {
        return tickSize;
    }

    public InstrumentConfig tickSize(final long tickSize) {
        this.tickSize = tickSize;
        return this;
    }

    /** @return the quantity increment: order quantities must be multiples of it. */
    public long lotSize() {
        return lotSize;
    }

    public InstrumentConfig lotSize(final long lotSize) {
        this.lotSize = lotSize;
        return this;
    }

    /** @return the lowest acceptable limit price, fixed point, inclusive. */
    public long priceLow() {
        return priceLow;
    }

    public InstrumentConfig priceLow(final long priceLow) {
        this.priceLow = priceLow;
        return this;
    }

    /** @return the highest acceptable limit price, fixed point, inclusive; also what market orders are risk-checked at. */
    public long priceHigh() {
        return priceHigh;
    }

    public InstrumentConfig priceHigh(final long priceHigh) {
        this.priceHigh = priceHigh;
        return this;
    }

    /** @return the largest quantity one order may have. */
    public long maxOrderQty() {
        return maxOrderQty;
    }

    public InstrumentConfig maxOrderQty(final long maxOrderQty) {
        this.maxOrderQty = maxOrderQty;
        return this;
    }

    /** @return the largest quantity × price one order may have, fixed point. */
    public long maxNotional() {
        return maxNotional;
    }

    public InstrumentConfig maxNotional(final long maxNotional) {
        this.maxNotional = maxNotional;
        return this;
    }

    /**
     * Checks the values make sense together, in particular that {@code maxOrderQty × priceHigh} fits in a
     * long, which is what lets the engine keep exact notionals and AvgPx in plain long arithmetic.
     *
     * @throws IllegalArgumentException naming the instrument and the offending value
     */
    public void validate() {
        final String name = "instrument " + ShortTextLongConverter.INSTANCE.asString(symbol);
        require(symbol != 0, "an instrument has no symbol");
        require(tickSize > 0, name + ": tickSize must be positive");
        require(lotSize > 0, name + ": lotSize must be positive");
        require(priceLow > 0 && priceLow <= priceHigh, name + ": need 0 < priceLow <= priceHigh");
        require(priceLow % tickSize == 0 && priceHigh % tickSize == 0, name + ": priceLow and priceHigh must be on the tick grid");
        require(maxOrderQty > 0, name + ": maxOrderQty must be positive");
        require(maxNotional > 0, name + ": maxNotional must be positive");
        require(Math.multiplyHigh(maxOrderQty, priceHigh) == 0 && maxOrderQty * priceHigh >= 0,
                name + ": maxOrderQty x priceHigh overflows a 64-bit fixed-point notional; lower one of them");
    }

    static void require(final boolean condition, final String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
