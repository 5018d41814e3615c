package io.sluice.contracts;

/**
 * The engine-wide kill switch ({@link AdminAction#KILL_SWITCH_ON}, {@link AdminAction#KILL_SWITCH_OFF}). Turning it on
 * cancels every resting order; while it is on every new order and replace is rejected ({@link
 * RejectReason#KILL_SWITCH_ON}) and cancels are still taken. Kept in engine snapshots.
 */
public enum KillSwitch {
    /** Orders are taken (subject to each instrument's session and halt). */
    OFF,
    /** No new orders or replaces. */
    ON;

    private static final KillSwitch[] VALUES = values();

    /** @return the state with this ordinal, or {@code null} if out of range (as stored in a snapshot). */
    public static KillSwitch fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
