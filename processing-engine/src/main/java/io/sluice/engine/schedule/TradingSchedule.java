package io.sluice.engine.schedule;

import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.config.TradingScheduleConfig;
import io.sluice.engine.config.TradingScheduleConfig.Session;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * The configured trading sessions as a pure function of time. Given an instant: which instruments should be open, and
 * the next instant after it at which that changes. No clock is read here; the {@link TradingScheduler} asks with the
 * time it read.
 * <p>
 * A session belongs to the local date it opens on (in its time zone): it exists on the configured trading days that are
 * not holidays, opens at {@code open} local time (inclusive) and closes at {@code close} (exclusive) the same day, or
 * the next day when {@code close} is before {@code open} (a session past midnight; its date is the day it opened).
 * Local times follow the zone's summer time: a 16:30 close in Europe/London is 16:30 GMT in winter and 16:30 BST in
 * summer. A local time that a clock change skips (in the gap) happens as late as the gap is long (01:30 on the day
 * London skips from 01:00 to 02:00 is 02:30 BST); one it repeats (in the overlap) happens the first time.
 */
public final class TradingSchedule {
    private final long[] symbols;
    private final Session[] sessions;
    private final boolean sharedByAll;

    private TradingSchedule(final long[] symbols, final Session[] sessions, final boolean sharedByAll) {
        this.symbols = symbols;
        this.sessions = sessions;
        this.sharedByAll = sharedByAll;
    }

    /** @return the schedule of {@code instruments} (in config order) under {@code config}, validated by EngineConfig */
    public static TradingSchedule of(final TradingScheduleConfig config, final List<InstrumentConfig> instruments) {
        final long[] symbols = new long[instruments.size()];
        final Session[] sessions = new Session[instruments.size()];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = instruments.get(i).symbol();
            sessions[i] = config.session(symbols[i]);
        }
        return new TradingSchedule(symbols, sessions, !config.hasOverrides());
    }

    /** @return how many instruments the schedule covers */
    public int instrumentCount() {
        return symbols.length;
    }

    /** @return the symbol of instrument {@code index}, in config order */
    public long symbol(final int index) {
        return symbols[index];
    }

    /** @return true if no instrument has a session of its own: one session opens and closes them all */
    public boolean sharedByAll() {
        return sharedByAll;
    }

    /** @return true if instrument {@code index}'s session is open at {@code time} */
    public boolean isOpen(final int index, final Instant time) {
        return isOpen(sessions[index], time);
    }

    /**
     * @return the first instant strictly after {@code time} at which some instrument opens or closes, or null if none
     * ever does again
     */
    public Instant nextBoundaryAfter(final Instant time) {
        Instant next = null;
        for (final Session session : sessions) {
            final Instant boundary = nextBoundaryAfter(session, time);
            if (boundary != null && (next == null || boundary.isBefore(next))) {
                next = boundary;
            }
        }
        return next;
    }

    private static boolean isOpen(final Session session, final Instant time) {
        final LocalDate today = LocalDate.ofInstant(time, session.zone());
        // Sessions last under a day: only one opened yesterday (past midnight) or today can hold this instant.
        for (LocalDate day = today.minusDays(1); !day.isAfter(today); day = day.plusDays(1)) {
            if (tradesOn(session, day) && !time.isBefore(opening(session, day)) && time.isBefore(closing(session, day))) {
                return true;
            }
        }
        return false;
    }

    private static Instant nextBoundaryAfter(final Session session, final Instant time) {
        final LocalDate today = LocalDate.ofInstant(time, session.zone());
        // Every holiday could stand between now and the next trading day, and a week holds every trading day.
        final LocalDate last = today.plusDays(session.holidays().size() + 8L);
        for (LocalDate day = today.minusDays(1); !day.isAfter(last); day = day.plusDays(1)) {
            if (!tradesOn(session, day)) {
                continue;
            }
            final Instant opening = opening(session, day);
            if (opening.isAfter(time)) {
                return opening;
            }
            final Instant closing = closing(session, day);
            if (closing.isAfter(time)) {
                return closing;
            }
        }
        return null;
    }

    private static boolean tradesOn(final Session session, final LocalDate day) {
        return session.tradingDays().contains(day.getDayOfWeek()) && !session.holidays().contains(day);
    }

    private static Instant opening(final Session session, final LocalDate day) {
        return ZonedDateTime.of(day, session.open(), session.zone()).toInstant();
    }

    private static Instant closing(final Session session, final LocalDate day) {
        final LocalDate closeDay = session.close().isAfter(session.open()) ? day : day.plusDays(1);
        return ZonedDateTime.of(closeDay, session.close(), session.zone()).toInstant();
    }
}
