package io.sluice.engine.recovery;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.Report;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.MarshallableIn;

import java.util.ArrayList;
import java.util.List;

/**
 * The reports of one engine journal excerpt as YAML, with what a replay does not compare zeroed. It explains a
 * divergence that {@link ExcerptComparison} found, field by field (in a replay, or a recovery that refuses to go live).
 * Not for the replay loop: it allocates.
 */
public final class ExcerptText {
    private ExcerptText() {
    }

    /** Zeroes the MetaData timestamps a run stamps itself: engine read, report written, and later hops. */
    public static void clearRunTimestamps(final MetaData metaData) {
        metaData.engineRead(0).reportWriting(0).gatewayRead(0).fixSent(0);
    }

    /**
     * @param ignoreEngineIds also zero OrderID and ExecID
     * @return the reports of the excerpt at {@code index} of {@code journal}, as YAML
     */
    public static List<String> reports(final ChronicleQueue journal, final long index, final boolean ignoreEngineIds) {
        try (ExcerptTailer tailer = journal.createTailer()) {
            return tailer.moveToIndex(index) ? reports(tailer, ignoreEngineIds) : new ArrayList<>();
        }
    }

    /**
     * @param ignoreEngineIds also zero OrderID and ExecID
     * @return the reports of the next excerpt (document) of {@code in}, as YAML
     */
    public static List<String> reports(final MarshallableIn in, final boolean ignoreEngineIds) {
        final List<String> reports = new ArrayList<>();
        final MethodReader reader = in.methodReader(new EngineToGateway() {
            @Override
            public void executionReport(final ExecutionReport report) {
                if (ignoreEngineIds) {
                    report.execId(0);
                }
                add(report);
            }

            @Override
            public void cancelReject(final CancelReject reject) {
                add(reject);
            }

            @Override
            public void massCancelReport(final MassCancelReport report) {
                add(report);
            }

            @Override
            public void adminOutcome(final AdminOutcome outcome) {
                clearRunTimestamps(outcome.metaData());
                reports.add(outcome.toString());
            }

            private void add(final Report report) {
                clearRunTimestamps(report.metaData());
                if (ignoreEngineIds) {
                    report.orderId(0);
                }
                reports.add(report.toString());
            }
        });
        try {
            reader.readOne();
        } catch (final RuntimeException unreadable) {
            reports.add("(unreadable: " + unreadable.getMessage() + ")");
        }
        return reports;
    }

    /** @return the position of the first report that differs between the two lists (or that only one has). */
    public static int firstDifference(final List<String> expected, final List<String> actual) {
        final int common = Math.min(expected.size(), actual.size());
        for (int i = 0; i < common; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                return i;
            }
        }
        return common;
    }

    /** @return report {@code i} of {@code reports}, or "(no report)". */
    public static String at(final List<String> reports, final int i) {
        return i < reports.size() ? reports.get(i) : "(no report)";
    }
}
