package io.sluice.engine.risk;

import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.Side;
import io.sluice.contracts.SnapshotFirm;
import io.sluice.contracts.SnapshotFirmPosition;
import io.sluice.engine.config.FirmLimitsConfig;

import java.util.Arrays;

/**
 * One firm's limits and what it uses of them, across all its sessions and gateways. Open orders, open notional per
 * side, filled position and open quantity per instrument, orders and limit rejects in the current second of journal
 * time, and its {@link FirmKillSwitch}. Checks are exact fixed-point integer arithmetic; nothing is allocated after
 * construction.
 */
public final class FirmExposure {
    /** Ticks (0.1 µs, {@code MetaData}) in one second of journal time. */
    static final long TICKS_PER_SECOND = 10_000_000L;
    private static final long BASIS_POINTS = 10_000L;
    private static final int POSITION = 0;
    private static final int OPEN_BUY = 1;
    private static final int OPEN_SELL = 2;
    private static final int PER_INSTRUMENT = 3;
    /** How many limits {@link #state} holds first; each instrument's exposure follows. */
    private static final int LIMITS = FirmLimit.values().length;
    // The limits' places in {@link #state}, read as constants on the checks' path (no enum load per check).
    private static final int MAX_OPEN_ORDERS = FirmLimit.MAX_OPEN_ORDERS.ordinal();
    private static final int MAX_OPEN_NOTIONAL = FirmLimit.MAX_OPEN_NOTIONAL.ordinal();
    private static final int MAX_POSITION = FirmLimit.MAX_POSITION.ordinal();
    private static final int MAX_ORDERS_PER_SECOND = FirmLimit.MAX_ORDERS_PER_SECOND.ordinal();
    private static final int PRICE_COLLAR = FirmLimit.PRICE_COLLAR.ordinal();
    private static final int MAX_ORDER_NOTIONAL = FirmLimit.MAX_ORDER_NOTIONAL.ordinal();
    private static final int KILL_ON_REJECTS_PER_SECOND = FirmLimit.KILL_ON_REJECTS_PER_SECOND.ordinal();

    private final int slot;
    /**
     * The limits (by {@link FirmLimit} ordinal), then per instrument, side by side: filled net position, open buy
     * quantity, open sell quantity, at {@code LIMITS + instrument * PER_INSTRUMENT} plus {@link #POSITION},
     * {@link #OPEN_BUY}, {@link #OPEN_SELL}. One array, so an order's checks and updates read few cache lines.
     */
    private final long[] state;
    private long firm;
    private FirmKillSwitch killSwitch = FirmKillSwitch.OFF;
    private long openOrders;
    private long openBuyNotional;
    private long openSellNotional;
    private long orderSecond = -1;
    private long ordersInSecond;
    private long rejectSecond = -1;
    private long rejectsInSecond;
    private long limitRejects;

    FirmExposure(final int slot, final int instruments) {
        this.slot = slot;
        state = new long[LIMITS + instruments * PER_INSTRUMENT];
    }

    /** Starts keeping {@code firm} with the limits of {@code config}; everything it used is zero. */
    void start(final long firm, final FirmLimitsConfig config) {
        this.firm = firm;
        for (int i = 0; i < LIMITS; i++) {
            state[i] = config.value(FirmLimit.fromOrdinal(i));
        }
        killSwitch = FirmKillSwitch.OFF;
        openOrders = 0;
        openBuyNotional = 0;
        openSellNotional = 0;
        Arrays.fill(state, LIMITS, state.length, 0);
        orderSecond = -1;
        ordersInSecond = 0;
        rejectSecond = -1;
        rejectsInSecond = 0;
        limitRejects = 0;
    }

    /** Writes this firm's state, all but its per-instrument exposure, into {@code record} for a snapshot. */
    public SnapshotFirm snapshot(final SnapshotFirm record) {
        record.firm(slot, firm).killSwitch(killSwitch.ordinal())
                .open(openOrders, openBuyNotional, openSellNotional)
                .rates(orderSecond, ordersInSecond, rejectSecond, rejectsInSecond, limitRejects);
        for (final FirmLimit limit : FirmLimit.values()) {
            record.limit(limit, state[limit.ordinal()]);
        }
        return record;
    }

    /**
     * Writes this firm's exposure in the {@code instrument}-th instrument, {@code symbol}, into {@code record}.
     *
     * @return false if it has none there (nothing filled or open), and {@code record} is left as it was
     */
    public boolean snapshotPosition(final int instrument, final long symbol, final SnapshotFirmPosition record) {
        final int at = LIMITS + instrument * PER_INSTRUMENT;
        final long position = state[at + POSITION];
        final long openBuyQty = state[at + OPEN_BUY];
        final long openSellQty = state[at + OPEN_SELL];
        if (position == 0 && openBuyQty == 0 && openSellQty == 0) {
            return false;
        }
        record.set(slot, symbol, position, openBuyQty, openSellQty);
        return true;
    }

    /** Takes the state of a snapshot's {@code record} of this firm, after {@link #start}: the inverse of {@link #snapshot}. */
    void restore(final SnapshotFirm record) {
        final FirmKillSwitch restored = FirmKillSwitch.fromOrdinal(record.killSwitch());
        if (restored == null) {
            throw new IllegalStateException("firm slot " + slot + ": an unknown kill switch state " + record.killSwitch());
        }
        for (final FirmLimit limit : FirmLimit.values()) {
            state[limit.ordinal()] = record.limit(limit);
        }
        killSwitch = restored;
        openOrders = record.openOrders();
        openBuyNotional = record.openBuyNotional();
        openSellNotional = record.openSellNotional();
        orderSecond = record.orderSecond();
        ordersInSecond = record.ordersInSecond();
        rejectSecond = record.rejectSecond();
        rejectsInSecond = record.rejectsInSecond();
        limitRejects = record.limitRejects();
    }

    /** Takes a snapshot's exposure of this firm in the {@code instrument}-th instrument: the inverse of {@link #snapshotPosition}. */
    void restorePosition(final int instrument, final SnapshotFirmPosition record) {
        final int at = LIMITS + instrument * PER_INSTRUMENT;
        state[at + POSITION] = record.position();
        state[at + OPEN_BUY] = record.openBuyQty();
        state[at + OPEN_SELL] = record.openSellQty();
    }

    /** @return this firm's slot in the {@link FirmRisk} table, which its orders carry */
    public int slot() {
        return slot;
    }

    /** @return the firm (a session without a firm: its CompID), packed short text */
    public long firm() {
        return firm;
    }

    /** @return the value of {@code limit}, or {@link FirmLimit#NONE} */
    public long limit(final FirmLimit limit) {
        return state[limit.ordinal()];
    }

    void limit(final FirmLimit limit, final long value) {
        state[limit.ordinal()] = value;
    }

    public FirmKillSwitch killSwitch() {
        return killSwitch;
    }

    void killSwitch(final FirmKillSwitch state) {
        killSwitch = state;
        rejectSecond = -1;
        rejectsInSecond = 0;
    }

    public long openOrders() {
        return openOrders;
    }

    /** @return quantity × price of the firm's open orders on {@code side}, fixed point */
    public long openNotional(final Side side) {
        return side == Side.BUY ? openBuyNotional : openSellNotional;
    }

    /** @return the firm's net filled quantity in the {@code instrument}-th instrument of the config (short: negative) */
    public long position(final int instrument) {
        return state[LIMITS + instrument * PER_INSTRUMENT + POSITION];
    }

    /** @return orders and replaces taken in the second of journal time {@code second}, the latest one seen */
    public long ordersInSecond() {
        return ordersInSecond;
    }

    /** @return how many orders and replaces were refused by one of the firm's limits */
    public long limitRejects() {
        return limitRejects;
    }

    /** @return why the firm takes no orders now (its kill switch), or {@link RejectReason#NONE} */
    RejectReason admission() {
        return switch (killSwitch) {
            case OFF -> RejectReason.NONE;
            case ON -> RejectReason.FIRM_KILL_SWITCH_ON;
            case TRIPPED -> RejectReason.FIRM_KILL_SWITCH_TRIPPED;
        };
    }

    /**
     * @return the first limit a new order breaks, or {@link RejectReason#NONE}: order notional, price collar, open
     *         orders, open notional on its side, position if it filled, orders this second
     * @param riskPrice  the price its notional is counted at (its limit price; a market order's worst, the band's top)
     * @param limitPrice its limit price, 0 for a market order (no collar)
     * @param reference  the instrument's last trade price, else the BBO's middle, else 0 (no collar)
     * @param second     the second of journal time the order was written in
     */
    RejectReason checkNew(final int instrument, final Side side, final long qty, final long riskPrice,
                          final long limitPrice, final long reference, final long second) {
        final long notional = qty * riskPrice;
        final RejectReason terms = checkTerms(notional, limitPrice, reference);
        if (terms != RejectReason.NONE) {
            return terms;
        }
        if (openOrders >= state[MAX_OPEN_ORDERS]) {
            return RejectReason.FIRM_MAX_OPEN_ORDERS;
        }
        return checkExposure(instrument, side, qty, notional, second);
    }

    /**
     * @return the first limit a replace breaks, or {@link RejectReason#NONE}: as {@link #checkNew}, with the open
     *         exposure the original order counts for taken out ({@code oldLeaves} at {@code oldRiskPrice}); the number
     *         of open orders does not change
     */
    RejectReason checkReplace(final int instrument, final Side side, final long oldLeaves, final long oldRiskPrice,
                              final long newQty, final long newLeaves, final long newPrice, final long reference,
                              final long second) {
        final RejectReason terms = checkTerms(newQty * newPrice, newPrice, reference);
        if (terms != RejectReason.NONE) {
            return terms;
        }
        return checkExposure(instrument, side, newLeaves - oldLeaves, newLeaves * newPrice - oldLeaves * oldRiskPrice,
                second);
    }

    /** @param notional the order's quantity × its risk price, fixed point */
    private RejectReason checkTerms(final long notional, final long limitPrice, final long reference) {
        if (notional > state[MAX_ORDER_NOTIONAL]) {
            return RejectReason.FIRM_MAX_ORDER_NOTIONAL;
        }
        final long collar = state[PRICE_COLLAR];
        if (collar != FirmLimit.NONE && limitPrice != 0 && reference != 0
                && exceeds(Math.abs(limitPrice - reference), BASIS_POINTS, collar, reference)) {
            return RejectReason.FIRM_PRICE_COLLAR;
        }
        return RejectReason.NONE;
    }

    /** Only what grows is checked: a replace that lowers the firm's exposure is never refused for it. */
    private RejectReason checkExposure(final int instrument, final Side side, final long addedQty,
                                       final long addedNotional, final long second) {
        final boolean buy = side == Side.BUY;
        final long maxNotional = state[MAX_OPEN_NOTIONAL];
        if (maxNotional != FirmLimit.NONE && addedNotional > 0 && (buy ? openBuyNotional : openSellNotional) + addedNotional > maxNotional) {
            return RejectReason.FIRM_MAX_OPEN_NOTIONAL;
        }
        final long maxPosition = state[MAX_POSITION];
        if (maxPosition != FirmLimit.NONE && addedQty > 0) {
            // The position if every open order of this side filled, this one included.
            final int at = LIMITS + instrument * PER_INSTRUMENT;
            final long worst = buy ? state[at + POSITION] + state[at + OPEN_BUY] + addedQty
                    : state[at + OPEN_SELL] + addedQty - state[at + POSITION];
            if (worst > maxPosition) {
                return RejectReason.FIRM_MAX_POSITION;
            }
        }
        if ((second == orderSecond ? ordersInSecond : 0) >= state[MAX_ORDERS_PER_SECOND]) {
            return RejectReason.FIRM_MAX_ORDERS_PER_SECOND;
        }
        return RejectReason.NONE;
    }

    /**
     * Counts a request refused by one of the firm's limits, in the second of journal time it was written in.
     *
     * @return true if that trips the firm's kill switch ({@code killOnRejectsPerSecond} reached)
     */
    boolean onLimitReject(final long second) {
        limitRejects++;
        if (second != rejectSecond) {
            rejectSecond = second;
            rejectsInSecond = 0;
        }
        rejectsInSecond++;
        if (killSwitch == FirmKillSwitch.OFF
                && rejectsInSecond >= state[KILL_ON_REJECTS_PER_SECOND]) {
            killSwitch = FirmKillSwitch.TRIPPED;
            return true;
        }
        return false;
    }

    /**
     * A new order of the firm was accepted and has matched: {@code filled} of it filled at once and it rests with
     * {@code leaves} (0: it is done). The same as its acceptance, its fills and its close one after the other, in one
     * update: the fills and the close take out of the open exposure what the acceptance put in, but what rests.
     */
    void onNewOrder(final int instrument, final Side side, final long filled, final long leaves, final long riskPrice,
                    final long second) {
        final int at = LIMITS + instrument * PER_INSTRUMENT;
        if (side == Side.BUY) {
            state[at + POSITION] += filled;
            if (leaves != 0) {
                state[at + OPEN_BUY] += leaves;
                openBuyNotional += leaves * riskPrice;
                openOrders++;
            }
        } else {
            state[at + POSITION] -= filled;
            if (leaves != 0) {
                state[at + OPEN_SELL] += leaves;
                openSellNotional += leaves * riskPrice;
                openOrders++;
            }
        }
        countOrder(second);
    }

    /** A replace was accepted: the successor's open quantity and notional stand for the original's. */
    void onReplaced(final int instrument, final Side side, final long oldLeaves, final long oldRiskPrice,
                    final long newLeaves, final long newRiskPrice, final long second) {
        addOpen(instrument, side, newLeaves - oldLeaves, newLeaves * newRiskPrice - oldLeaves * oldRiskPrice);
        countOrder(second);
    }

    /** An open order of the firm filled {@code qty}; {@code last}: that filled it, it is no longer open. */
    void onFill(final int instrument, final Side side, final long qty, final long riskPrice, final boolean last) {
        state[LIMITS + instrument * PER_INSTRUMENT + POSITION] += side == Side.BUY ? qty : -qty;
        addOpen(instrument, side, -qty, -qty * riskPrice);
        if (last) {
            openOrders--;
        }
    }

    /** An order of the firm is no longer open (filled, canceled, expired), {@code leaves} of it unfilled. */
    void onClosed(final int instrument, final Side side, final long leaves, final long riskPrice) {
        openOrders--;
        addOpen(instrument, side, -leaves, -leaves * riskPrice);
    }

    private void addOpen(final int instrument, final Side side, final long qty, final long notional) {
        if (side == Side.BUY) {
            state[LIMITS + instrument * PER_INSTRUMENT + OPEN_BUY] += qty;
            openBuyNotional += notional;
        } else {
            state[LIMITS + instrument * PER_INSTRUMENT + OPEN_SELL] += qty;
            openSellNotional += notional;
        }
    }

    private void countOrder(final long second) {
        if (second != orderSecond) {
            orderSecond = second;
            ordersInSecond = 0;
        }
        ordersInSecond++;
    }

    /** @return whether {@code a × b > c × d}, exactly, for values from 0 to {@code Long.MAX_VALUE} */
    static boolean exceeds(final long a, final long b, final long c, final long d) {
        final long highLeft = Math.multiplyHigh(a, b);
        final long highRight = Math.multiplyHigh(c, d);
        if (highLeft != highRight) {
            return highLeft > highRight;
        }
        return Long.compareUnsigned(a * b, c * d) > 0;
    }
}
