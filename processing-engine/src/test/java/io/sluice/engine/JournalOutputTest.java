package io.sluice.engine;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the engine's output does to reports on their way to the journal: to the recovery wire (for comparison with the
 * recorded ones) before it is live, then to the journal with one stamp per input.
 */
final class JournalOutputTest {
    @TempDir
    Path root;

    @Test
    void reportsOfOneInputShareTheirReportWrittenStampAndTheNextInputGetsALaterOne() {
        try (ChronicleQueue journal = Journals.open(Journals.engineJournal(root))) {
            final JournalOutput output = new JournalOutput();
            output.executionReport(report(1, 10));
            assertEquals(0, output.written(), "not written to the journal before going live");
            assertTrue(output.recoveryWire().bytes().readRemaining() > 0, "but to the recovery wire");
            output.goLive(journal.createAppender());

            output.executionReport(report(1, 11));
            awaitNextTick();
            output.cancelReject(reject(1, 11));
            awaitNextTick();
            output.executionReport(report(2, 11));

            final List<Long> stamps = reportWritingStamps(journal);
            assertEquals(3, stamps.size());
            assertEquals(stamps.get(0), stamps.get(1), "both reports of input (1, 11)");
            assertTrue(stamps.get(2) > stamps.get(1), "input (2, 11) is stamped anew: " + stamps);
        }
    }

    private static ExecutionReport report(final int sourceId, final long eventId) {
        final ExecutionReport report = EventFixtures.executionReport();
        report.metaData().sourceId(sourceId).eventId(eventId);
        return report;
    }

    private static CancelReject reject(final int sourceId, final long eventId) {
        final CancelReject reject = new CancelReject();
        reject.metaData().sourceId(sourceId).eventId(eventId);
        return reject;
    }

    /** Waits (a tenth of a microsecond at most) until the clock has moved on by a tick. */
    private static void awaitNextTick() {
        final long now = SluiceClock.nowTicks();
        while (SluiceClock.nowTicks() == now) {
            Thread.onSpinWait();
        }
    }

    private static List<Long> reportWritingStamps(final ChronicleQueue journal) {
        final List<Long> stamps = new ArrayList<>();
        try (ExcerptTailer tailer = journal.createTailer()) {
            final MethodReader reader = tailer.methodReader(new EngineToGateway() {
                @Override
                public void executionReport(final ExecutionReport report) {
                    stamps.add(report.metaData().reportWriting());
                }

                @Override
                public void cancelReject(final CancelReject reject) {
                    stamps.add(reject.metaData().reportWriting());
                }

                @Override
                public void massCancelReport(final MassCancelReport report) {
                    stamps.add(report.metaData().reportWriting());
                }

                @Override
                public void adminOutcome(final AdminOutcome outcome) {
                    stamps.add(outcome.metaData().reportWriting());
                }
            });
            while (reader.readOne()) {
                // collects
            }
        }
        return stamps;
    }
}
