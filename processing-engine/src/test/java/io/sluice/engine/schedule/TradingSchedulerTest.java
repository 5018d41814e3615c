package io.sluice.engine.schedule;

import com.sun.management.ThreadMXBean;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.config.InstrumentSessionConfig;
import io.sluice.engine.config.TradingScheduleConfig;
import io.sluice.runtime.admin.AdminJournal;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The scheduler appends OPEN_TRADING / CLOSE_TRADING to a real admin journal as a test clock crosses the schedule's
 * boundaries, and catches up with one command (never a replayed day) when started mid-day or after a missed close.
 */
final class TradingSchedulerTest {
    private static final ShortTextLongConverter TEXT = ShortTextLongConverter.INSTANCE;

    @TempDir
    Path root;

    private final CachedEpochClock clock = new CachedEpochClock();

    private static TradingSchedule schedule(final TradingScheduleConfig config, final String... symbols) {
        final List<InstrumentConfig> instruments = Arrays.stream(symbols)
                .map(s -> new InstrumentConfig().symbol(TEXT.parse(s))).toList();
        config.validate(instruments.stream().map(InstrumentConfig::symbol).collect(Collectors.toSet()));
        return TradingSchedule.of(config, instruments);
    }

    private static TradingSchedule londonDay() {
        return schedule(new TradingScheduleConfig().timeZone("Europe/London").hours("08:00", "16:30"), "VOD.L", "AZN.L");
    }

    private TradingScheduler scheduler(final TradingSchedule schedule) {
        return new TradingScheduler(schedule, AdminJournal.open(root, SystemNanoClock.INSTANCE), clock);
    }

    /** Sets the test clock to {@code utc} and gives the scheduler one turn; @return how many commands it appended */
    private int turnAt(final TradingScheduler scheduler, final String utc) {
        clock.update(Instant.parse(utc).toEpochMilli());
        return scheduler.doWork();
    }

    /** @return every command of the admin journal as "eventId action symbol user reason" */
    private List<String> adminJournal() {
        final List<String> commands = new ArrayList<>();
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.adminJournal(root))) {
            final MethodReader reader = queue.createTailer().methodReader((AdminCommands) c -> commands.add(
                    c.metaData().eventId() + " " + c.action() + " " + (c.symbol() == 0 ? "all" : TEXT.asString(c.symbol()))
                            + " " + TEXT.asString(c.user()) + " " + TEXT.asString(c.reason())));
            while (reader.readOne()) {
                // collecting
            }
        }
        return commands;
    }

    @Test
    void aDayOfOneSessionForAllOpensAndClosesEveryInstrumentAtOnce() {
        final TradingScheduler scheduler = scheduler(londonDay());
        assertEquals(1, turnAt(scheduler, "2026-11-26T07:00:00Z"), "at start: the state of now");
        assertEquals(Instant.parse("2026-11-26T08:00:00Z").toEpochMilli(), scheduler.nextCheckMillis());
        assertEquals(0, turnAt(scheduler, "2026-11-26T07:59:59.999Z"));
        assertEquals(1, turnAt(scheduler, "2026-11-26T08:00:00Z"));
        assertEquals(0, turnAt(scheduler, "2026-11-26T12:00:00Z"));
        assertEquals(0, turnAt(scheduler, "2026-11-26T16:29:59.999Z"));
        assertEquals(1, turnAt(scheduler, "2026-11-26T16:30:00.001Z"));
        assertEquals(1, turnAt(scheduler, "2026-11-27T08:00:00.500Z"));
        assertEquals(List.of(
                "1 CLOSE_TRADING all schedule schedule",
                "2 OPEN_TRADING all schedule schedule",
                "3 CLOSE_TRADING all schedule schedule",
                "4 OPEN_TRADING all schedule schedule"), adminJournal());
        scheduler.onClose();
    }

    @Test
    void aRestartMidDayOpensWithOneCommandAndOneAfterAMissedCloseClosesWithOne() {
        TradingScheduler scheduler = scheduler(londonDay());
        assertEquals(1, turnAt(scheduler, "2026-11-26T09:00:00Z"));
        scheduler.onClose(); // the engine process stops before the close...

        scheduler = scheduler(londonDay()); // ...and starts again that evening
        assertEquals(1, turnAt(scheduler, "2026-11-26T18:00:00Z"));
        scheduler.onClose();

        scheduler = scheduler(londonDay()); // down all of Friday: its open and close are not replayed
        assertEquals(1, turnAt(scheduler, "2026-11-28T10:00:00Z"), "Saturday: closed");
        assertEquals(0, turnAt(scheduler, "2026-11-29T12:00:00Z"), "Sunday passes with nothing to say");
        // A stall (or a clock step) across whole sessions: at most one command, with the state of now.
        assertEquals(0, turnAt(scheduler, "2026-12-01T07:00:00Z"), "Monday's session came and went: closed then and now");
        assertEquals(1, turnAt(scheduler, "2026-12-01T08:00:00Z"));
        assertEquals(0, turnAt(scheduler, "2026-12-02T12:00:00Z"), "Tuesday's close and Wednesday's open: open then and now");
        assertEquals(1, turnAt(scheduler, "2026-12-03T07:00:00Z"), "Wednesday's close passed: one command");
        scheduler.onClose();
        assertEquals(List.of(
                "1 OPEN_TRADING all schedule schedule",
                "2 CLOSE_TRADING all schedule schedule",
                "3 CLOSE_TRADING all schedule schedule",
                "4 OPEN_TRADING all schedule schedule",
                "5 CLOSE_TRADING all schedule schedule"), adminJournal());
    }

    @Test
    void withOverridesEveryInstrumentIsOpenedAndClosedByItsSymbol() {
        final TradingScheduler scheduler = scheduler(schedule(new TradingScheduleConfig().timeZone("Europe/London")
                .hours("08:00", "16:30")
                .addInstrument(new InstrumentSessionConfig().symbol(TEXT.parse("AZN.L")).hours("09:00", "17:00")),
                "VOD.L", "AZN.L", "BARC.L"));
        assertEquals(3, turnAt(scheduler, "2026-11-26T08:30:00Z"));
        assertEquals(1, turnAt(scheduler, "2026-11-26T09:00:00Z"));
        assertEquals(2, turnAt(scheduler, "2026-11-26T16:30:00Z"));
        assertEquals(1, turnAt(scheduler, "2026-11-26T17:00:00Z"));
        scheduler.onClose();
        assertEquals(List.of(
                "1 OPEN_TRADING VOD.L schedule schedule",
                "2 CLOSE_TRADING AZN.L schedule schedule",
                "3 OPEN_TRADING BARC.L schedule schedule",
                "4 OPEN_TRADING AZN.L schedule schedule",
                "5 CLOSE_TRADING VOD.L schedule schedule",
                "6 CLOSE_TRADING BARC.L schedule schedule",
                "7 CLOSE_TRADING AZN.L schedule schedule"), adminJournal());
    }

    @Test
    void aTurnBetweenBoundariesAllocatesNothing() {
        final TradingScheduler scheduler = scheduler(londonDay());
        turnAt(scheduler, "2026-11-26T09:00:00Z");
        for (int i = 0; i < 1_000_000; i++) { // warm up: the JIT compiling the loop is not what is measured
            clock.advance(5);
            scheduler.doWork();
        }
        final ThreadMXBean threads =
                (ThreadMXBean) ManagementFactory.getThreadMXBean();
        threads.getCurrentThreadAllocatedBytes(); // the first call may set itself up
        // Windows of 200,000 turns (1,000 s of clock each, all before the close): a turn that allocated would charge
        // every window; a window that caught the JIT recompiling (a deoptimisation runs the loop interpreted for a
        // while, which a clean CI run once showed as 688 bytes) is followed by clean ones. So one clean window is enough.
        final long[] allocatedPerWindow = new long[5];
        int appended = 0;
        for (int window = 0; window < allocatedPerWindow.length; window++) {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 200_000; i++) {
                clock.advance(5); // from 10:23:20 to 11:46:40 in all, before the close
                appended += scheduler.doWork();
            }
            allocatedPerWindow[window] = threads.getCurrentThreadAllocatedBytes() - before;
        }
        assertEquals(0, appended);
        assertEquals(0, Arrays.stream(allocatedPerWindow).min().orElseThrow(),
                "bytes allocated by 200,000 turns between boundaries, in every window: "
                        + Arrays.toString(allocatedPerWindow));
        scheduler.onClose();
    }

    @Test
    void anAppendThatFailsIsRetriedLaterWithoutStoppingTheThread() {
        final AdminJournal journal = AdminJournal.open(root, SystemNanoClock.INSTANCE);
        final TradingScheduler scheduler = new TradingScheduler(londonDay(), journal, clock);
        journal.close(); // appends now throw
        assertEquals(0, turnAt(scheduler, "2026-11-26T09:00:00Z"));
        assertEquals(Instant.parse("2026-11-26T09:00:00Z").toEpochMilli() + TradingScheduler.RETRY_MILLIS,
                scheduler.nextCheckMillis());
        assertEquals(0, turnAt(scheduler, "2026-11-26T09:00:00.999Z"), "not before the retry is due");
    }
}
