package io.sluice.engine.book;

import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.OrderCommand;
import io.sluice.contracts.Side;
import io.sluice.contracts.SnapshotOrder;
import io.sluice.contracts.TimeInForce;

/**
 * An order the engine accepted: its owner, terms, fill state and place in the book. Its owner is a session,
 * named by the gateway it came in through and the client's SenderCompID together: the same CompID on two
 * gateways is two sessions. Instances are
 * pooled ({@link OrderPool}) and reused, never allocated per order. An order that completes (filled,
 * canceled, replaced by a successor) stays known for a while as a completed order ({@link CompletedOrders})
 * so that a late cancel gets "too late" rather than "unknown" and its ClOrdID stays taken.
 * <p>
 * Fills accumulate an exact fixed-point notional; {@link #avgPx()} divides it by CumQty, truncating.
 */
public final class Order {
    // terms
    private long orderId;
    private int gatewayId;
    private long session;
    private long firm;
    private long clOrdId;
    private long account;
    private long symbol;
    private Side side;
    private OrdType ordType;
    private TimeInForce timeInForce;
    private long orderQty;
    private long price;
    private long onBehalfOfCompId;
    private long deliverToCompId;
    // state
    private OrdStatus ordStatus;
    private long cumQty;
    private long notional;
    /** The slot of the order's firm in the engine's risk table ({@code engine.risk.FirmRisk}); -1 without one. */
    private int firmSlot = -1;
    /** With a firm slot: the index of the order's instrument in the config, so closing it needs no symbol lookup. */
    private int instrumentIndex = -1;
    // links, owned by PriceLevel and CompletedOrders
    PriceLevel level;
    Order previous;
    Order next;
    Order nextCompleted;

    /** Sets the terms from an accepted command; clears fill state and links. */
    public Order accept(final long orderId, final int gatewayId, final OrderCommand command) {
        this.orderId = orderId;
        this.gatewayId = gatewayId;
        session = command.session();
        firm = command.firm();
        clOrdId = command.clOrdId();
        account = command.account();
        symbol = command.symbol();
        side = command.side();
        ordType = command.ordType();
        timeInForce = command.timeInForce();
        orderQty = command.orderQty();
        price = command.price();
        onBehalfOfCompId = command.onBehalfOfCompId();
        deliverToCompId = command.deliverToCompId();
        ordStatus = OrdStatus.NEW;
        cumQty = 0;
        notional = 0;
        firmSlot = -1;
        instrumentIndex = -1;
        unlink();
        return this;
    }

    /**
     * Becomes the successor of {@code original} under a cancel/replace: same OrderID, owner (gateway, session,
     * firm) and fills, the replace's ClOrdID, account, quantity, price and routing.
     */
    public Order succeed(final Order original, final OrderCommand replace) {
        orderId = original.orderId;
        gatewayId = original.gatewayId;
        session = original.session;
        firm = original.firm;
        clOrdId = replace.clOrdId();
        account = replace.account();
        symbol = original.symbol;
        side = original.side;
        ordType = replace.ordType();
        timeInForce = replace.timeInForce();
        orderQty = replace.orderQty();
        price = replace.price();
        onBehalfOfCompId = replace.onBehalfOfCompId();
        deliverToCompId = replace.deliverToCompId();
        cumQty = original.cumQty;
        notional = original.notional;
        firmSlot = original.firmSlot;
        instrumentIndex = original.instrumentIndex;
        ordStatus = cumQty == 0 ? OrdStatus.NEW : cumQty == orderQty ? OrdStatus.FILLED : OrdStatus.PARTIALLY_FILLED;
        unlink();
        return this;
    }

    /**
     * Sets every field from a snapshot record: what {@link #accept}, {@link #succeed} and {@link #fill} had made of it;
     * clears the links. The inverse of {@link #snapshot}.
     */
    public Order restore(final SnapshotOrder snapshot) {
        orderId = snapshot.orderId();
        gatewayId = snapshot.gatewayId();
        session = snapshot.session();
        firm = snapshot.firm();
        clOrdId = snapshot.clOrdId();
        account = snapshot.account();
        symbol = snapshot.symbol();
        side = snapshot.side();
        ordType = snapshot.ordType();
        timeInForce = snapshot.timeInForce();
        orderQty = snapshot.orderQty();
        price = snapshot.price();
        onBehalfOfCompId = snapshot.onBehalfOfCompId();
        deliverToCompId = snapshot.deliverToCompId();
        ordStatus = snapshot.ordStatus();
        cumQty = snapshot.cumQty();
        notional = snapshot.notional();
        firmSlot = -1;
        instrumentIndex = -1;
        unlink();
        return this;
    }

    /** @return {@code snapshot}, holding everything this order knows, as {@link #restore} reads it back */
    public SnapshotOrder snapshot(final SnapshotOrder snapshot) {
        return snapshot.owner(orderId, gatewayId, session, firm)
                .terms(clOrdId, account, symbol, side, ordType, timeInForce, orderQty, price)
                .routing(onBehalfOfCompId, deliverToCompId)
                .state(ordStatus, cumQty, notional);
    }

    /** @return the slot of the order's firm in the engine's risk table, or -1 if the engine keeps no firm limits */
    public int firmSlot() {
        return firmSlot;
    }

    /** @return with a firm slot, the index of the order's instrument in the engine's config, else -1 */
    public int instrumentIndex() {
        return instrumentIndex;
    }

    /** Holds the order to its firm's limits: the firm's slot in the risk table, and its instrument's index in the config. */
    public void firmSlot(final int firmSlot, final int instrumentIndex) {
        this.firmSlot = firmSlot;
        this.instrumentIndex = instrumentIndex;
    }

    /** Records a fill of {@code qty} at {@code price} (fixed point) and updates the status. */
    public void fill(final long qty, final long fillPrice) {
        cumQty += qty;
        notional += qty * fillPrice;
        ordStatus = cumQty == orderQty ? OrdStatus.FILLED : OrdStatus.PARTIALLY_FILLED;
    }

    /**
     * Routes the order's reports from now on as a request of its client asked: the OnBehalfOfCompID (115) and
     * DeliverToCompID (128) it came with, as sent.
     */
    public void route(final long onBehalfOfCompId, final long deliverToCompId) {
        this.onBehalfOfCompId = onBehalfOfCompId;
        this.deliverToCompId = deliverToCompId;
    }

    /** @return the OnBehalfOfCompID (115) the client gave the order, or 0. */
    public long onBehalfOfCompId() {
        return onBehalfOfCompId;
    }

    /** @return the DeliverToCompID (128) the client gave the order, or 0. */
    public long deliverToCompId() {
        return deliverToCompId;
    }

    void unlink() {
        level = null;
        previous = null;
        next = null;
        nextCompleted = null;
    }

    public long orderId() {
        return orderId;
    }

    /** @return the gateway the order came in through; its reports go there. */
    public int gatewayId() {
        return gatewayId;
    }

    /** @return the client's SenderCompID; with {@link #gatewayId()} it names the owning session. */
    public long session() {
        return session;
    }

    /** @return the owning session's firm, or 0 if it has none. */
    public long firm() {
        return firm;
    }

    /** @return true if this order belongs to session {@code session} of gateway {@code gatewayId}. */
    public boolean isOwnedBy(final int gatewayId, final long session) {
        return this.session == session && this.gatewayId == gatewayId;
    }

    /**
     * @return true if this order and {@code other} must never trade with each other (self-match prevention):
     *         they belong to the same session, or to sessions of the same firm
     */
    public boolean selfMatches(final Order other) {
        return other.isOwnedBy(gatewayId, session) || (firm != 0 && firm == other.firm);
    }

    /** @return the order's current ClOrdID (the latest replace's, if replaced). */
    public long clOrdId() {
        return clOrdId;
    }

    public long account() {
        return account;
    }

    public long symbol() {
        return symbol;
    }

    public Side side() {
        return side;
    }

    public OrdType ordType() {
        return ordType;
    }

    public TimeInForce timeInForce() {
        return timeInForce;
    }

    public long orderQty() {
        return orderQty;
    }

    /** @return the limit price, fixed point; for market orders whatever the command carried. */
    public long price() {
        return price;
    }

    public OrdStatus ordStatus() {
        return ordStatus;
    }

    public void ordStatus(final OrdStatus ordStatus) {
        this.ordStatus = ordStatus;
    }

    public long cumQty() {
        return cumQty;
    }

    /** @return the quantity still open: OrderQty − CumQty while live, 0 once completed. */
    public long leavesQty() {
        return isCompleted() ? 0 : orderQty - cumQty;
    }

    /** @return the sum of quantity times price over the fills, fixed point: what {@link #avgPx()} is computed from */
    public long notional() {
        return notional;
    }

    /** @return the order behind this one at its price level (time priority), or null */
    public Order nextInLevel() {
        return next;
    }

    /** @return the order completed after this one ({@link CompletedOrders}), or null */
    public Order nextCompleted() {
        return nextCompleted;
    }

    /** @return the average fill price, fixed point, truncated toward zero; 0 before any fill. */
    public long avgPx() {
        return cumQty == 0 ? 0 : notional / cumQty;
    }

    /** @return true once filled, canceled, expired or replaced: no longer in a book. */
    public boolean isCompleted() {
        return ordStatus == OrdStatus.FILLED || ordStatus == OrdStatus.CANCELED || ordStatus == OrdStatus.REPLACED
                || ordStatus == OrdStatus.EXPIRED;
    }

    public boolean isBuy() {
        return side == Side.BUY;
    }
}
