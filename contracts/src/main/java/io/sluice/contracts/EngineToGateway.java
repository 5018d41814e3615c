package io.sluice.contracts;

import net.openhft.chronicle.bytes.MethodId;

/**
 * Reports the engine appends to its journal and every gateway tails, each delivering only the reports
 * addressed to it ({@link Report#gatewayId()}). Argument objects are reused: never keep a reference past
 * the call.
 */
public interface EngineToGateway {
    @MethodId(11)
    void executionReport(ExecutionReport report);

    @MethodId(12)
    void cancelReject(CancelReject reject);
}
