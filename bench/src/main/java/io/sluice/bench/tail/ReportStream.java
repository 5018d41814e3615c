package io.sluice.bench.tail;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;

import java.nio.file.Path;

/** The engine journal, read as {@link EngineToGateway} calls and handed to the {@link LatencyJoin}. */
final class ReportStream extends JournalStream implements EngineToGateway {
    private final LatencyJoin join;

    ReportStream(final Path dir, final boolean fromStart, final LatencyJoin join) {
        super(dir, fromStart);
        this.join = join;
        readInto(this);
    }

    @Override
    public void executionReport(final ExecutionReport report) {
        join.onReport(report);
    }

    @Override
    public void cancelReject(final CancelReject reject) {
        join.onReport(reject);
    }
}
