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
    SESSION_CONNECTED("the session is logged on: disconnect it first"),
    UNKNOWN_FIRM("no such firm: neither in the engine's risk config nor seen in an order"),
    BAD_LIMIT_VALUE("the limit must be 0 or more and at most its maximum (see ./sluice admin limits)"),
    NO_FIRM_LIMITS("the engine has no risk section in its config: firm limits are off"),
    FIRM_KILL_SWITCH_ALREADY_ON("the firm's kill switch is already on"),
    FIRM_KILL_SWITCH_ALREADY_OFF("the firm's kill switch is already off"),
    SESSION_KILL_SWITCH_ALREADY_ON("the session's kill switch is already on"),
    SESSION_KILL_SWITCH_ALREADY_OFF("the session's kill switch is already off"),
    TOO_MANY_SESSION_KILL_SWITCHES("too many sessions have their kill switch on (risk.maxFirms)"),
    LEASE_ALREADY_LAPSED("the primary's lease has lapsed already"),
    LEASE_HELD("the primary's lease is held"),
    PRIMARY_FENCED("this primary was fenced by a newer primary: it never takes orders again");

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
