package io.sluice.replay;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A trading day with firm limits changed live: two gateways' mixed commands, every session its own firm held to
 * limits the flow reaches (open orders, position, price collar), and between rounds an operator sets a firm's limit,
 * turns a firm's and a session's kill switch on and off. The recording replays byte for byte, because every change
 * came through the admin journal; replayed without the firm limits it differs. The snapshotter refuses such an engine.
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

        // Snapshots do not hold the firms' state yet: the snapshotter refuses rather than write one that would mislead.
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SnapshotMain.run(config, root, 7, false));
        assertEquals(RiskConfig.NOT_IN_SNAPSHOTS, refused.getMessage());
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
