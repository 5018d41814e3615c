package io.sluice.tools.tail;

/**
 * The tail's view of one gateway as a source of inputs: its command journal (if present), the join window
 * of its recent inputs, and the last eventId seen in its command journal and in the engine journal, used to
 * find gaps and to know how far each journal has to be read before a record can be matched.
 */
final class Source {
    private static final long NONE = Long.MIN_VALUE;

    private final int id;
    private final JoinWindow window;
    private CommandStream commands;
    private long lastCommand = NONE;
    private long lastInput = NONE;
    private long commandsRead;
    private long commandsAnswered;

    Source(final int id, final int windowCapacity) {
        this.id = id;
        this.window = new JoinWindow(windowCapacity);
    }

    JoinWindow window() {
        return window;
    }

    void attach(final CommandStream commands) {
        this.commands = commands;
    }

    /** Reads this gateway's command journal until it reaches {@code eventId} or has nothing more. */
    void readCommandsUpTo(final long eventId) {
        while ((lastCommand == NONE || lastCommand < eventId) && commands != null && commands.readOne()) {
            // each command read updates lastCommand
        }
    }

    /** @return whether the engine journal has already reached input {@code eventId} of this gateway. */
    boolean inputReached(final long eventId) {
        return lastInput != NONE && lastInput >= eventId;
    }

    /** Checks a command's eventId against the previous one and remembers the command. */
    void commandRead(final long eventId, final long session, final Findings findings) {
        if (lastCommand != NONE) {
            if (eventId > lastCommand + 1) {
                findings.missingEventIds(id, lastCommand, eventId);
            } else if (eventId <= lastCommand) {
                findings.repeatedEventId(id, lastCommand, eventId);
            }
        }
        if (lastCommand == NONE || eventId > lastCommand) {
            lastCommand = eventId;
        }
        commandsRead++;
        window.command(eventId, session);
    }

    /**
     * Checks a report's input against the previous input of this gateway in the engine journal: commands
     * of the inputs in between are inputs the engine skipped (ids missing from the gateway journal are not).
     *
     * @return whether this report is the first for its input
     */
    boolean reportRead(final long eventId, final Findings findings) {
        if (lastInput == eventId) {
            return false;
        }
        if (lastInput != NONE) {
            final long skipped = eventId > lastInput + 1 ? window.commandsBetween(lastInput + 1, eventId - 1) : 0;
            if (skipped > 0) {
                findings.skippedInputs(id, lastInput, eventId, skipped);
            } else if (eventId < lastInput) {
                findings.reorderedInput(id, lastInput, eventId);
            }
        }
        if (lastInput == NONE || eventId > lastInput) {
            lastInput = eventId;
        }
        return true;
    }

    void commandAnswered() {
        commandsAnswered++;
    }

    /** @return commands read whose input has not (yet) been seen in the engine journal. */
    long commandsWithoutReport() {
        return commandsRead - commandsAnswered;
    }
}
