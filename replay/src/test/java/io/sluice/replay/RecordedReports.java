package io.sluice.replay;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.Report;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.recovery.ExcerptText;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every report of an engine journal in order, read plainly with a method reader. It is the tests' own view of a
 * journal, independent of the replay's comparison.
 *
 * @param sourceId     the input's gateway
 * @param eventId      the input's event id
 * @param excerptIndex the Chronicle index of the excerpt holding the report
 * @param report       a copy of the report as written
 */
public record RecordedReports(int sourceId, long eventId, long excerptIndex, Report report) {
    /** @return the reports of the engine journal under {@code root}, opened read-only. */
    public static List<RecordedReports> read(final Path root) {
        final List<RecordedReports> all = new ArrayList<>();
        final List<Report> excerpt = new ArrayList<>();
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.engineJournal(root))) {
            final ExcerptTailer tailer = queue.createTailer();
            final MethodReader reader = tailer.methodReader(new NoOpEngineToGateway() {
                @Override
                public void executionReport(final ExecutionReport report) {
                    excerpt.add(report.deepCopy());
                }

                @Override
                public void cancelReject(final CancelReject reject) {
                    excerpt.add(reject.deepCopy());
                }

                @Override
                public void massCancelReport(final MassCancelReport report) {
                    excerpt.add(report.deepCopy());
                }
            });
            while (reader.readOne()) {
                for (final Report report : excerpt) {
                    all.add(new RecordedReports(report.metaData().sourceId(), report.metaData().eventId(),
                            tailer.lastReadIndex(), report));
                }
                excerpt.clear();
            }
        }
        return all;
    }

    /** @return the report's YAML with the timestamps of the run that wrote it zeroed. */
    public String withoutRunTimestamps() {
        final Report copy = report.deepCopy();
        ExcerptText.clearRunTimestamps(copy.metaData());
        return copy.toString();
    }
}
