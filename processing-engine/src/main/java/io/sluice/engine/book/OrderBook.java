package io.sluice.engine.book;

import io.sluice.contracts.OrdType;

/**
 * The limit order book of one instrument: bids and asks in strict price-time priority. It knows where
 * orders rest and how much an aggressor could take; the engine decides what trades and reports it.
 */
public final class OrderBook {
    private final BookSide bids;
    private final BookSide asks;

    public OrderBook(final int maxPriceLevels) {
        bids = new BookSide(true, maxPriceLevels);
        asks = new BookSide(false, maxPriceLevels);
    }

    /** @return the buy side. */
    public BookSide bids() {
        return bids;
    }

    /** @return the sell side. */
    public BookSide asks() {
        return asks;
    }

    /** @return the side {@code order} rests on. */
    public BookSide sideOf(final Order order) {
        return order.isBuy() ? bids : asks;
    }

    /** @return the side {@code order} trades against. */
    public BookSide oppositeOf(final Order order) {
        return order.isBuy() ? asks : bids;
    }

    /** @return true if {@code aggressor} may trade at {@code levelPrice}: any price for market orders. */
    public static boolean crosses(final Order aggressor, final long levelPrice) {
        return aggressor.ordType() == OrdType.MARKET
                || (aggressor.isBuy() ? levelPrice <= aggressor.price() : levelPrice >= aggressor.price());
    }

    /**
     * @return true if {@code aggressor} could be filled in full right now, counting only the opposite
     *         orders it may trade with before it would meet one of its own session's or firm's (the self-match
     *         stop)
     */
    public boolean canFillInFull(final Order aggressor) {
        final BookSide opposite = oppositeOf(aggressor);
        final long wanted = aggressor.leavesQty();
        long available = 0;
        for (int depth = 0; available < wanted; depth++) {
            final PriceLevel level = opposite.level(depth);
            if (level == null || !crosses(aggressor, level.price())) {
                return false;
            }
            final long here = level.availableBefore(aggressor, wanted - available);
            if (here < 0) {
                return available - here - 1 >= wanted;
            }
            available += here;
        }
        return true;
    }
}
