package io.sluice.contracts;

/**
 * Whether an operator has halted an instrument ({@link AdminAction#HALT}, {@link AdminAction#RESUME}). A halt stops new
 * orders and replaces but leaves resting orders in the book and takes cancels, whatever the trading session.
 * Kept in engine snapshots.
 */
public enum TradingHalt {
    /** Not halted. */
    NOT_HALTED,
    /** Halted: new orders and replaces are rejected ({@link RejectReason#INSTRUMENT_HALTED}). */
    HALTED;

    private static final TradingHalt[] VALUES = values();

    /** @return the state with this ordinal, or {@code null} if out of range (as stored in a snapshot). */
    public static TradingHalt fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
