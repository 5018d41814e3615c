package io.sluice.engine.config;

import io.sluice.engine.config.TradingScheduleConfig.Session;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine config's tradingSchedule section reads as documented and refuses nonsense saying what is wrong. */
final class TradingScheduleConfigTest {
    private static final long VOD = ShortTextLongConverter.INSTANCE.parse("VOD.L");
    private static final long AZN = ShortTextLongConverter.INSTANCE.parse("AZN.L");

    private static EngineConfig parse(final String schedule) {
        return EngineConfig.parse("""
                !EngineConfig {
                  instruments: [
                    { symbol: VOD.L, tickSize: 0.01, lotSize: 1, priceLow: 50, priceHigh: 150, maxOrderQty: 100, maxNotional: 100000 },
                    { symbol: AZN.L, tickSize: 0.5, lotSize: 1, priceLow: 5000, priceHigh: 15000, maxOrderQty: 100, maxNotional: 10000000 }
                  ],
                  tradingSchedule: %s
                }
                """.formatted(schedule), "test.yaml");
    }

    private static String refusal(final String schedule) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(schedule));
        assertTrue(e.getMessage().startsWith("engine config test.yaml: "), e.getMessage());
        return e.getMessage();
    }

    @Test
    void aScheduleForAllWithHolidaysAndAnOverrideReadsAsWritten() {
        final TradingScheduleConfig schedule = parse("""
                {
                    timeZone: Europe/London, open: "08:00", close: "16:30",
                    holidays: [ 2026-12-25, 2026-12-28 ],
                    instruments: [ { symbol: AZN.L, open: "09:00:30", close: "17:00", tradingDays: [ MONDAY, saturday ] } ]
                  }""").tradingSchedule();
        assertEquals(new Session(ZoneId.of("Europe/London"), LocalTime.of(8, 0), LocalTime.of(16, 30),
                EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY),
                Set.of(LocalDate.of(2026, 12, 25), LocalDate.of(2026, 12, 28))), schedule.session(VOD));
        assertEquals(new Session(ZoneId.of("Europe/London"), LocalTime.of(9, 0, 30), LocalTime.of(17, 0),
                EnumSet.of(DayOfWeek.MONDAY, DayOfWeek.SATURDAY),
                Set.of(LocalDate.of(2026, 12, 25), LocalDate.of(2026, 12, 28))), schedule.session(AZN),
                "the override's fields replace the section's; the others are inherited");
        assertTrue(schedule.hasOverrides());
    }

    @Test
    void theExampleConfigsCommentedScheduleIsValidWhenUncommented() throws Exception {
        final String example = Files.readString(Path.of(getClass().getResource("/engine-example.yaml").toURI()));
        assertNull(EngineConfig.parse(example, "engine-example.yaml").tradingSchedule(), "commented out");
        final int start = example.indexOf("  # tradingSchedule: {");
        final int end = example.indexOf("  # },\n", start) + "  # },\n".length();
        assertTrue(start > 0 && end > start, "the example has a commented tradingSchedule block");
        final String uncommented = example.substring(0, start)
                + example.substring(start, end).replace("  # ", "  ") + example.substring(end);
        final TradingScheduleConfig schedule = EngineConfig.parse(uncommented, "engine-example.yaml").tradingSchedule();
        assertEquals(LocalTime.of(16, 30), schedule.session(VOD).close());
        assertEquals(LocalTime.of(17, 0), schedule.session(AZN).close());
        assertTrue(schedule.session(VOD).holidays().contains(LocalDate.of(2027, 1, 1)));
    }

    @Test
    void aConfigWrittenAsYamlReadsBackTheSame() {
        final EngineConfig config = parse("""
                {
                    timeZone: UTC, open: "22:00:30", close: "06:00", tradingDays: [ SUNDAY, MONDAY ], holidays: [ 2027-01-01 ],
                    instruments: [ { symbol: AZN.L, timeZone: Asia/Tokyo, open: "09:00", close: "15:00" } ]
                  }""");
        final EngineConfig reread = EngineConfig.parse(config.toString(), "toString");
        assertEquals(config, reread);
        assertEquals(config.tradingSchedule().session(AZN), reread.tradingSchedule().session(AZN));
        assertEquals(config.tradingSchedule().session(VOD), reread.tradingSchedule().session(VOD));
    }

    @Test
    void noSectionMeansNoSchedule() {
        assertNull(EngineConfig.parse("""
                !EngineConfig {
                  instruments: [ { symbol: VOD.L, tickSize: 0.01, lotSize: 1, priceLow: 50, priceHigh: 150, maxOrderQty: 100, maxNotional: 100000 } ]
                }
                """, "test.yaml").tradingSchedule());
    }

    @Test
    void overridesAloneMustCoverEveryInstrument() {
        final TradingScheduleConfig both = parse("""
                { instruments: [ { symbol: VOD.L, timeZone: Europe/London, open: "08:00", close: "16:30" },
                                 { symbol: AZN.L, timeZone: America/New_York, open: "09:30", close: "16:00" } ] }""")
                .tradingSchedule();
        assertEquals(ZoneId.of("America/New_York"), both.session(AZN).zone());
        assertEquals("engine config test.yaml: instrument AZN.L has no trading session: give tradingSchedule.open and close"
                        + " for all, or an entry for it in tradingSchedule.instruments",
                refusal("{ instruments: [ { symbol: VOD.L, timeZone: Europe/London, open: \"08:00\", close: \"16:30\" } ] }"));
    }

    @Test
    void badValuesAreRefusedNamingTheFieldAndWhatIsExpected() {
        assertTrue(refusal("{ timeZone: Europe/Londres, open: \"08:00\", close: \"16:30\" }")
                .contains("tradingSchedule.timeZone 'Europe/Londres' is not a time zone: give a region such as Europe/London"));
        assertTrue(refusal("{ open: \"08:00\", close: \"16:30\" }")
                .contains("tradingSchedule.timeZone is missing"));
        assertTrue(refusal("{ timeZone: UTC, open: 8am, close: \"16:30\" }")
                .contains("tradingSchedule.open '8am' is not a time of day: write HH:MM or HH:MM:SS"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\", close: \"16:30:00.5\" }")
                .contains("tradingSchedule.close '16:30:00.5' has a fraction of a second"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\" }")
                .contains("tradingSchedule: give both open and close, or neither (got only open)"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\", close: \"08:00\" }")
                .contains("tradingSchedule: open and close are both 08:00; a session needs a length"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\", close: \"16:30\", tradingDays: [ MON ] }")
                .contains("tradingSchedule.tradingDays: 'MON' is not a day of the week: write MONDAY, TUESDAY, ... SUNDAY"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\", close: \"16:30\", tradingDays: [ ] }")
                .contains("tradingSchedule.tradingDays is empty: no session would ever open"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\", close: \"16:30\", holidays: [ 25/12/2026 ] }")
                .contains("tradingSchedule.holidays: '25/12/2026' is not a date: write YYYY-MM-DD"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\", close: \"16:30\", holidays: [ 2026-12-25, 2026-12-25 ] }")
                .contains("tradingSchedule.holidays lists 2026-12-25 twice"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\", close: \"16:30\", instruments: [ "
                + "{ symbol: BARC.L, open: \"09:00\", close: \"10:00\" } ] }")
                .contains("tradingSchedule.instruments[BARC.L]: no such instrument in the config's instruments"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\", close: \"16:30\", instruments: [ "
                + "{ symbol: VOD.L, close: \"10:00\" }, { symbol: VOD.L, close: \"11:00\" } ] }")
                .contains("tradingSchedule.instruments[VOD.L]: the instrument has two entries"));
        assertTrue(refusal("{ timeZone: UTC, open: \"08:00\", close: \"16:30\", instruments: [ { symbol: VOD.L, timeZone: Mars/Olympus } ] }")
                .contains("tradingSchedule.instruments[VOD.L].timeZone 'Mars/Olympus' is not a time zone"));
    }
}
