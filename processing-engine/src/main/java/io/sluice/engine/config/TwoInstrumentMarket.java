package io.sluice.engine.config;

import io.sluice.contracts.Price;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.nio.file.Path;

/**
 * The market the engine's process-level tests (and the tools' tests on real engine journals) trade. Gateways 1 and 2,
 * and two instruments, VOD.L (ticks of 0.01 in 50..150, lots of 10) and BARC.L (ticks of 0.005 in 1..10, lots of 1),
 * with room for 10,000 open orders. A test that needs another limit changes the config it gets.
 */
public final class TwoInstrumentMarket {
    private TwoInstrumentMarket() {
    }

    /** @return a new engine config of this market on the journals under {@code root} */
    public static EngineConfig config(final Path root) {
        return new EngineConfig().journalRoot(root).gatewayIds(1, 2)
                .maxOpenOrders(10_000).completedOrderMemory(10_000).maxPriceLevels(64)
                .addInstrument(new InstrumentConfig().symbol(ShortTextLongConverter.INSTANCE.parse("VOD.L"))
                        .tickSize(Price.SCALE / 100).lotSize(10).priceLow(Price.of(50)).priceHigh(Price.of(150))
                        .maxOrderQty(10_000).maxNotional(Price.of(1_000_000)))
                .addInstrument(new InstrumentConfig().symbol(ShortTextLongConverter.INSTANCE.parse("BARC.L"))
                        .tickSize(Price.SCALE / 200).lotSize(1).priceLow(Price.of(1)).priceHigh(Price.of(10))
                        .maxOrderQty(10_000).maxNotional(Price.of(100_000)));
    }
}
