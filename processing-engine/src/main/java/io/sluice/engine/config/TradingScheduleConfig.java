package io.sluice.engine.config;

import net.openhft.chronicle.wire.SelfDescribingMarshallable;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static io.sluice.engine.config.InstrumentConfig.require;

/**
 * The engine config's {@code tradingSchedule} section: when each instrument's trading session opens and closes. It also
 * says in which time zone, on which days of the week, and the holidays with no session. It only says when; the engine
 * never
 * reads a clock: the engine process's {@link io.sluice.engine.schedule.TradingScheduler} writes OPEN_TRADING and
 * CLOSE_TRADING admin commands into the admin journal at each boundary, and the engine acts on those. Example:
 * <pre>
 *   tradingSchedule: {
 *     timeZone: Europe/London,              # a region id (java.time.ZoneId), so summer time is followed
 *     open: "08:00",                        # HH:MM or HH:MM:SS, local time, inclusive
 *     close: "16:30",                       # exclusive; before open means the next day (a session past midnight)
 *     tradingDays: [ MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY ],   # the default
 *     holidays: [ 2026-12-25, 2026-12-28 ], # no session on these dates (the date the session opens)
 *     instruments: [                        # per-instrument overrides: each field given replaces the one above
 *       { symbol: AZN.L, open: "09:00", close: "17:00" }
 *     ]
 *   }
 * </pre>
 * Without {@code open} and {@code close} at the top, every instrument needs an override that gives them.
 */
public final class TradingScheduleConfig extends SelfDescribingMarshallable {
    /** Monday to Friday: the trading days when none are configured. */
    public static final Set<DayOfWeek> WEEKDAYS = EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY);

    private String timeZone;
    private String open;
    private String close;
    private List<String> tradingDays;
    private List<String> holidays;
    private List<InstrumentSessionConfig> instruments = new ArrayList<>();

    /**
     * Checks every field and that each of {@code symbols} (the configured instruments) has a session.
     *
     * @throws IllegalArgumentException naming the field, what it holds and what is expected
     */
    public void validate(final Set<Long> symbols) {
        sessionOf("tradingSchedule", timeZone, open, close, tradingDays, holidays);
        final Set<Long> overridden = new HashSet<>();
        for (final InstrumentSessionConfig instrument : instruments) {
            final String name = "tradingSchedule.instruments[" + ShortTextLongConverter.INSTANCE.asString(instrument.symbol()) + "]";
            require(instrument.symbol() != 0, "tradingSchedule.instruments: an entry has no symbol");
            require(symbols.contains(instrument.symbol()), name + ": no such instrument in the config's instruments");
            require(overridden.add(instrument.symbol()), name + ": the instrument has two entries");
            session(instrument.symbol());
        }
        if (open == null) {
            for (final long symbol : symbols) {
                require(overridden.contains(symbol), "instrument " + ShortTextLongConverter.INSTANCE.asString(symbol)
                        + " has no trading session: give tradingSchedule.open and close for all, or an entry for it"
                        + " in tradingSchedule.instruments");
            }
        }
    }

    /**
     * @return the session of {@code symbol}: its override's fields where given, the section's otherwise
     * @throws IllegalArgumentException if the result is incomplete or invalid (see {@link #validate})
     */
    public Session session(final long symbol) {
        for (final InstrumentSessionConfig instrument : instruments) {
            if (instrument.symbol() == symbol) {
                return sessionOf("tradingSchedule.instruments[" + ShortTextLongConverter.INSTANCE.asString(symbol) + "]",
                        or(instrument.timeZone(), timeZone), or(instrument.open(), open), or(instrument.close(), close),
                        or(instrument.tradingDays(), tradingDays), or(instrument.holidays(), holidays));
            }
        }
        require(open != null, "instrument " + ShortTextLongConverter.INSTANCE.asString(symbol) + " has no trading session");
        return sessionOf("tradingSchedule", timeZone, open, close, tradingDays, holidays);
    }

    /** @return true if some instrument has a session of its own ({@code instruments} is not empty) */
    public boolean hasOverrides() {
        return !instruments.isEmpty();
    }

    private static <T> T or(final T given, final T inherited) {
        return given != null ? given : inherited;
    }

    /** @return the session the fields describe; null if {@code open} and {@code close} are both absent */
    private static Session sessionOf(final String name, final String timeZone, final String open, final String close,
                                     final List<String> tradingDays, final List<String> holidays) {
        final ZoneId zone = timeZone == null ? null : zone(name, timeZone);
        final Set<DayOfWeek> days = days(name, tradingDays);
        final Set<LocalDate> dates = dates(name, holidays);
        require((open == null) == (close == null), name + ": give both open and close, or neither (got "
                + (open == null ? "only close" : "only open") + ")");
        if (open == null) {
            return null;
        }
        require(zone != null, name + ".timeZone is missing: give a region such as Europe/London or America/New_York");
        final LocalTime opens = time(name + ".open", open);
        final LocalTime closes = time(name + ".close", close);
        require(!opens.equals(closes), name + ": open and close are both " + opens
                + "; a session needs a length (for trading round the clock leave tradingSchedule out)");
        return new Session(zone, opens, closes, days, dates);
    }

    private static ZoneId zone(final String name, final String timeZone) {
        try {
            return ZoneId.of(timeZone);
        } catch (final DateTimeException e) {
            throw new IllegalArgumentException(name + ".timeZone '" + timeZone + "' is not a time zone: give a region"
                    + " such as Europe/London or America/New_York (it follows summer time), or UTC", e);
        }
    }

    private static LocalTime time(final String name, final String text) {
        try {
            final LocalTime time = LocalTime.parse(text);
            require(time.getNano() == 0, name + " '" + text + "' has a fraction of a second: write HH:MM or HH:MM:SS");
            return time;
        } catch (final DateTimeException e) {
            throw new IllegalArgumentException(name + " '" + text + "' is not a time of day: write HH:MM or HH:MM:SS,"
                    + " 24-hour, in quotes (\"16:30\")", e);
        }
    }

    private static Set<DayOfWeek> days(final String name, final List<String> tradingDays) {
        if (tradingDays == null) {
            return WEEKDAYS;
        }
        final Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (final String day : tradingDays) {
            final DayOfWeek parsed;
            try {
                parsed = DayOfWeek.valueOf(String.valueOf(day).trim().toUpperCase(Locale.ROOT));
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException(name + ".tradingDays: '" + day + "' is not a day of the week:"
                        + " write MONDAY, TUESDAY, ... SUNDAY", e);
            }
            require(days.add(parsed), name + ".tradingDays lists " + parsed + " twice");
        }
        require(!days.isEmpty(), name + ".tradingDays is empty: no session would ever open (leave it out for Monday to Friday)");
        return days;
    }

    private static Set<LocalDate> dates(final String name, final List<String> holidays) {
        final Set<LocalDate> dates = new HashSet<>();
        if (holidays == null) {
            return dates;
        }
        for (final String holiday : holidays) {
            final LocalDate parsed;
            try {
                parsed = LocalDate.parse(String.valueOf(holiday).trim());
            } catch (final DateTimeException e) {
                throw new IllegalArgumentException(name + ".holidays: '" + holiday + "' is not a date: write YYYY-MM-DD", e);
            }
            require(dates.add(parsed), name + ".holidays lists " + parsed + " twice");
        }
        return dates;
    }

    public TradingScheduleConfig timeZone(final String timeZone) {
        this.timeZone = timeZone;
        return this;
    }

    /** Sets the session of every instrument without an override: local times, HH:MM or HH:MM:SS. */
    public TradingScheduleConfig hours(final String open, final String close) {
        this.open = open;
        this.close = close;
        return this;
    }

    public TradingScheduleConfig tradingDays(final String... days) {
        this.tradingDays = new ArrayList<>(List.of(days));
        return this;
    }

    public TradingScheduleConfig holidays(final String... dates) {
        this.holidays = new ArrayList<>(List.of(dates));
        return this;
    }

    public TradingScheduleConfig addInstrument(final InstrumentSessionConfig instrument) {
        instruments.add(instrument);
        return this;
    }

    /**
     * One instrument's trading session, resolved. Open and close in local time of {@code zone} (close before open: the
     * next day), the trading days of the week and the holidays.
     */
    public record Session(ZoneId zone, LocalTime open, LocalTime close, Set<DayOfWeek> tradingDays, Set<LocalDate> holidays) {
    }
}
