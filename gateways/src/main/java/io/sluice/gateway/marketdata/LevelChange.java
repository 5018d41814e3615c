package io.sluice.gateway.marketdata;

/**
 * What one feed message changed at a price level, kept while its fan-out waits for the next round of the gateway.
 */
final class LevelChange {
    long sequence;
    long symbol;
    int instrument;
    boolean bid;
    long price;
    long tradePrice;
    long tradeQuantity;
    long quantityBefore;
    long quantityAfter;
    int ordersAfter;
    /** The level's rank (0 is the best) before the change, or after it if it is new. */
    int rank;
    /** The side's levels after the change. */
    int levels;

    boolean levelChanged() {
        return quantityAfter != quantityBefore;
    }

    boolean added() {
        return quantityBefore == 0;
    }

    boolean removed() {
        return quantityAfter == 0;
    }

    /** @return the MDUpdateAction (279) of the level's own entry */
    char action() {
        return added() ? MarketDataMessages.NEW : removed() ? MarketDataMessages.DELETE : MarketDataMessages.CHANGE;
    }
}
