package io.sluice.engine;

import io.sluice.contracts.OrdType;
import io.sluice.contracts.OrderCommand;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.TradingHalt;
import io.sluice.contracts.TradingSession;
import io.sluice.engine.book.OrderBook;
import io.sluice.engine.book.PriceLevel;
import io.sluice.engine.config.InstrumentConfig;

/**
 * A configured instrument at run time: the rules an order's terms must meet (validation and risk limits), its order
 * book, and whether it takes orders now: its trading session (open or closed) and whether an operator halted it. The
 * checks run in a fixed order so the same bad order always gets the same reason.
 */
final class Instrument {
    private final long tickSize;
    private final long lotSize;
    private final long priceLow;
    private final long priceHigh;
    private final long maxOrderQty;
    private final long maxNotional;
    private final long symbol;
    private final int index;
    private final OrderBook book;
    private long lastTradePrice;
    private TradingSession session;
    private TradingHalt halt = TradingHalt.NOT_HALTED;

    Instrument(final InstrumentConfig config, final int index, final int maxPriceLevels, final TradingSession session) {
        symbol = config.symbol();
        this.index = index;
        this.session = session;
        tickSize = config.tickSize();
        lotSize = config.lotSize();
        priceLow = config.priceLow();
        priceHigh = config.priceHigh();
        maxOrderQty = config.maxOrderQty();
        maxNotional = config.maxNotional();
        book = new OrderBook(maxPriceLevels);
    }

    OrderBook book() {
        return book;
    }

    long symbol() {
        return symbol;
    }

    /** @return the instrument's position in the config, from 0: where firms keep their position in it */
    int index() {
        return index;
    }

    /** Notes the price of a trade: the price collar's reference from now on. */
    void traded(final long price) {
        lastTradePrice = price;
    }

    /** @return the price of the last trade, 0 before any */
    long lastTradePrice() {
        return lastTradePrice;
    }

    /**
     * @return what a firm's price collar is measured from: the last trade's price, or before any trade the middle of
     *         the best bid and offer (rounded down), or the one side there is; 0 with an empty book (no collar)
     */
    long referencePrice() {
        if (lastTradePrice != 0) {
            return lastTradePrice;
        }
        final PriceLevel bid = book.bids().best();
        final PriceLevel ask = book.asks().best();
        if (bid != null && ask != null) {
            return bid.price() + (ask.price() - bid.price()) / 2;
        }
        return bid != null ? bid.price() : ask != null ? ask.price() : 0;
    }

    /** @return the price an order's notional is counted at: its limit price, or for a market order the band's top */
    long riskPrice(final OrdType ordType, final long price) {
        return ordType == OrdType.LIMIT ? price : priceHigh;
    }

    TradingSession session() {
        return session;
    }

    void session(final TradingSession session) {
        this.session = session;
    }

    TradingHalt halt() {
        return halt;
    }

    void halt(final TradingHalt halt) {
        this.halt = halt;
    }

    /**
     * @return why the instrument takes no new orders or replaces now ({@link RejectReason#OUTSIDE_TRADING_SESSION},
     * {@link RejectReason#INSTRUMENT_HALTED}), or {@link RejectReason#NONE}
     */
    RejectReason admission() {
        if (session == TradingSession.CLOSED) {
            return RejectReason.OUTSIDE_TRADING_SESSION;
        }
        return halt == TradingHalt.HALTED ? RejectReason.INSTRUMENT_HALTED : RejectReason.NONE;
    }

    /** @return true if a limit order's remainder with {@code timeInForce} rests in the book (DAY, GTC) */
    static boolean rests(final TimeInForce timeInForce) {
        return timeInForce == TimeInForce.DAY || timeInForce == TimeInForce.GOOD_TILL_CANCEL;
    }

    /**
     * @return the first rule {@code command}'s terms break, or {@link RejectReason#NONE}. Market orders are
     *         risk-checked as if priced at the top of the band, the worst they can trade at.
     */
    RejectReason check(final OrderCommand command) {
        final Side side = command.side();
        final OrdType ordType = command.ordType();
        final TimeInForce timeInForce = command.timeInForce();
        final long qty = command.orderQty();
        final long price = command.price();
        if (side != Side.BUY && side != Side.SELL) {
            return RejectReason.UNSUPPORTED_SIDE;
        }
        if (ordType != OrdType.LIMIT && ordType != OrdType.MARKET) {
            return RejectReason.UNSUPPORTED_ORD_TYPE;
        }
        if (!rests(timeInForce) && timeInForce != TimeInForce.IMMEDIATE_OR_CANCEL
                && timeInForce != TimeInForce.FILL_OR_KILL) {
            return RejectReason.UNSUPPORTED_TIME_IN_FORCE;
        }
        if (ordType == OrdType.MARKET && rests(timeInForce)) {
            return RejectReason.MARKET_ORDER_DAY;
        }
        if (qty <= 0) {
            return RejectReason.QUANTITY_NOT_POSITIVE;
        }
        if (qty % lotSize != 0) {
            return RejectReason.QUANTITY_OFF_LOT;
        }
        if (qty > maxOrderQty) {
            return RejectReason.QUANTITY_OVER_LIMIT;
        }
        if (ordType == OrdType.LIMIT) {
            if (price <= 0) {
                return RejectReason.PRICE_NOT_POSITIVE;
            }
            if (price % tickSize != 0) {
                return RejectReason.PRICE_OFF_TICK;
            }
            if (price < priceLow || price > priceHigh) {
                return RejectReason.PRICE_OUTSIDE_BAND;
            }
        }
        // qty <= maxOrderQty and price <= priceHigh, and the config guarantees their product fits a long.
        final long riskPrice = ordType == OrdType.LIMIT ? price : priceHigh;
        if (qty * riskPrice > maxNotional) {
            return RejectReason.NOTIONAL_OVER_LIMIT;
        }
        return RejectReason.NONE;
    }
}
