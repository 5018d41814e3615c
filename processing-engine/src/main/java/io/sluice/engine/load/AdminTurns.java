package io.sluice.engine.load;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.journal.Journals;

/**
 * An operator's turn on one instrument, for load tests and benchmarks of the engine. Halt, resume, close trading (its
 * DAY orders expire) and open trading again: four admin commands numbered as the admin journal numbers them (source
 * {@link Journals#ADMIN_SOURCE_ID}, event ids 1, 2, 3 ...). Allocation-free.
 */
public final class AdminTurns {
    private static final AdminAction[] TURN = {AdminAction.HALT, AdminAction.RESUME, AdminAction.CLOSE_TRADING,
            AdminAction.OPEN_TRADING};

    private final long symbol;
    private final AdminCommand command = new AdminCommand();
    private long eventId;

    /** @param symbol the instrument the operator halts and closes (the others keep trading) */
    public AdminTurns(final long symbol) {
        this.symbol = symbol;
    }

    /** @return the commands of one turn */
    public static int commandsPerTurn() {
        return TURN.length;
    }

    /** Passes one turn's commands to {@code target}. */
    public void next(final AdminCommands target) {
        for (final AdminAction action : TURN) {
            command.metaData().clearTimestamps();
            command.metaData().sourceId(Journals.ADMIN_SOURCE_ID).eventId(++eventId);
            command.action(action).symbol(symbol);
            target.adminCommand(command);
        }
    }
}
