package io.sluice.engine.config;

import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.Price;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.counters.CountersFile;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine's YAML config reads as documented and refuses nonsense with a message saying what is wrong. */
final class EngineConfigTest {
    @Test
    void theExampleConfigReadsAsDocumented() throws Exception {
        final EngineConfig config = EngineConfig.load(Path.of(getClass().getResource("/engine-example.yaml").toURI()));
        assertEquals(Path.of("data"), config.journalRoot());
        assertArrayEquals(new int[]{1, 2}, config.gatewayIds());
        assertEquals(new IdleConfig(), config.idle(), "the example spells out the default idle strategy");
        assertEquals(-1, config.pinCpu());
        final InstrumentConfig vod = config.instruments().get(0);
        assertEquals(ShortTextLongConverter.INSTANCE.parse("VOD.L"), vod.symbol());
        assertEquals(Price.SCALE / 100, vod.tickSize());
        assertEquals(Price.of(150), vod.priceHigh());
        assertEquals(Price.of(50_000_000), vod.maxNotional());
        assertEquals(3, config.instruments().size());
    }

    @Test
    void theIdleStrategyIsNamedByAgronasAliasWithItsParameters() {
        final EngineConfig config = EngineConfig.parse("""
                !EngineConfig {
                  idle: { strategy: sleep-ns, sleepPeriodNs: 5000 },
                  instruments: [ { symbol: VOD.L, tickSize: 0.01, lotSize: 1, priceLow: 50, priceHigh: 150, maxOrderQty: 100, maxNotional: 100000 } ]
                }
                """, "test.yaml");
        assertEquals("sleep-ns (5000 ns)", config.idle().describe());
        assertEquals("sleep-ns", config.idle().newStrategy().alias());
        assertEquals(IdleConfig.of("yield"), EngineConfig.parse("""
                !EngineConfig {
                  idle: yield,
                  instruments: [ { symbol: VOD.L, tickSize: 0.01, lotSize: 1, priceLow: 50, priceHigh: 150, maxOrderQty: 100, maxNotional: 100000 } ]
                }
                """, "test.yaml").idle(), "the short form: the alias alone, with default parameters");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineConfig.parse("""
                !EngineConfig {
                  idle: { strategy: BACK_OFF },
                  instruments: [ { symbol: VOD.L, tickSize: 0.01, lotSize: 1, priceLow: 50, priceHigh: 150, maxOrderQty: 100, maxNotional: 100000 } ]
                }
                """, "test.yaml"));
        assertTrue(e.getMessage().contains("test.yaml") && e.getMessage().contains("noop, spin, yield, sleep-ns, sleep-ms, backoff"),
                e.getMessage());
    }

    @Test
    void anOverflowingRiskLimitIsRefusedNamingTheInstrument() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineConfig.parse("""
                !EngineConfig {
                  instruments: [ { symbol: BIG, tickSize: 1, priceLow: 1, priceHigh: 1000000000, maxOrderQty: 1000000000, maxNotional: 1 } ]
                }
                """, "test.yaml"));
        assertTrue(e.getMessage().contains("test.yaml") && e.getMessage().contains("instrument BIG")
                && e.getMessage().contains("overflows"), e.getMessage());
    }

    @Test
    void aPriceBandOffTheTickGridIsRefused() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineConfig.parse("""
                !EngineConfig {
                  instruments: [ { symbol: X, tickSize: 0.05, priceLow: 1.01, priceHigh: 2, maxOrderQty: 10, maxNotional: 100 } ]
                }
                """, "test.yaml"));
        assertTrue(e.getMessage().contains("tick grid"), e.getMessage());
    }

    @Test
    void aPinCpuBelowMinusOneIsRefused() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineConfig.parse("""
                !EngineConfig {
                  pinCpu: -2,
                  instruments: [ { symbol: X, tickSize: 0.01, priceLow: 1, priceHigh: 2, maxOrderQty: 10, maxNotional: 100 } ]
                }
                """, "test.yaml"));
        assertTrue(e.getMessage().contains("pinCpu"), e.getMessage());
    }

    @Test
    void noInstrumentsIsRefused() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineConfig.parse("!EngineConfig { gatewayIds: [ 1 ] }", "empty.yaml"));
        assertTrue(e.getMessage().contains("no instruments"), e.getMessage());
    }

    @Test
    void firmLimitsReadAsWrittenNotionalsAsFixedPointAndLimitsLeftOutAsNone() {
        final RiskConfig risk = EngineConfig.parse(risky(
                "{ firm: ACME, maxOpenOrders: 5, maxOpenNotional: 1000.5, priceCollar: 250 }"), "test.yaml").risk();
        final FirmLimitsConfig acme = risk.firms().getFirst();
        assertEquals(5, acme.value(FirmLimit.MAX_OPEN_ORDERS));
        assertEquals(100_050_000_000L, acme.value(FirmLimit.MAX_OPEN_NOTIONAL));
        assertEquals(250, acme.value(FirmLimit.PRICE_COLLAR));
        assertEquals(FirmLimit.NONE, acme.value(FirmLimit.MAX_POSITION));
        assertEquals(FirmLimit.NONE, risk.defaults().value(FirmLimit.MAX_OPEN_ORDERS));
    }

    @Test
    void aNegativeFirmLimitIsRefusedNamingTheFirmAndTheLimit() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineConfig.parse(
                risky("{ firm: ACME, maxPosition: -1 }"), "test.yaml"));
        assertTrue(e.getMessage().contains("risk firm ACME: maxPosition must be between 0 and"), e.getMessage());
    }

    @Test
    void anAbsurdFirmLimitIsRefused() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineConfig.parse(
                risky("{ firm: ACME, priceCollar: 10001 }"), "test.yaml"));
        assertTrue(e.getMessage().contains("priceCollar must be between 0 and 10000"), e.getMessage());
    }

    @Test
    void aFirmListedTwiceIsRefused() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineConfig.parse(
                risky("{ firm: ACME }, { firm: ACME }"), "test.yaml"));
        assertTrue(e.getMessage().contains("a firm is listed twice"), e.getMessage());
    }

    @Test
    void firmLimitsRestartFromSnapshotsByDefault() {
        assertTrue(EngineConfig.parse(risky("{ firm: ACME, maxOpenOrders: 5 }"), "test.yaml").restartFromSnapshots());
    }

    @Test
    void theRiskCheckSeesEveryLimitOfEveryFirmAndNoRiskSectionIsZero() {
        final RiskConfig risk = EngineConfig.parse(risky("{ firm: ACME, maxOpenOrders: 5 }"), "test.yaml").risk();
        final long check = RiskConfig.checkOf(risk);
        assertEquals(RiskConfig.NO_RISK, RiskConfig.checkOf(null));
        assertEquals(check, RiskConfig.checkOf(EngineConfig.parse(risky("{ firm: ACME, maxOpenOrders: 5 }"), "test.yaml")
                .risk()));
        assertNotEquals(check, RiskConfig.checkOf(EngineConfig.parse(risky("{ firm: ACME, maxOpenOrders: 6 }"),
                "test.yaml").risk()));
        assertNotEquals(check, RiskConfig.checkOf(EngineConfig.parse(risky("{ firm: ACMF, maxOpenOrders: 5 }"),
                "test.yaml").risk()));
        assertNotEquals(check, RiskConfig.checkOf(risk.maxFirms(risk.maxFirms() + 1)));
    }

    @Test
    void theCountersFileHasRoomForEveryFirmRiskAllows() {
        final EngineConfig config = EngineConfig.parse(risky("{ firm: ACME }"), "test.yaml");
        assertEquals(CountersFile.DEFAULT_COUNTERS + 256 * (6 + FirmLimit.values().length + 1), config.counterCapacity(),
                "risk.maxFirms 256 by default, one position per instrument");
        assertEquals(CountersFile.DEFAULT_COUNTERS, EngineConfig.parse("""
                !EngineConfig {
                  instruments: [ { symbol: X, tickSize: 0.01, priceLow: 1, priceHigh: 2, maxOrderQty: 10, maxNotional: 100 } ]
                }
                """, "test.yaml").counterCapacity(), "no risk section, no firm counters");
    }

    @Test
    void moreFirmsThanTheCountersFileHoldsAreRefusedUnlessCountersAreOff() {
        final String tooMany = """
                !EngineConfig {
                  counters: %s,
                  instruments: [ { symbol: X, tickSize: 0.01, priceLow: 1, priceHigh: 2, maxOrderQty: 10, maxNotional: 100 } ],
                  risk: { maxFirms: 65536 }
                }
                """;
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineConfig.parse(tooMany.formatted(true), "test.yaml"));
        assertTrue(e.getMessage().contains("risk.maxFirms 65536 needs 917504 firm counters (14 per firm with 1 "
                + "instruments), more than the engine's counters file has room for (258048): lower risk.maxFirms, or "
                + "set counters: false"), e.getMessage());
        assertEquals(65536, EngineConfig.parse(tooMany.formatted(false), "test.yaml").risk().maxFirms());
    }

    private static String risky(final String firms) {
        return """
                !EngineConfig {
                  instruments: [ { symbol: X, tickSize: 0.01, priceLow: 1, priceHigh: 2, maxOrderQty: 10, maxNotional: 100 } ],
                  risk: { firms: [ %s ] }
                }
                """.formatted(firms);
    }
}
