package io.sluice.contracts;

import net.openhft.chronicle.bytes.MethodId;

/**
 * Reports the engine appends to its journal and every gateway tails, each delivering only the reports
 * addressed to it ({@link Report#gatewayId()}). Argument objects are reused: never keep a reference past
 * the call.
 */
public interface EngineToGateway {
    @MethodId(RecordLayout.EXECUTION_REPORT)
    void executionReport(ExecutionReport report);

    @MethodId(RecordLayout.CANCEL_REJECT)
    void cancelReject(CancelReject reject);

    @MethodId(RecordLayout.MASS_CANCEL_REPORT)
    void massCancelReport(MassCancelReport report);

    /** The engine's answer to an admin command: not addressed to any client; gateways pass over it. */
    @MethodId(RecordLayout.ENGINE_ADMIN_OUTCOME)
    void adminOutcome(AdminOutcome outcome);
}
