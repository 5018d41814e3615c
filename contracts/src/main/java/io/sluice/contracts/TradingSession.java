package io.sluice.contracts;

/**
 * Whether an instrument's trading session is open: new orders and replaces are taken only while it is. Changed by
 * {@link AdminAction#OPEN_TRADING} and {@link AdminAction#CLOSE_TRADING} (from an operator or the trading-session
 * scheduler); at a close, resting DAY orders expire and GTC orders stay. Kept in engine snapshots.
 */
public enum TradingSession {
    /** Orders are taken. */
    OPEN,
    /** Outside the session: new orders and replaces are rejected ({@link RejectReason#OUTSIDE_TRADING_SESSION}). */
    CLOSED;

    private static final TradingSession[] VALUES = values();

    /** @return the state with this ordinal, or {@code null} if out of range (as stored in a snapshot). */
    public static TradingSession fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
