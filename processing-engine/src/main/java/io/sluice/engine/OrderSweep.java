package io.sluice.engine;

import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.engine.book.Order;

/**
 * Which resting orders one sweep of the books takes (a mass cancel, an admin cancel, the kill switch, the expiry of
 * DAY orders at a close): an owner (one session, one firm, or anyone), a side (or both) and a time in force (or any). One
 * instance, set before each sweep: nothing is allocated per sweep.
 */
final class OrderSweep {
    /** Whose orders a sweep takes. */
    enum Owners {
        /** Only the orders of one session (a gateway and a client SenderCompID). */
        ONE_SESSION,
        /** Only the orders of one firm, on every session and gateway (its slot in the risk table). */
        ONE_FIRM,
        /** Every owner's. */
        ANYONE
    }

    private Owners owners = Owners.ANYONE;
    private int gatewayId;
    private long session;
    private int firmSlot = -1;
    private Side side;
    private TimeInForce timeInForce;

    /** Takes only the orders of session {@code session} of gateway {@code gatewayId}, of both sides and any time in force. */
    OrderSweep ofSession(final int gatewayId, final long session) {
        owners = Owners.ONE_SESSION;
        this.gatewayId = gatewayId;
        this.session = session;
        firmSlot = -1;
        side = null;
        timeInForce = null;
        return this;
    }

    /** Takes only the orders of the firm in risk table slot {@code firmSlot}, of both sides and any time in force. */
    OrderSweep ofFirm(final int firmSlot) {
        owners = Owners.ONE_FIRM;
        gatewayId = 0;
        session = 0;
        this.firmSlot = firmSlot;
        side = null;
        timeInForce = null;
        return this;
    }

    /** Takes every owner's orders, of both sides and any time in force. */
    OrderSweep ofAnyone() {
        owners = Owners.ANYONE;
        gatewayId = 0;
        session = 0;
        firmSlot = -1;
        side = null;
        timeInForce = null;
        return this;
    }

    /** Narrows the sweep to orders of {@code side}; null for both sides. */
    OrderSweep side(final Side side) {
        this.side = side;
        return this;
    }

    /** Narrows the sweep to orders with {@code timeInForce}; null for any. */
    OrderSweep timeInForce(final TimeInForce timeInForce) {
        this.timeInForce = timeInForce;
        return this;
    }

    /** @return true if the sweep takes {@code order} */
    boolean takes(final Order order) {
        final boolean owned = switch (owners) {
            case ANYONE -> true;
            case ONE_SESSION -> order.isOwnedBy(gatewayId, session);
            case ONE_FIRM -> order.firmSlot() == firmSlot;
        };
        return owned
                && (side == null || order.side() == side)
                && (timeInForce == null || order.timeInForce() == timeInForce);
    }

    /** @return true if the sweep takes orders of {@code side} at all */
    boolean coversSide(final Side bookSide) {
        return side == null || side == bookSide;
    }
}
