package io.sluice.replay;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;

/**
 * The fresh engine's output during a replay: every report goes first to the new engine journal, then to
 * what it is compared with. In that order, so the journal gets the report as the engine made it.
 */
final class Tee implements EngineToGateway {
    private final EngineToGateway first;
    private final EngineToGateway second;

    Tee(final EngineToGateway first, final EngineToGateway second) {
        this.first = first;
        this.second = second;
    }

    @Override
    public void executionReport(final ExecutionReport report) {
        first.executionReport(report);
        second.executionReport(report);
    }

    @Override
    public void cancelReject(final CancelReject reject) {
        first.cancelReject(reject);
        second.cancelReject(reject);
    }
}
