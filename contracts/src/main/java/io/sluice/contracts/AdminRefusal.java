package io.sluice.contracts;

/**
 * Why an admin command was refused, with the text {@code ./sluice admin} prints. Kept here, not in the journal, so
 * outcomes stay fixed-size and the wording lives in one place.
 */
public enum AdminRefusal {
    NONE(""),
    UNKNOWN_INSTRUMENT("no such instrument in the engine's config"),
    UNKNOWN_SESSION("no such session on that gateway"),
    ALREADY_HALTED("the instrument is already halted"),
    NOT_HALTED("the instrument is not halted"),
    KILL_SWITCH_ALREADY_ON("the kill switch is already on"),
    KILL_SWITCH_ALREADY_OFF("the kill switch is already off"),
    TRADING_ALREADY_OPEN("the trading session is already open"),
    TRADING_ALREADY_CLOSED("the trading session is already closed"),
    SESSION_NOT_CONNECTED("the session is not connected"),
    BAD_SEQUENCE_NUMBER("sequence numbers must be at least 1"),
    MALFORMED_COMMAND("the command lacks a field its action needs"),
    SESSION_CONNECTED("the session is logged on: disconnect it first");

    private static final AdminRefusal[] VALUES = values();

    private final String text;

    AdminRefusal(final String text) {
        this.text = text;
    }

    /** @return the human-readable reason. */
    public String text() {
        return text;
    }

    /** @return the refusal with this ordinal, or {@code NONE} if out of range (as stored in the journal). */
    public static AdminRefusal fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : NONE;
    }
}
