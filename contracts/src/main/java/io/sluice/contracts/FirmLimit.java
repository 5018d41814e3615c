package io.sluice.contracts;

/**
 * One pre-trade limit a firm's orders are held to in the engine, as the engine YAML names it and {@code ./sluice admin
 * limit} sets it. Each has the unit its value is in, and the largest value that is not absurd. A firm's sessions on
 * every gateway share its limits; a session without a firm is its own firm, named by its CompID.
 */
public enum FirmLimit {
    /** Orders of the firm open at once (resting, or trading as they arrive). */
    MAX_OPEN_ORDERS("maxOpenOrders", Unit.COUNT, 1L << 28),
    /** Quantity × price of the firm's open orders, on each side separately, fixed point. */
    MAX_OPEN_NOTIONAL("maxOpenNotional", Unit.NOTIONAL, Long.MAX_VALUE / 4),
    /** The firm's net filled quantity in one instrument, long or short, if every open order on that side filled too. */
    MAX_POSITION("maxPosition", Unit.QUANTITY, Long.MAX_VALUE / 4),
    /** New orders and replaces in one second of journal time (the gateway's command-writing time). */
    MAX_ORDERS_PER_SECOND("maxOrdersPerSecond", Unit.COUNT, 1L << 28),
    /** How far a limit price may be from the last trade (or, before any, the BBO's middle), in basis points. */
    PRICE_COLLAR("priceCollar", Unit.BASIS_POINTS, 10_000),
    /** Quantity × price of one order, fixed point. */
    MAX_ORDER_NOTIONAL("maxOrderNotional", Unit.NOTIONAL, Long.MAX_VALUE / 4),
    /** Limit rejects in one second of journal time that turn the firm's kill switch on. */
    KILL_ON_REJECTS_PER_SECOND("killOnRejectsPerSecond", Unit.COUNT, 1L << 28);

    /** What a limit's value counts. */
    public enum Unit {
        COUNT,
        QUANTITY,
        /** Fixed point, as prices ({@link Price}). */
        NOTIONAL,
        BASIS_POINTS
    }

    /** The value of a limit that is not set: nothing is checked. */
    public static final long NONE = Long.MAX_VALUE;

    private static final FirmLimit[] VALUES = values();

    private final String configName;
    private final Unit unit;
    private final long maxValue;

    FirmLimit(final String configName, final Unit unit, final long maxValue) {
        this.configName = configName;
        this.unit = unit;
        this.maxValue = maxValue;
    }

    /** @return the name in the engine YAML, in {@code ./sluice admin limit} and in reject texts, e.g. maxOpenOrders */
    public String configName() {
        return configName;
    }

    public Unit unit() {
        return unit;
    }

    /** @return the largest value the limit may be set to; larger ones are refused as absurd */
    public long maxValue() {
        return maxValue;
    }

    /** Appends {@code value} as the limit's unit reads: a decimal for notionals, a whole number otherwise. */
    public void appendValue(final StringBuilder text, final long value) {
        if (value == NONE) {
            text.append("none");
        } else if (unit == Unit.NOTIONAL) {
            Price.Text.appendTo(text, value);
        } else {
            text.append(value);
        }
    }

    /** @return the limit this YAML or command-line name names, or null */
    public static FirmLimit ofConfigName(final String name) {
        for (final FirmLimit limit : VALUES) {
            if (limit.configName.equals(name)) {
                return limit;
            }
        }
        return null;
    }

    /** @return the limit with this ordinal, or {@code null} if out of range (as stored in the journal). */
    public static FirmLimit fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
