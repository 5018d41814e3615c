package io.sluice.engine.risk;

import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.Price;
import io.sluice.contracts.Side;
import io.sluice.engine.config.FirmLimitsConfig;
import io.sluice.engine.config.RiskConfig;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.counters.CountersFile;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A firm's counters show what it holds after every publish, also when a value goes back to one published before. */
class FirmCountersTest {
    private static final long ACME = ShortTextLongConverter.INSTANCE.parse("ACME");
    private static final long[] SYMBOLS = {ShortTextLongConverter.INSTANCE.parse("AAA"), ShortTextLongConverter.INSTANCE.parse("BBB")};

    @TempDir
    Path root;

    @Test
    void publishingShowsTheFirmsStateEachTime() {
        final FirmLimitsConfig limits = new FirmLimitsConfig();
        limits.value(FirmLimit.MAX_OPEN_ORDERS, 10);
        final FirmRisk risk = new FirmRisk(new RiskConfig().defaults(limits), SYMBOLS.length);
        final FirmExposure firm = risk.exposureOf(ACME);
        try (CountersFile file = CountersFile.create(root, "engine")) {
            final FirmCounters counters = new FirmCounters(file, ACME, SYMBOLS);
            counters.publish(firm);
            assertEquals(Map.of("open_orders", 0L, "buy", 0L, "AAA", 0L, "maxOpenOrders", 10L, "maxPosition",
                    FirmCounters.NO_LIMIT), read("maxOpenOrders", "maxPosition"));

            risk.onNewOrder(firm, 0, Side.BUY, 2, 1, 7 * Price.SCALE, 1); // 3 at 7: 2 filled at once, 1 rests
            counters.publish(firm);
            assertEquals(Map.of("open_orders", 1L, "buy", 7L, "AAA", 2L, "maxOpenOrders", 10L, "maxPosition",
                    FirmCounters.NO_LIMIT), read("maxOpenOrders", "maxPosition"));

            risk.onClosed(firm.slot(), 0, Side.BUY, 1, 7 * Price.SCALE);
            risk.limit(firm, FirmLimit.MAX_POSITION, 5);
            risk.limit(firm, FirmLimit.MAX_OPEN_ORDERS, 10);
            counters.publish(firm);
            assertEquals(Map.of("open_orders", 0L, "buy", 0L, "AAA", 2L, "maxOpenOrders", 10L, "maxPosition", 5L),
                    read("maxOpenOrders", "maxPosition"));
        }
    }

    /** @return open orders, open buy notional, the position in AAA and the two limits' values, as the file holds them */
    private Map<String, Long> read(final String limit1, final String limit2) {
        return new CountersDirectory(root).read().getFirst().counters().stream()
                .filter(c -> switch (c.label().metric()) {
                    case FirmCounters.OPEN_ORDERS -> true;
                    case FirmCounters.OPEN_NOTIONAL -> "buy".equals(c.label().labels().get("side"));
                    case FirmCounters.POSITION -> "AAA".equals(c.label().labels().get("instrument"));
                    case FirmCounters.LIMIT -> limit1.equals(c.label().labels().get("limit"))
                            || limit2.equals(c.label().labels().get("limit"));
                    default -> false;
                })
                .collect(Collectors.toMap(c -> switch (c.label().metric()) {
                    case FirmCounters.OPEN_ORDERS -> "open_orders";
                    case FirmCounters.OPEN_NOTIONAL -> "buy";
                    case FirmCounters.POSITION -> "AAA";
                    default -> c.label().labels().get("limit");
                }, CountersDirectory.Counter::value));
    }
}
