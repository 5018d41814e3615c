package io.sluice.marketdata.load;

import io.sluice.marketdata.MarketDataConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * Market data of the engine's two-instrument test market (VOD.L and BARC.L), for tests and benchmarks of market data
 * derived from a recorded engine's journal.
 */
public final class TwoInstrumentMarketData {
    private TwoInstrumentMarketData() {
    }

    /** @return the instruments as market data lists them */
    public static List<String> symbols() {
        return List.of("VOD.L", "BARC.L");
    }

    /** @return a market-data config for the engine journal under {@code root} (send to {@code incremental}) */
    public static MarketDataConfig config(final Path root, final String incremental) {
        return new MarketDataConfig().journalRoot(root).instruments(symbols()).incremental(List.of(incremental))
                .checksumEvery(50);
    }
}
