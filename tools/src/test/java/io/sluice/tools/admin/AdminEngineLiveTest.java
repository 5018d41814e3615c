package io.sluice.tools.admin;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.AdminResult;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.OrderTerms;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;
import io.sluice.tools.fix.Watchdog;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.sluice.tools.admin.AdminLiveTest.PASSWORD;
import static io.sluice.tools.admin.AdminLiveTest.TIMEOUT;
import static io.sluice.tools.admin.AdminLiveTest.admin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice admin}'s engine commands against a real engine and gateway (child processes) with resting orders
 * and a FIX client sending orders: cancel by session, halt and resume (orders meanwhile rejected as halted, an unknown
 * instrument and a second halt refused), the kill switch (resting orders canceled, new ones rejected until off); with
 * the engine stopped a command gets no answer (exit 3) and is carried out when the engine starts again; an engine
 * start on an admin journal others could write is refused. Each answer is checked against the engine journal.
 */
class AdminEngineLiveTest {
    @TempDir
    Path dir;

    @Test
    void engineCommandsAreCarriedOutAndAnsweredByTheEngine() throws Exception {
        final SessionIdentity trader = SessionIdentity.ofSluiceClient("TRADER", PASSWORD);
        final SessionIdentity seeder = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        final OrderTerms restingBuy = OrderTerms.of("ACC1", SluiceDeployment.SYMBOL, OrderTerms.BUY, 10, "90",
                OrderTerms.DAY);
        try (SluiceDeployment sluice = SluiceDeployment.start(dir.resolve("sluice"), List.of(
                new SluiceDeployment.GatewaySpec(1, FixTransport.TCP, List.of(trader, seeder))),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults());
             LiquiditySeeder liquidity = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seeder));
             FixClientSession traderSession = new FixClientSession(sluice.endpoint(1), trader);
             Watchdog ignored = Watchdog.closeAfter(TIMEOUT, traderSession)) {
            final Path root = sluice.journals();
            liquidity.start(TIMEOUT);
            traderSession.logon(TIMEOUT);

            final AdminLiveTest.Run cancelSeeder = admin(root, "cancel", "--session", "1:SEEDER");
            assertEquals(new AdminLiveTest.Run(0, "acknowledged: " + StandardOrders.RESTING_ORDERS
                    + " orders canceled\n", ""), cancelSeeder, sluice.logs(3_000));
            assertEquals(StandardOrders.RESTING_ORDERS, EngineJournal.read(root).canceled);

            assertEquals(new AdminLiveTest.Run(AdminMain.EXIT_REFUSED, "refused: no such instrument in the engine's "
                    + "config\n", ""), admin(root, "halt", "XYZ"));
            assertEquals(new AdminLiveTest.Run(0, "acknowledged: SLC halted\n", ""), admin(root, "halt", "SLC"));
            assertEquals(new AdminLiveTest.Run(AdminMain.EXIT_REFUSED, "refused: the instrument is already halted\n", ""),
                    admin(root, "halt", "SLC"));
            traderSession.sendNewOrder(1, restingBuy);
            awaitJournal(root, journal -> journal.rejects.getOrDefault(RejectReason.INSTRUMENT_HALTED, 0L) == 1,
                    "the order sent while halted is rejected as halted");
            assertEquals(new AdminLiveTest.Run(0, "acknowledged: SLC resumed\n", ""), admin(root, "resume", "SLC"));

            traderSession.sendNewOrder(2, restingBuy);
            traderSession.sendNewOrder(3, restingBuy);
            awaitJournal(root, journal -> journal.newAcks == StandardOrders.RESTING_ORDERS + 2,
                    "the two orders sent after the resume rest in the book");
            assertEquals(new AdminLiveTest.Run(0, "acknowledged: kill switch on, 2 orders canceled; new orders are "
                    + "rejected until kill-switch off\n", ""), admin(root, "kill-switch", "on"));
            traderSession.sendNewOrder(4, restingBuy);
            awaitJournal(root, journal -> journal.rejects.getOrDefault(RejectReason.KILL_SWITCH_ON, 0L) == 1,
                    "the order sent with the kill switch on is rejected");
            assertEquals(new AdminLiveTest.Run(0, "acknowledged: kill switch off, new orders accepted\n", ""),
                    admin(root, "kill-switch", "off"));
            assertEquals(StandardOrders.RESTING_ORDERS + 2, EngineJournal.read(root).canceled);

            // The engine stopped: no answer, the command waits in the journal and runs when the engine is back.
            sluice.engine().stop(10);
            final AdminLiveTest.Run noEngine = admin(root, "--timeout", "1s", "cancel", "--all");
            assertEquals(AdminMain.EXIT_NO_ANSWER, noEngine.exit(), noEngine::toString);
            assertTrue(noEngine.err().startsWith("no answer from the engine within 1.0 s: the engine is not running. "
                    + "The command stays in the admin journal (event "), noEngine::toString);
            final long waiting = Long.parseLong(noEngine.err().replaceAll("(?s).*\\(event (\\d+)\\).*", "$1"));

            // An engine start on an admin journal others could write is refused, naming it.
            final Path adminDir = Journals.adminJournal(root);
            Files.setPosixFilePermissions(adminDir, PosixFilePermissions.fromString("rwx---r-x"));
            final JavaProcess refused = sluice.launchEngine();
            assertNotEquals(0, refused.waitFor(TIMEOUT.toSeconds()), refused::logText);
            assertTrue(refused.logText().contains("admin journal " + adminDir.toAbsolutePath())
                    && refused.logText().contains("rwx---r-x"), refused::logText);
            Files.setPosixFilePermissions(adminDir, PosixFilePermissions.fromString("rwx------"));

            final JavaProcess engine = sluice.launchEngine();
            assertTrue(engine.isAlive(), engine::logText);
            awaitJournal(root, journal -> journal.outcomes.get(waiting) == AdminResult.ACKNOWLEDGED,
                    "the engine carries out the command written while it was down");
        }
    }

    private static void awaitJournal(final Path root, final Predicate<EngineJournal> condition,
                                     final String what) {
        PollUntil.await(() -> condition.test(EngineJournal.read(root)), TIMEOUT, () -> what);
    }

    /** What the engine journal holds, counted by reading it whole. */
    private static final class EngineJournal extends NoOpEngineToGateway {
        long newAcks;
        long canceled;
        final Map<RejectReason, Long> rejects = new EnumMap<>(RejectReason.class);
        final Map<Long, AdminResult> outcomes = new HashMap<>();

        static EngineJournal read(final Path root) {
            final EngineJournal journal = new EngineJournal();
            try (ChronicleQueue queue = Journals.openReadOnly(Journals.engineJournal(root));
                 ExcerptTailer tailer = queue.createTailer();
                 JournalReader reader = new JournalReader(queue, tailer, journal)) {
                while (reader.readOne()) {
                    // counted by the handlers
                }
            }
            return journal;
        }

        @Override
        public void executionReport(final ExecutionReport report) {
            if (report.execType() == ExecType.NEW) {
                newAcks++;
            } else if (report.execType() == ExecType.CANCELED) {
                canceled++;
            } else if (report.execType() == ExecType.REJECTED) {
                rejects.merge(report.rejectReason(), 1L, Long::sum);
            }
        }

        @Override
        public void adminOutcome(final AdminOutcome outcome) {
            if (outcome.metaData().sourceId() == Journals.ADMIN_SOURCE_ID) {
                outcomes.put(outcome.metaData().eventId(), outcome.result());
            }
        }
    }
}
