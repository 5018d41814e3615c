package io.sluice.engine.config;

import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.util.ArrayList;
import java.util.List;

/**
 * One instrument's override in {@link TradingScheduleConfig}'s {@code instruments}. The instrument's symbol and any of
 * the section's fields, each replacing the section's value for this instrument (holidays and trading days too: the list
 * given is the instrument's whole list). Example: {@code { symbol: AZN.L, open: "09:00", close: "17:00" }}.
 */
public final class InstrumentSessionConfig extends SelfDescribingMarshallable {
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    private String timeZone;
    private String open;
    private String close;
    private List<String> tradingDays;
    private List<String> holidays;

    /** @return the instrument's symbol, packed by {@link ShortTextLongConverter}. */
    public long symbol() {
        return symbol;
    }

    public InstrumentSessionConfig symbol(final long symbol) {
        this.symbol = symbol;
        return this;
    }

    String timeZone() {
        return timeZone;
    }

    public InstrumentSessionConfig timeZone(final String timeZone) {
        this.timeZone = timeZone;
        return this;
    }

    String open() {
        return open;
    }

    String close() {
        return close;
    }

    /** Sets this instrument's session: local times, HH:MM or HH:MM:SS. */
    public InstrumentSessionConfig hours(final String open, final String close) {
        this.open = open;
        this.close = close;
        return this;
    }

    List<String> tradingDays() {
        return tradingDays;
    }

    public InstrumentSessionConfig tradingDays(final String... days) {
        this.tradingDays = new ArrayList<>(List.of(days));
        return this;
    }

    List<String> holidays() {
        return holidays;
    }

    public InstrumentSessionConfig holidays(final String... dates) {
        this.holidays = new ArrayList<>(List.of(dates));
        return this;
    }
}
