package io.sluice.contracts;

/**
 * Why the engine rejected an order or a request. Each reason carries the FIX code a client sees
 * (OrdRejReason, tag 103, on execution reports; CxlRejReason, tag 102, on cancel rejects) and the
 * fixed text the gateway sends in Text (tag 58). Keeping the text here, not in the journal, keeps
 * reports allocation-free and the wording in one place.
 */
public enum RejectReason {
    NONE(0, ""),
    UNKNOWN_SYMBOL(1, "Unknown symbol"),
    UNSUPPORTED_SIDE(11, "Unsupported side: only buy and sell are traded"),
    UNSUPPORTED_ORD_TYPE(11, "Unsupported order type: only market and limit orders are traded"),
    UNSUPPORTED_TIME_IN_FORCE(11, "Unsupported time in force: only day, good till cancel, IOC and FOK are accepted"),
    MARKET_ORDER_DAY(11, "Market orders must be IOC or FOK"),
    QUANTITY_NOT_POSITIVE(13, "Order quantity must be positive"),
    QUANTITY_OFF_LOT(13, "Order quantity is not a multiple of the lot size"),
    QUANTITY_OVER_LIMIT(3, "Order quantity exceeds the instrument's maximum"),
    NOTIONAL_OVER_LIMIT(3, "Order notional exceeds the instrument's maximum"),
    PRICE_NOT_POSITIVE(99, "Limit price must be positive"),
    PRICE_OFF_TICK(99, "Price is not a multiple of the tick size"),
    PRICE_OUTSIDE_BAND(99, "Price is outside the instrument's price band"),
    DUPLICATE_CL_ORD_ID(6, "Duplicate ClOrdID in this session"),
    NO_LIQUIDITY(99, "No liquidity to execute against"),
    FOK_NOT_FILLABLE(99, "Fill-or-kill order cannot be filled in full"),
    SELF_MATCH_PREVENTED(99, "Order would trade against the same session's resting order"),
    UNKNOWN_ORDER(1, "Unknown order: no open order with that OrigClOrdID in this session"),
    ORDER_ALREADY_DONE(0, "Too late: the order is already filled or canceled"),
    REPLACE_CHANGES_SYMBOL_OR_SIDE(99, "A replace may not change the symbol or side"),
    REPLACE_QUANTITY_BELOW_FILLED(99, "A replace may not reduce the quantity below what has been filled"),
    ENGINE_CAPACITY_REACHED(99, "Engine capacity reached: too many open orders or price levels"),
    OUTSIDE_TRADING_SESSION(2, "Outside the trading session: the instrument is closed"),
    INSTRUMENT_HALTED(99, "Trading in the instrument is halted"),
    KILL_SWITCH_ON(99, "Trading is stopped: the kill switch is on"),
    FIRM_MAX_OPEN_ORDERS(99, "Firm limit maxOpenOrders reached:", FirmLimit.MAX_OPEN_ORDERS),
    FIRM_MAX_OPEN_NOTIONAL(99, "Firm limit maxOpenNotional exceeded on this side:", FirmLimit.MAX_OPEN_NOTIONAL),
    FIRM_MAX_POSITION(99, "Firm limit maxPosition exceeded in this instrument:", FirmLimit.MAX_POSITION),
    FIRM_MAX_ORDERS_PER_SECOND(99, "Firm limit maxOrdersPerSecond reached:", FirmLimit.MAX_ORDERS_PER_SECOND),
    FIRM_PRICE_COLLAR(99, "Firm limit priceCollar: price too far from the last trade or BBO, in basis points:",
            FirmLimit.PRICE_COLLAR),
    FIRM_MAX_ORDER_NOTIONAL(3, "Firm limit maxOrderNotional exceeded:", FirmLimit.MAX_ORDER_NOTIONAL),
    FIRM_KILL_SWITCH_ON(99, "Trading is stopped for the firm: its kill switch is on"),
    FIRM_KILL_SWITCH_TRIPPED(99, "Trading is stopped for the firm: its kill switch tripped, limit killOnRejectsPerSecond:",
            FirmLimit.KILL_ON_REJECTS_PER_SECOND),
    SESSION_KILL_SWITCH_ON(99, "Trading is stopped for the session: its kill switch is on"),
    FIRM_CAPACITY_REACHED(99, "Engine capacity reached: too many firms (risk.maxFirms)"),
    LEASE_LAPSED(99, "Not accepting orders: this primary lost its replication lease (no write acknowledged by Kafka within the lease)"),
    PRIMARY_FENCED(99, "Not accepting orders: this primary was fenced by a newer primary");

    private final int fixCode;
    private final String text;
    private final FirmLimit limit;

    RejectReason(final int fixCode, final String text) {
        this(fixCode, text, null);
    }

    RejectReason(final int fixCode, final String text, final FirmLimit limit) {
        this.fixCode = fixCode;
        this.text = text;
        this.limit = limit;
    }

    /**
     * @return the firm limit this reason names, whose value the report carries ({@link Report#limitValue()}) and Text
     *         shows after {@link #text()}; null for reasons that name none
     */
    public FirmLimit limit() {
        return limit;
    }

    /** Appends what Text (58) says: {@link #text()}, then the limit's value ({@code limitValue}) if it names one. */
    public void appendText(final StringBuilder out, final long limitValue) {
        out.append(text);
        if (limit != null) {
            out.append(' ');
            limit.appendValue(out, limitValue);
        }
    }

    /** @return the value for OrdRejReason (103) or CxlRejReason (102). */
    public int fixCode() {
        return fixCode;
    }

    /** @return the human-readable reason for Text (58). */
    public String text() {
        return text;
    }

    private static final RejectReason[] VALUES = values();

    /** @return the reason with this ordinal, or {@code NONE} if out of range (as stored in the journal). */
    public static RejectReason fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : NONE;
    }
}
