package io.sluice.contracts;

import net.openhft.chronicle.bytes.MethodId;

/**
 * What the deployment's admin journal ({@code Journals.adminJournal}) holds: operator commands. They are appended by
 * {@code ./sluice admin} and by the trading-session scheduler, and read by the engine (as one more input source) and by
 * every gateway. The argument is reused: never keep a reference past the call.
 */
public interface AdminCommands {
    @MethodId(RecordLayout.ADMIN_COMMAND)
    void adminCommand(AdminCommand command);
}
