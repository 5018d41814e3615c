package io.sluice.gateway;

import io.sluice.contracts.Delivery;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.gateway.session.FixApplication;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.SessionEvents;
import io.sluice.gateway.session.SessionIdentity;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.sluice.contracts.EventFixtures.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway that stops part way through an engine-journal excerpt (one excerpt holds every report of one input: an
 * ack and its fills) delivers the rest of that excerpt when it starts again, and nothing twice. The stop is made
 * exact by delivering through the gateway's own {@link ReportDelivery} and {@link JournalSessionStore} up to the
 * chosen report, as a gateway killed at that instant leaves its journal; then a real {@link Gateway} recovers.
 */
class GatewayRecoveryTest {
    private static final int GATEWAY = 1;
    private static final int OTHER_GATEWAY = 2;

    @TempDir
    Path dir;

    @Test
    void aGatewayStoppedPartWayThroughAnExcerptDeliversTheRestOfItAfterARestart() {
        final Path root = dir.resolve("journals");
        final long excerpt = writeEngineJournal(root);
        deliverAsIfKilledAfterReport2(root, excerpt);
        assertEquals(List.of(1L, 2L), deliveredExecIds(root), "the state a gateway killed after report 2 leaves");

        restartAndDeliver(root);

        assertEquals(List.of(1L, 2L, 4L, 5L), deliveredExecIds(root),
                "reports 4 and 5 of the interrupted excerpt come after the restart, 1 and 2 not again, 3 is another gateway's");
        restartAndDeliver(root);
        assertEquals(List.of(1L, 2L, 4L, 5L), deliveredExecIds(root), "a restart after a whole excerpt delivers nothing again");
        assertTrue(JournalProbe.deliveries(root, GATEWAY).stream().allMatch(d -> d.metaData().fixSent() == 0),
                "reports stored for an offline session never reached a socket: their fixSent is 0, not reached");
    }

    /**
     * The same with a drop copy: the owner's message of each report, then its copy, count as the messages of the
     * excerpt delivered. Killed after report 1 (owner and copy) and the copy of report 2 (gateway 2's), a restart
     * delivers report 3 to its owner and its copy, and nothing twice.
     */
    @Test
    void aGatewayStoppedPartWayThroughAnExcerptCopiesTheRestOfItAfterARestart() {
        final Path root = dir.resolve("journals");
        final long excerpt;
        try (ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root))) {
            final ExcerptAppender appender = engineJournal.createAppender();
            final EngineToGateway engine = Journals.methodWriter(appender, EngineToGateway.class);
            try (DocumentContext oneInput = appender.writingDocument()) {
                engine.executionReport(firmReport(1, GATEWAY, "CLIENT1"));
                engine.executionReport(firmReport(2, OTHER_GATEWAY, "CLIENT2"));
                engine.executionReport(firmReport(3, GATEWAY, "CLIENT1"));
            }
            excerpt = appender.lastIndexAppended();
        }
        try (ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root));
             JournalSessionStore store = new JournalSessionStore(Journals.open(Journals.gatewayDeliveries(root, GATEWAY)), 8192)) {
            final FixSession owner = offlineSession("CLIENT1", store);
            final FixSession dropCopy = offlineSession("BACKA", store);
            final FixAcceptor acceptor = new FixAcceptor(List.of(owner, dropCopy), SystemEpochClock.INSTANCE, 8192,
                    Gateway.MAX_FIELDS, SessionEvents.NONE);
            final ExcerptTailer tailer = engineJournal.createTailer();
            assertTrue(tailer.moveToIndex(excerpt));
            final ReportDelivery delivery = new ReportDelivery(GATEWAY, acceptor,
                    new DropCopies(dropCopyConfig().sessions(), acceptor), store, tailer, 0);
            delivery.executionReport(firmReport(1, GATEWAY, "CLIENT1"));
            delivery.executionReport(firmReport(2, OTHER_GATEWAY, "CLIENT2"));
        }
        assertEquals(List.of("CLIENT1 1", "BACKA 1", "BACKA 2"), deliveredTo(root), "as killed there");

        try (Gateway gateway = Gateway.launch(new GatewayContext().config(dropCopyConfig().journalRoot(root)))) {
            while (gateway.doWork() > 0) {
                // delivers and copies what the engine journal holds for the (offline) sessions
            }
        }
        assertEquals(List.of("CLIENT1 1", "BACKA 1", "BACKA 2", "CLIENT1 3", "BACKA 3"), deliveredTo(root),
                "report 3 and its copy after the restart, nothing twice");
    }

    private GatewayConfig dropCopyConfig() {
        return new GatewayConfig().gatewayId(GATEWAY).listen("unix:" + dir.resolve("gw.sock"))
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1").firm("FIRMA"))
                .session(new SessionConfig("BACKA", "SLUICE", "secret2").dropCopy("FIRMA"));
    }

    private static FixSession offlineSession(final String compId, final JournalSessionStore store) {
        return new FixSession(new SessionIdentity(compId, "SLUICE", null, "secret"), store, new FixApplication() {
            @Override
            public void onApplicationMessage(final FixSession session, final FixMessage message) {
                // this session only delivers reports
            }

            @Override
            public long lastEventId() {
                return 0;
            }
        }, SystemEpochClock.INSTANCE, 8192, 120_000, 2_000, 1);
    }

    /** @return every delivery journaled by the gateway, as its session and the report's ExecID */
    private static List<String> deliveredTo(final Path root) {
        return JournalProbe.deliveries(root, GATEWAY).stream()
                .map(d -> ShortText.toString(d.session()) + " " + d.execId()).toList();
    }

    private static ExecutionReport firmReport(final long execId, final int gatewayId, final String session) {
        final ExecutionReport report = report(execId, gatewayId);
        report.session(id(session)).firm(id("FIRMA"));
        return report;
    }

    /** Report 1 alone in an excerpt; reports 2 to 5 in the next, 3 for another gateway. @return that next excerpt's index */
    private static long writeEngineJournal(final Path root) {
        try (ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root))) {
            final ExcerptAppender appender = engineJournal.createAppender();
            final EngineToGateway engine = Journals.methodWriter(appender, EngineToGateway.class);
            engine.executionReport(report(1, GATEWAY));
            try (DocumentContext oneInput = appender.writingDocument()) {
                engine.executionReport(report(2, GATEWAY));
                engine.executionReport(report(3, OTHER_GATEWAY));
                engine.executionReport(report(4, GATEWAY));
                engine.executionReport(report(5, GATEWAY));
            }
            return appender.lastIndexAppended();
        }
    }

    /** Delivers report 1, then report 2 of {@code excerpt}, to an offline session, and stops there. */
    private static void deliverAsIfKilledAfterReport2(final Path root, final long excerpt) {
        try (ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root));
             JournalSessionStore store = new JournalSessionStore(Journals.open(Journals.gatewayDeliveries(root, GATEWAY)), 8192)) {
            final FixSession session = offlineSession("CLIENT1", store);
            final FixAcceptor acceptor = new FixAcceptor(List.of(session), SystemEpochClock.INSTANCE, 8192, Gateway.MAX_FIELDS,
                    SessionEvents.NONE);
            final ExcerptTailer tailer = engineJournal.createTailer();
            final ReportDelivery delivery = new ReportDelivery(GATEWAY, acceptor, new DropCopies(List.of(), acceptor), store, tailer, 0);
            assertTrue(tailer.methodReader(delivery).readOne(), "report 1's excerpt");
            assertTrue(tailer.moveToIndex(excerpt));
            delivery.executionReport(report(2, GATEWAY));
        }
    }

    /** Starts a gateway on {@code root}, lets it work until it has nothing left to do, and closes it. */
    private void restartAndDeliver(final Path root) {
        final GatewayConfig config = new GatewayConfig().gatewayId(GATEWAY).journalRoot(root)
                .listen("unix:" + dir.resolve("gw.sock")).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        try (Gateway gateway = Gateway.launch(new GatewayContext().config(config))) {
            while (gateway.doWork() > 0) {
                // delivers what the engine journal holds for the (offline) session
            }
        }
    }

    private static List<Long> deliveredExecIds(final Path root) {
        return JournalProbe.deliveries(root, GATEWAY).stream().map(Delivery::execId).toList();
    }

    private static ExecutionReport report(final long execId, final int gatewayId) {
        final ExecutionReport report = EventFixtures.executionReport();
        report.execId(execId);
        report.gatewayId(gatewayId).session(id("CLIENT1"));
        return report;
    }
}
