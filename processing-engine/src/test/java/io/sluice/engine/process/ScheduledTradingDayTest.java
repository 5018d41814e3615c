package io.sluice.engine.process;

import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineContext;
import io.sluice.engine.EngineMain;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TradingScheduleConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.engine.snapshot.SnapshotMain;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.engine.process.EngineServiceTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trading day on real journals, end to end: the engine, with a trading schedule, run as the engine process runs
 * it; its background thread appends the schedule's OPEN_TRADING / CLOSE_TRADING to the admin journal as the clock
 * crosses the open and the close, and the engine acts on them: orders trade while open, resting DAY orders expire at
 * the close while GTC orders rest on, and orders after the close are rejected as outside the session. Run in process
 * with a test clock in place of the wall clock, and as a child engine process that restarts after a close it missed.
 */
final class ScheduledTradingDayTest {
    private static final ShortTextLongConverter TEXT = ShortTextLongConverter.INSTANCE;
    private static final long VOD = TEXT.parse("VOD.L");
    private static final String[] EVERY_DAY = {"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"};

    @TempDir
    Path dir;

    private final CachedEpochClock clock = new CachedEpochClock();
    private long gatewayEvents;

    private Path root() {
        return dir.resolve("journals");
    }

    private EngineConfig config(final TradingScheduleConfig schedule) {
        return TwoInstrumentMarket.config(root()).tradingSchedule(schedule);
    }

    private EngineConfig londonDay() {
        return config(new TradingScheduleConfig().timeZone("Europe/London").hours("08:00", "16:30"));
    }

    private void clockAt(final String utc) {
        clock.update(Instant.parse(utc).toEpochMilli());
    }

    private AgentThread start(final EngineConfig config) {
        return EngineServiceTest.start(EngineService.launch(new EngineContext().config(config).epochClock(clock)));
    }

    /** @return every command of the admin journal as "eventId action symbol user" */
    private List<String> adminJournal() {
        final List<String> commands = new ArrayList<>();
        if (!Files.exists(Journals.adminJournal(root()).resolve("metadata.cq4t"))) {
            return commands;
        }
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.adminJournal(root()))) {
            final MethodReader reader = queue.createTailer().methodReader((AdminCommands) c -> commands.add(
                    c.metaData().eventId() + " " + c.action() + " " + c.symbol() + " " + TEXT.asString(c.user())));
            while (reader.readOne()) {
                // collecting
            }
        }
        return commands;
    }

    /**
     * @return what the engine journal says, one line a report: "admin eventId action result refusal" for an admin
     * outcome, "clOrdId execType ordStatus rejectReason" for an execution report
     */
    private List<String> engineJournal() {
        final List<String> lines = new ArrayList<>();
        if (!Files.exists(Journals.engineJournal(root()).resolve("metadata.cq4t"))) {
            return lines; // the engine process has not created it yet
        }
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.engineJournal(root()))) {
            final MethodReader reader = queue.createTailer().methodReader(new EngineToGateway() {
                @Override
                public void executionReport(final ExecutionReport r) {
                    lines.add(TEXT.asString(r.clOrdId()) + " " + r.execType() + " " + r.ordStatus() + " " + r.rejectReason());
                }

                @Override
                public void cancelReject(final CancelReject reject) {
                    lines.add(TEXT.asString(reject.clOrdId()) + " cancel reject");
                }

                @Override
                public void massCancelReport(final MassCancelReport report) {
                    lines.add(TEXT.asString(report.clOrdId()) + " mass cancel report");
                }

                @Override
                public void adminOutcome(final AdminOutcome o) {
                    lines.add("admin " + o.metaData().eventId() + " " + o.action() + " " + o.result() + " " + o.refusal());
                }
            });
            while (reader.readOne()) {
                // collecting
            }
        }
        return lines;
    }

    private void awaitEngineJournal(final String line) {
        awaitTrue(() -> engineJournal().contains(line), "the engine journal to hold \"" + line + "\"; it holds " + engineJournal());
    }

    /** Appends a limit order of 100 VOD.L to gateway 1's journal, as session ALICE (buy) or BOB (sell). */
    private void order(final String clOrdId, final Side side, final TimeInForce timeInForce, final long price) {
        try (ChronicleQueue queue = Journals.open(Journals.gatewayJournal(root(), 1))) {
            final NewOrder order = new NewOrder();
            order.metaData().sourceId(1).eventId(++gatewayEvents);
            final long session = TEXT.parse(side == Side.BUY ? "ALICE" : "BOB");
            order.session(session).clOrdId(TEXT.parse(clOrdId)).account(session).symbol(VOD).side(side)
                    .ordType(OrdType.LIMIT).timeInForce(timeInForce).orderQty(100).price(Price.of(price));
            Journals.methodWriter(queue.createAppender(), GatewayToEngine.class).newOrder(order);
        }
    }

    @Test
    void theBackgroundThreadWritesTheScheduleIntoTheAdminJournal() throws Exception {
        clockAt("2026-11-26T12:00:00Z");
        AgentThread engine = start(londonDay());
        awaitTrue(() -> adminJournal().size() == 1, "the state of now at start");
        clockAt("2026-11-26T16:30:00Z");
        awaitTrue(() -> adminJournal().size() == 2, "the close");
        engine.close();
        assertNull(engine.failure());

        clockAt("2026-11-27T09:00:00Z"); // down through the open: a restart opens with one command
        engine = start(londonDay());
        awaitTrue(() -> adminJournal().size() == 3, "the state of now after the restart");
        engine.close();
        assertNull(engine.failure());
        assertEquals(List.of("1 OPEN_TRADING 0 schedule", "2 CLOSE_TRADING 0 schedule", "3 OPEN_TRADING 0 schedule"),
                adminJournal());
    }

    @Test
    void dayOrdersExpireAtTheCloseGtcOrdersRestAndOrdersAfterItAreRejected() throws Exception {
        clockAt("2026-11-26T07:00:00Z"); // Thursday, before the open
        final AgentThread engine = start(londonDay());
        awaitEngineJournal("admin 1 CLOSE_TRADING REFUSED TRADING_ALREADY_CLOSED");
        order("EARLY", Side.BUY, TimeInForce.DAY, 99);
        awaitEngineJournal("EARLY REJECTED REJECTED OUTSIDE_TRADING_SESSION");

        clockAt("2026-11-26T08:00:00Z");
        awaitEngineJournal("admin 2 OPEN_TRADING ACKNOWLEDGED NONE");
        order("DAY1", Side.BUY, TimeInForce.DAY, 100);
        order("GTC1", Side.SELL, TimeInForce.GOOD_TILL_CANCEL, 110);
        awaitEngineJournal("GTC1 NEW NEW NONE");

        clockAt("2026-11-26T16:30:00Z");
        awaitEngineJournal("admin 3 CLOSE_TRADING ACKNOWLEDGED NONE");
        order("LATE", Side.BUY, TimeInForce.DAY, 101);
        awaitEngineJournal("LATE REJECTED REJECTED OUTSIDE_TRADING_SESSION");

        clockAt("2026-11-27T08:00:00Z"); // Friday: the GTC order is still there to trade with
        awaitEngineJournal("admin 4 OPEN_TRADING ACKNOWLEDGED NONE");
        order("NEXTDAY", Side.BUY, TimeInForce.DAY, 110);
        awaitEngineJournal("GTC1 TRADE FILLED NONE");
        engine.close();
        assertNull(engine.failure());

        assertEquals(List.of(
                "admin 1 CLOSE_TRADING REFUSED TRADING_ALREADY_CLOSED",
                "EARLY REJECTED REJECTED OUTSIDE_TRADING_SESSION",
                "admin 2 OPEN_TRADING ACKNOWLEDGED NONE",
                "DAY1 NEW NEW NONE",
                "GTC1 NEW NEW NONE",
                "DAY1 EXPIRED EXPIRED NONE",
                "admin 3 CLOSE_TRADING ACKNOWLEDGED NONE",
                "LATE REJECTED REJECTED OUTSIDE_TRADING_SESSION",
                "admin 4 OPEN_TRADING ACKNOWLEDGED NONE",
                "NEXTDAY NEW NEW NONE",
                "NEXTDAY TRADE FILLED NONE",
                "GTC1 TRADE FILLED NONE"), engineJournal());
    }

    /**
     * A child engine process: trades during a session that holds the wall clock's now, is stopped, and starts again with
     * a schedule that closed a minute before (as if the wall clock had passed the close while the engine was down):
     * its first command closes the session and the DAY order expires.
     */
    @Test
    void anEngineProcessRestartedAfterAMissedCloseClosesWithOneCommand() throws Exception {
        final Path configFile = dir.resolve("engine.yaml");
        final Path logs = dir.resolve("logs");
        final Instant now = Instant.now();
        Files.writeString(configFile, config(utcSession(now.minus(2, ChronoUnit.HOURS), now.plus(2, ChronoUnit.HOURS)))
                .toString());
        JavaProcess engine = engine(logs, configFile, 1);
        awaitEngineJournal("admin 1 OPEN_TRADING ACKNOWLEDGED NONE");
        order("DAY1", Side.BUY, TimeInForce.DAY, 100);
        awaitEngineJournal("DAY1 NEW NEW NONE");
        engine.stop(30); // SIGTERM: a clean stop

        final Instant later = Instant.now();
        Files.writeString(configFile, config(utcSession(later.minus(2, ChronoUnit.HOURS), later.minus(1, ChronoUnit.MINUTES)))
                .toString());
        engine = engine(logs, configFile, 2);
        awaitEngineJournal("DAY1 EXPIRED EXPIRED NONE");
        order("LATE", Side.BUY, TimeInForce.DAY, 101);
        awaitEngineJournal("LATE REJECTED REJECTED OUTSIDE_TRADING_SESSION");
        engine.stop(30); // SIGTERM: a clean stop
        assertTrue(engine.logText().contains("engine: trading schedule: CLOSE_TRADING for all instruments"), engine.logText());

        assertEquals(List.of("1 OPEN_TRADING 0 schedule", "2 CLOSE_TRADING 0 schedule"), adminJournal(),
                "one command at each start: the state of its now");
        assertEquals(List.of(
                "admin 1 OPEN_TRADING ACKNOWLEDGED NONE",
                "DAY1 NEW NEW NONE",
                "DAY1 EXPIRED EXPIRED NONE",
                "admin 2 CLOSE_TRADING ACKNOWLEDGED NONE",
                "LATE REJECTED REJECTED OUTSIDE_TRADING_SESSION"), engineJournal());
    }

    /**
     * Instruments start open without a schedule and closed with one, and recovery re-runs the recorded inputs from that
     * start: adding a schedule to journals recorded without one makes the first re-run order give another report, and
     * the engine refuses to go live; a snapshot taken under the old config first carries each instrument's session
     * state over, and the schedule's first command then closes the session, expiring the DAY order.
     */
    @Test
    void aScheduleAddedToJournalsWithHistoryNeedsASnapshotUnderTheOldConfig() throws Exception {
        final EngineConfig without = TwoInstrumentMarket.config(root());
        AgentThread engine = start(without);
        order("DAY1", Side.BUY, TimeInForce.DAY, 100);
        awaitEngineJournal("DAY1 NEW NEW NONE");
        engine.close();
        assertNull(engine.failure());

        clockAt("2026-11-26T18:00:00Z"); // after the schedule's close
        assertThrows(CorruptJournalException.class, () -> start(londonDay()),
                "the engine to refuse to go live");

        SnapshotMain.run(without, root(), 0, true);
        engine = start(londonDay());
        awaitEngineJournal("DAY1 EXPIRED EXPIRED NONE");
        engine.close();
        assertNull(engine.failure());
    }

    /** @return a session every day, in UTC, from {@code open} to {@code close} (past midnight if they straddle it) */
    private static TradingScheduleConfig utcSession(final Instant open, final Instant close) {
        return new TradingScheduleConfig().timeZone("UTC").tradingDays(EVERY_DAY)
                .hours(hhmmss(open), hhmmss(close));
    }

    private static String hhmmss(final Instant instant) {
        return LocalTime.ofInstant(instant, ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static JavaProcess engine(final Path logs, final Path configFile, final int run) throws Exception {
        return JavaProcess.start("engine-" + run, logs.resolve("engine-" + run + ".log"),
                List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"), EngineMain.class, "--config", configFile.toString());
    }
}
