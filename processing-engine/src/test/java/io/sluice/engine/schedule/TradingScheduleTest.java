package io.sluice.engine.schedule;

import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.config.InstrumentSessionConfig;
import io.sluice.engine.config.TradingScheduleConfig;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which instruments are open at an instant, and when that next changes: summer time in the zone, weekends, holidays,
 * per-instrument sessions, sessions past midnight. Instants are written in UTC, the sessions in local time.
 */
final class TradingScheduleTest {
    private static final String[] EVERY_DAY = {"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"};

    private static long symbol(final String text) {
        return ShortTextLongConverter.INSTANCE.parse(text);
    }

    private static TradingSchedule schedule(final TradingScheduleConfig config, final String... symbols) {
        final List<InstrumentConfig> instruments = Arrays.stream(symbols)
                .map(s -> new InstrumentConfig().symbol(symbol(s))).toList();
        config.validate(instruments.stream().map(InstrumentConfig::symbol).collect(Collectors.toSet()));
        return TradingSchedule.of(config, instruments);
    }

    private static TradingSchedule london(final String open, final String close) {
        return schedule(new TradingScheduleConfig().timeZone("Europe/London").hours(open, close), "VOD.L");
    }

    private static Instant at(final String utc) {
        return Instant.parse(utc);
    }

    @Test
    void openIsInclusiveAndCloseExclusive() {
        final TradingSchedule schedule = london("08:00", "16:30");
        assertFalse(schedule.isOpen(0, at("2026-11-26T07:59:59.999Z")));
        assertTrue(schedule.isOpen(0, at("2026-11-26T08:00:00Z")));
        assertTrue(schedule.isOpen(0, at("2026-11-26T16:29:59.999Z")));
        assertFalse(schedule.isOpen(0, at("2026-11-26T16:30:00Z")));
        assertEquals(at("2026-11-26T08:00:00Z"), schedule.nextBoundaryAfter(at("2026-11-26T07:59:59.999Z")));
        assertEquals(at("2026-11-26T16:30:00Z"), schedule.nextBoundaryAfter(at("2026-11-26T08:00:00Z")), "strictly after");
        assertEquals(at("2026-11-27T08:00:00Z"), schedule.nextBoundaryAfter(at("2026-11-26T16:30:00Z")));
        assertTrue(schedule.sharedByAll());
    }

    @Test
    void localTimesFollowSummerTimeAcrossTheWeekendTheClocksChange() {
        final TradingSchedule schedule = london("08:00", "16:30");
        // Friday 27 March 2026 is in GMT; London's clocks go forward at 01:00 on Sunday the 29th; Monday is in BST.
        assertEquals(at("2026-03-27T16:30:00Z"), schedule.nextBoundaryAfter(at("2026-03-27T12:00:00Z")));
        assertEquals(at("2026-03-30T07:00:00Z"), schedule.nextBoundaryAfter(at("2026-03-27T16:30:00Z")),
                "the weekend is skipped, and Monday opens at 08:00 BST");
        assertTrue(schedule.isOpen(0, at("2026-03-30T07:00:00Z")));
        assertFalse(schedule.isOpen(0, at("2026-03-30T15:30:00Z")), "closes at 16:30 BST");
        // And back: the clocks go back at 02:00 BST on Sunday 25 October 2026.
        assertEquals(at("2026-10-23T15:30:00Z"), schedule.nextBoundaryAfter(at("2026-10-23T12:00:00Z")));
        assertEquals(at("2026-10-26T08:00:00Z"), schedule.nextBoundaryAfter(at("2026-10-23T15:30:00Z")));

        final TradingSchedule newYork = schedule(new TradingScheduleConfig().timeZone("America/New_York")
                .hours("09:30", "16:00"), "IBM");
        assertEquals(at("2026-03-06T14:30:00Z"), newYork.nextBoundaryAfter(at("2026-03-06T12:00:00Z")), "EST");
        assertEquals(at("2026-03-09T13:30:00Z"), newYork.nextBoundaryAfter(at("2026-03-06T21:00:00Z")), "EDT from 8 March");
    }

    @Test
    void aTimeTheClocksSkipHappensAsLateAsTheGapIsLongAndARepeatedOneTheFirstTime() {
        final TradingSchedule spring = schedule(new TradingScheduleConfig().timeZone("Europe/London")
                .hours("01:30", "03:00").tradingDays("SUNDAY"), "VOD.L");
        // 29 March 2026: 01:00 GMT becomes 02:00 BST, so 01:30 never happens: the session opens at 02:30 BST.
        assertEquals(at("2026-03-29T01:30:00Z"), spring.nextBoundaryAfter(at("2026-03-29T00:00:00Z")));
        assertFalse(spring.isOpen(0, at("2026-03-29T01:29:59Z")));
        assertEquals(at("2026-03-29T02:00:00Z"), spring.nextBoundaryAfter(at("2026-03-29T01:30:00Z")), "03:00 BST");

        final TradingSchedule autumn = schedule(new TradingScheduleConfig().timeZone("Europe/London")
                .hours("01:30", "03:00").tradingDays("SUNDAY"), "VOD.L");
        // 25 October 2026: 02:00 BST becomes 01:00 GMT, so 01:30 happens twice: the session opens at the first.
        assertEquals(at("2026-10-25T00:30:00Z"), autumn.nextBoundaryAfter(at("2026-10-24T23:00:00Z")));
        assertEquals(at("2026-10-25T03:00:00Z"), autumn.nextBoundaryAfter(at("2026-10-25T00:30:00Z")), "03:00 GMT");
        assertTrue(autumn.isOpen(0, at("2026-10-25T02:59:59Z")), "open two and a half hours that night (01:30 BST to 03:00 GMT)");
    }

    @Test
    void weekendsAndHolidaysHaveNoSession() {
        final TradingSchedule schedule = schedule(new TradingScheduleConfig().timeZone("Europe/London")
                .hours("08:00", "16:30").holidays("2026-12-25", "2026-12-28"), "VOD.L");
        assertFalse(schedule.isOpen(0, at("2026-11-28T12:00:00Z")), "Saturday");
        assertFalse(schedule.isOpen(0, at("2026-11-29T12:00:00Z")), "Sunday");
        assertFalse(schedule.isOpen(0, at("2026-12-25T12:00:00Z")), "a holiday");
        assertTrue(schedule.isOpen(0, at("2026-12-24T12:00:00Z")));
        assertEquals(at("2026-12-29T08:00:00Z"), schedule.nextBoundaryAfter(at("2026-12-24T16:30:00Z")),
                "Christmas Day, the weekend and the Monday holiday skipped");

        final TradingSchedule weekendsToo = schedule(new TradingScheduleConfig().timeZone("Europe/London")
                .hours("08:00", "16:30").tradingDays("SATURDAY"), "VOD.L");
        assertTrue(weekendsToo.isOpen(0, at("2026-11-28T12:00:00Z")));
        assertFalse(weekendsToo.isOpen(0, at("2026-11-27T12:00:00Z")), "only Saturdays");
        assertEquals(at("2026-12-05T08:00:00Z"), weekendsToo.nextBoundaryAfter(at("2026-11-28T16:30:00Z")));
    }

    @Test
    void anInstrumentWithASessionOfItsOwnOpensAndClosesApart() {
        final TradingSchedule schedule = schedule(new TradingScheduleConfig().timeZone("Europe/London").hours("08:00", "16:30")
                .addInstrument(new InstrumentSessionConfig().symbol(symbol("AZN.L")).hours("09:00", "17:00"))
                .addInstrument(new InstrumentSessionConfig().symbol(symbol("IBM")).timeZone("America/New_York")
                        .hours("09:30", "16:00").holidays("2026-11-26")), "VOD.L", "AZN.L", "IBM");
        assertFalse(schedule.sharedByAll());
        assertEquals(symbol("AZN.L"), schedule.symbol(1));
        final Instant morning = at("2026-11-27T08:30:00Z");
        assertTrue(schedule.isOpen(0, morning));
        assertFalse(schedule.isOpen(1, morning));
        assertFalse(schedule.isOpen(2, morning));
        assertEquals(at("2026-11-27T09:00:00Z"), schedule.nextBoundaryAfter(morning));
        assertEquals(at("2026-11-27T14:30:00Z"), schedule.nextBoundaryAfter(at("2026-11-27T09:00:00Z")), "IBM opens");
        assertEquals(at("2026-11-27T16:30:00Z"), schedule.nextBoundaryAfter(at("2026-11-27T14:30:00Z")), "VOD.L closes");
        assertEquals(at("2026-11-27T17:00:00Z"), schedule.nextBoundaryAfter(at("2026-11-27T16:30:00Z")), "AZN.L closes");
        assertEquals(at("2026-11-27T21:00:00Z"), schedule.nextBoundaryAfter(at("2026-11-27T17:00:00Z")), "IBM closes");
        assertFalse(schedule.isOpen(2, at("2026-11-26T15:00:00Z")), "Thanksgiving in New York only");
        assertTrue(schedule.isOpen(0, at("2026-11-26T15:00:00Z")));
    }

    @Test
    void aSessionPastMidnightBelongsToTheDayItOpens() {
        final TradingSchedule schedule = london("22:00", "06:00");
        assertTrue(schedule.isOpen(0, at("2026-11-26T22:00:00Z")), "Thursday night");
        assertTrue(schedule.isOpen(0, at("2026-11-27T05:59:59Z")));
        assertFalse(schedule.isOpen(0, at("2026-11-27T06:00:00Z")));
        assertTrue(schedule.isOpen(0, at("2026-11-28T03:00:00Z")), "Friday's session runs into Saturday");
        assertFalse(schedule.isOpen(0, at("2026-11-28T23:00:00Z")), "no session opens on Saturday");
        assertFalse(schedule.isOpen(0, at("2026-11-30T03:00:00Z")), "nor on Sunday");
        assertEquals(at("2026-11-28T06:00:00Z"), schedule.nextBoundaryAfter(at("2026-11-27T23:00:00Z")));
        assertEquals(at("2026-11-30T22:00:00Z"), schedule.nextBoundaryAfter(at("2026-11-28T06:00:00Z")));

        // Across the clock change: Saturday 28 March 2026 22:00 GMT to Sunday 06:00 BST is seven hours.
        final TradingSchedule everyNight = schedule(new TradingScheduleConfig().timeZone("Europe/London")
                .hours("22:00", "06:00").tradingDays(EVERY_DAY).holidays("2026-03-28"), "VOD.L");
        assertTrue(everyNight.isOpen(0, at("2026-03-28T03:00:00Z")), "Friday's session ends on the holiday morning");
        assertFalse(everyNight.isOpen(0, at("2026-03-28T23:00:00Z")), "none opens on the holiday");
        assertEquals(at("2026-03-29T21:00:00Z"), everyNight.nextBoundaryAfter(at("2026-03-28T06:00:00Z")), "22:00 BST");
        assertEquals(at("2026-03-30T05:00:00Z"), everyNight.nextBoundaryAfter(at("2026-03-29T21:00:00Z")), "06:00 BST");
        final TradingSchedule noHoliday = schedule(new TradingScheduleConfig().timeZone("Europe/London")
                .hours("22:00", "06:00").tradingDays(EVERY_DAY), "VOD.L");
        assertEquals(at("2026-03-28T22:00:00Z"), noHoliday.nextBoundaryAfter(at("2026-03-28T12:00:00Z")));
        assertEquals(at("2026-03-29T05:00:00Z"), noHoliday.nextBoundaryAfter(at("2026-03-28T22:00:00Z")));
    }
}
