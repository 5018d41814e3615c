package io.sluice.engine.risk;

/**
 * A firm's own kill switch: while it is not {@link #OFF} the firm's new orders and replaces are rejected. Turning it on
 * canceled every resting order of the firm. Only {@code FIRM_KILL_SWITCH_OFF} turns it off again.
 */
public enum FirmKillSwitch {
    /** The firm's orders are taken (subject to its limits). */
    OFF,
    /** An operator turned it on (FIRM_KILL_SWITCH_ON). */
    ON,
    /** The firm's limit rejects in one second reached its {@code killOnRejectsPerSecond}. */
    TRIPPED;

    private static final FirmKillSwitch[] VALUES = values();

    /** @return the state of that ordinal (as a snapshot holds it), or null if there is none */
    public static FirmKillSwitch fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
