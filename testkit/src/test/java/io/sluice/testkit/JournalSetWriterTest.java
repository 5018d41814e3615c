package io.sluice.testkit;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The synthetic journals are written as the engine writes them: several reports of one input in one excerpt. */
class JournalSetWriterTest {
    @TempDir
    Path root;

    @Test
    void reportsWrittenInOneEngineExcerptAreReadAsOneExcerpt() {
        try (JournalSetWriter writer = new JournalSetWriter(root)) {
            final MetaData metaData = new MetaData().sourceId(1).eventId(1);
            try (DocumentContext ignored = writer.engineExcerpt()) {
                writer.executionReport(1, 7, 10, metaData);
                writer.executionReport(1, 7, 11, metaData);
            }
            writer.executionReport(1, 7, 12, metaData.eventId(2));
        }
        final List<Long> execIds = new ArrayList<>();
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.engineJournal(root))) {
            final ExcerptTailer tailer = queue.createTailer();
            final MethodReader reader = tailer.methodReader(new EngineToGateway() {
                @Override
                public void executionReport(final ExecutionReport report) {
                    execIds.add(report.execId());
                }

                @Override
                public void cancelReject(final CancelReject reject) {
                    throw new AssertionError("no cancel rejects were written");
                }

                @Override
                public void massCancelReport(final MassCancelReport report) {
                    throw new AssertionError("no mass cancel reports were written");
                }

                @Override
                public void adminOutcome(final AdminOutcome outcome) {
                    throw new AssertionError("no admin outcomes were written");
                }
            });
            assertTrue(reader.readOne());
            assertEquals(List.of(10L, 11L), execIds, "the first excerpt holds both reports");
            assertTrue(reader.readOne());
            assertEquals(List.of(10L, 11L, 12L), execIds);
            assertFalse(reader.readOne());
        }
    }
}
