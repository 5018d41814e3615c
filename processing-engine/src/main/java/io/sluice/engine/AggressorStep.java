package io.sluice.engine;

import io.sluice.contracts.BookEffect;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.RejectReason;
import io.sluice.engine.book.Order;
import io.sluice.engine.book.OrderBook;
import io.sluice.engine.book.PriceLevel;

/**
 * What happens next to an aggressor (a new order, or a replace that lost its place) as it matches: the one place
 * where the engine decides whether it trades again, is done, rests, or has its remainder canceled, and why. Decided
 * before the aggressor's latest report is written, so that report can say whether the order comes to rest.
 */
enum AggressorStep {
    /** It trades with the head of the best opposite level. */
    TRADE(RejectReason.NONE),
    /** Nothing is left of it. */
    FILLED(RejectReason.NONE),
    /** What is left rests in the book. */
    REST(RejectReason.NONE),
    /** What is left would trade with its own session's or firm's order: canceled. */
    CANCEL_SELF_MATCH(RejectReason.SELF_MATCH_PREVENTED),
    /** A market order found no more liquidity: the rest is canceled. */
    CANCEL_NO_LIQUIDITY(RejectReason.NO_LIQUIDITY),
    /** An IOC or FOK remainder: canceled. */
    CANCEL_IMMEDIATE(RejectReason.NONE),
    /** No price level left for it to rest at: canceled. */
    CANCEL_NO_ROOM(RejectReason.ENGINE_CAPACITY_REACHED);

    private final RejectReason reason;

    AggressorStep(final RejectReason reason) {
        this.reason = reason;
    }

    /** @return the reason a canceled remainder's report carries */
    RejectReason reason() {
        return reason;
    }

    /** @return the book effect of the aggressor's report written just before this step */
    BookEffect effectOnAggressor() {
        return this == REST ? BookEffect.ADDED : BookEffect.NONE;
    }

    /** @return what happens next to {@code aggressor}, with {@code book} as it is now */
    static AggressorStep of(final OrderBook book, final Order aggressor) {
        if (aggressor.leavesQty() == 0) {
            return FILLED;
        }
        final PriceLevel level = book.oppositeOf(aggressor).best();
        if (level != null && OrderBook.crosses(aggressor, level.price())) {
            return aggressor.selfMatches(level.head()) ? CANCEL_SELF_MATCH : TRADE;
        }
        if (aggressor.ordType() == OrdType.MARKET) {
            return CANCEL_NO_LIQUIDITY;
        }
        if (!Instrument.rests(aggressor.timeInForce())) {
            return CANCEL_IMMEDIATE;
        }
        return book.sideOf(aggressor).canRest(aggressor.price()) ? REST : CANCEL_NO_ROOM;
    }
}
