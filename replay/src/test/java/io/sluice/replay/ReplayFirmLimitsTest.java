package io.sluice.replay;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.SnapshotBegin;
import io.sluice.contracts.SnapshotEnd;
import io.sluice.contracts.SnapshotFirm;
import io.sluice.contracts.SnapshotFirmPosition;
import io.sluice.contracts.SnapshotInstrument;
import io.sluice.contracts.SnapshotOrder;
import io.sluice.contracts.SnapshotSessionKillSwitch;
import io.sluice.contracts.SnapshotSource;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.FirmLimitsConfig;
import io.sluice.engine.config.RiskConfig;
import io.sluice.engine.snapshot.SnapshotMain;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.sluice.replay.ReplayAdminCommandsTest.text;
import static io.sluice.replay.ReplayAssertions.assertReplaysIdentically;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A trading day with firm limits changed live: two gateways' mixed commands, every session its own firm held to
 * limits the flow reaches (open orders, position, price collar), and between rounds an operator sets a firm's limit,
 * turns a firm's and a session's kill switch on and off. The recording replays byte for byte, because every change
 * came through the admin journal; replayed without the firm limits it differs. A snapshot taken mid-day holds the firms'
 * state: a replay from it, and an engine restarting from it, answer every later input as the engine that ran from the
 * start did, byte for byte.
 */
final class ReplayFirmLimitsTest {
    @TempDir
    Path dir;

    @Test
    void aDayWithLiveLimitChangesReplaysIdentically() throws Exception {
        final Path root = dir.resolve("recorded");
        final EngineConfig plain = EngineConfig.parse(RecordedSession.configYaml(root, 1000), "the recording's config")
                .pretouch(false);
        final EngineConfig config = EngineConfig.parse(RecordedSession.configYaml(root, 1000), "the recording's config")
                .pretouch(false).restartFromSnapshots(false).risk(new RiskConfig().defaults(new FirmLimitsConfig()
                        .value(FirmLimit.MAX_OPEN_ORDERS, 6).value(FirmLimit.MAX_POSITION, 400)
                        .value(FirmLimit.PRICE_COLLAR, 300)));
        final long inputs = ReplayAdminCommandsTest.record(root, config, ReplayFirmLimitsTest::command);
        final RiskReports reports = RiskReports.read(root);
        assertTrue(reports.limitRejects > 10 && reports.killSwitchCancels > 0, reports::toString);

        final ReplayResult result = assertReplaysIdentically(root, config);
        assertEquals(inputs, result.inputs());

        final ReplayResult withoutLimits = new Replay(root, plain).output(dir.resolve("without-limits")).run();
        assertFalse(withoutLimits.identical(), withoutLimits::summary);

    }

    @Test
    void anEngineWithLimitsRestartsFromASnapshotMidDayAndAnswersAsOneThatRanFromTheStart() throws Exception {
        final Path root = dir.resolve("recorded");
        final EngineConfig config = EngineConfig.parse(RecordedSession.configYaml(root, 1000), "the recording's config")
                .pretouch(false).restartFromSnapshots(false).risk(new RiskConfig().defaults(new FirmLimitsConfig()
                        .value(FirmLimit.MAX_OPEN_ORDERS, 6).value(FirmLimit.MAX_POSITION, 400)
                        .value(FirmLimit.PRICE_COLLAR, 300).value(FirmLimit.MAX_ORDERS_PER_SECOND, 1_000_000)));
        final long inputs = ReplayAdminCommandsTest.record(root, config, ReplayFirmLimitsTest::command);

        final SnapshotMain.Summary snapshots = SnapshotMain.run(config, root, SNAPSHOT_EVERY, false);
        assertEquals(inputs / SNAPSHOT_EVERY, snapshots.written(), snapshots.describe());
        final FirmStates latest = FirmStates.ofSnapshot(root, snapshots.lastEngineIndex());
        assertTrue(latest.firms > 3 && latest.withOpenOrders > 0 && latest.withPositions > 0 && latest.withLimitRejects > 0
                && latest.withLimitChanged > 0 && latest.withRates > 0, latest::toString);

        // The snapshot's firm state decides the reports after it: the open orders, positions, live limits and rate
        // windows it restores give, input by input, the reports the engine that ran from the start wrote.
        final ReplayResult fromSnapshot = new Replay(root, config).fromSnapshot(snapshots.lastEngineIndex())
                .output(dir.resolve("from-snapshot")).run();
        assertTrue(fromSnapshot.identical(), fromSnapshot::summary);
        assertEquals(inputs - inputs / SNAPSHOT_EVERY * SNAPSHOT_EVERY, fromSnapshot.inputs());

        // The engine process's restart: it loads the snapshot and re-runs the inputs after it, comparing each excerpt with
        // the recorded one (it refuses to go live on a difference).
        try (EngineService restarted = EngineService.launch(config.restartFromSnapshots(true))) {
            assertEquals(inputs / SNAPSHOT_EVERY * SNAPSHOT_EVERY, restarted.restoredFrom().inputs());
            assertEquals(inputs - inputs / SNAPSHOT_EVERY * SNAPSHOT_EVERY, restarted.recovered());
        }
    }

    /** How many inputs apart the snapshotter writes its snapshots: two in the day, none at its end. */
    private static final int SNAPSHOT_EVERY = 700;

    /** What the firm records of one snapshot hold: how many firms, and how many of them with each kind of state. */
    private static final class FirmStates implements EngineSnapshots {
        private final long beginIndex;
        private boolean inSnapshot;
        int firms;
        int withOpenOrders;
        int withPositions;
        int withLimitRejects;
        int withLimitChanged;
        int withRates;

        private FirmStates(final long beginIndex) {
            this.beginIndex = beginIndex;
        }

        /** @return the firm states of the snapshot taken at engine index {@code engineIndex} */
        static FirmStates ofSnapshot(final Path root, final long engineIndex) {
            final FirmStates states = new FirmStates(engineIndex);
            try (ChronicleQueue queue = Journals.openReadOnly(Journals.snapshotJournal(root));
                 ExcerptTailer tailer = queue.createTailer();
                 JournalReader reader = new JournalReader(queue, tailer, states)) {
                while (reader.readOne()) {
                    // counted by the handlers
                }
            }
            return states;
        }

        @Override
        public void snapshotBegin(final SnapshotBegin begin) {
            inSnapshot = begin.engineIndex() == beginIndex;
        }

        @Override
        public void snapshotFirm(final SnapshotFirm firm) {
            if (inSnapshot) {
                firms++;
                withOpenOrders += firm.openOrders() > 0 ? 1 : 0;
                withLimitRejects += firm.limitRejects() > 0 ? 1 : 0;
                withLimitChanged += firm.limit(FirmLimit.MAX_OPEN_ORDERS) != 6 ? 1 : 0;
                withRates += firm.orderSecond() >= 0 && firm.ordersInSecond() > 0 ? 1 : 0;
            }
        }

        @Override
        public void snapshotFirmPosition(final SnapshotFirmPosition position) {
            withPositions += inSnapshot && position.position() != 0 ? 1 : 0;
        }

        @Override
        public void snapshotSource(final SnapshotSource source) {
        }

        @Override
        public void snapshotInstrument(final SnapshotInstrument instrument) {
        }

        @Override
        public void snapshotOrder(final SnapshotOrder order) {
        }

        @Override
        public void snapshotSessionKillSwitch(final SnapshotSessionKillSwitch session) {
        }

        @Override
        public void snapshotEnd(final SnapshotEnd end) {
            inSnapshot = false;
        }

        @Override
        public String toString() {
            return firms + " firms: " + withOpenOrders + " with open orders, " + withPositions + " positions, "
                    + withLimitRejects + " with limit rejects, " + withLimitChanged + " with a limit changed live, "
                    + withRates + " with orders in their rate window";
        }
    }

    /** Round by round: a firm's open orders limit set, its kill switch on and off, a session's on and off. */
    private static AdminCommand command(final int round) {
        final AdminCommand command = new AdminCommand().user(text("test"));
        return switch (round % 5) {
            case 0 -> command.action(AdminAction.SET_FIRM_LIMIT).firm(text("G1S" + round % 3))
                    .limit(FirmLimit.MAX_OPEN_ORDERS, 2 + round % 7);
            case 1 -> command.action(AdminAction.FIRM_KILL_SWITCH_ON).firm(text("G2S" + round % 3));
            case 2 -> command.action(AdminAction.FIRM_KILL_SWITCH_OFF).firm(text("G2S" + (round - 1) % 3));
            case 3 -> command.action(AdminAction.SESSION_KILL_SWITCH_ON).gatewayId(1).session(text("G1S" + round % 3));
            default -> command.action(AdminAction.SESSION_KILL_SWITCH_OFF).gatewayId(1)
                    .session(text("G1S" + (round - 1) % 3));
        };
    }

    /** The recording's reports that firm limits and kill switches caused, counted by reading its engine journal. */
    private static final class RiskReports extends NoOpEngineToGateway {
        long limitRejects;
        long killSwitchCancels;

        static RiskReports read(final Path root) {
            final RiskReports reports = new RiskReports();
            try (ChronicleQueue queue = Journals.openReadOnly(Journals.engineJournal(root));
                 ExcerptTailer tailer = queue.createTailer();
                 JournalReader reader = new JournalReader(queue, tailer, reports)) {
                while (reader.readOne()) {
                    // counted by the handlers
                }
            }
            return reports;
        }

        @Override
        public void executionReport(final ExecutionReport report) {
            switch (report.rejectReason()) {
                case FIRM_KILL_SWITCH_ON, SESSION_KILL_SWITCH_ON -> killSwitchCancels++;
                default -> {
                    if (report.rejectReason().limit() != null) {
                        limitRejects++;
                    }
                }
            }
        }

        @Override
        public String toString() {
            return "limit rejects " + limitRejects + ", kill switch cancels and rejects " + killSwitchCancels;
        }
    }
}
