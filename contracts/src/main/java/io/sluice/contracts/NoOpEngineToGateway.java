package io.sluice.contracts;

/**
 * An {@link EngineToGateway} that ignores every report. A reader of the engine journal extends it and overrides only
 * the reports it reads, so that a report type added later needs no change in readers that pass over it; used as is, it
 * reads past every record (a journal check). Method readers dispatch to the overrides of a subclass as to any
 * implementation.
 */
public class NoOpEngineToGateway implements EngineToGateway {
    @Override
    public void executionReport(final ExecutionReport report) {
    }

    @Override
    public void cancelReject(final CancelReject reject) {
    }

    @Override
    public void massCancelReport(final MassCancelReport report) {
    }

    @Override
    public void adminOutcome(final AdminOutcome outcome) {
    }
}
