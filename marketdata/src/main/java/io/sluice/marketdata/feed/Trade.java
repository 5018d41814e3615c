package io.sluice.marketdata.feed;

/**
 * Trade, type {@code 'T'}, 58 bytes: an incoming order traded with a resting one, at the resting order's price. FLAG is
 * the aggressor's side. The resting order now has {@code restingQuantity} left, and leaves the book at 0.
 * <pre>
 *   0 type 'T' | 1 aggressor side | 2 symbol | 10 timestamp | 18 restingOrderId | 26 tradeId | 34 price
 *   | 42 quantity | 50 restingQuantity
 * </pre>
 * The tradeId is the engine's ExecID of the resting order's fill, taken as it is.
 */
public final class Trade extends FeedMessage {
    public static final byte TYPE_T = 'T';
    public static final int RESTING_ORDER_ID = BODY;
    public static final int TRADE_ID = RESTING_ORDER_ID + Long.BYTES;
    public static final int PRICE = TRADE_ID + Long.BYTES;
    public static final int QUANTITY = PRICE + Long.BYTES;
    public static final int RESTING_QUANTITY = QUANTITY + Long.BYTES;
    public static final int LENGTH = RESTING_QUANTITY + Long.BYTES;

    /** Writes a whole trade; @return its length */
    public int encode(final byte aggressorSide, final long symbol, final long timestamp, final long restingOrderId,
                      final long tradeId, final long price, final long quantity, final long restingQuantity) {
        putLong(RESTING_ORDER_ID, restingOrderId);
        putLong(TRADE_ID, tradeId);
        putLong(PRICE, price);
        putLong(QUANTITY, quantity);
        putLong(RESTING_QUANTITY, restingQuantity);
        return header(TYPE_T, aggressorSide, symbol, timestamp);
    }

    public long restingOrderId() {
        return getLong(RESTING_ORDER_ID);
    }

    public long tradeId() {
        return getLong(TRADE_ID);
    }

    public long price() {
        return getLong(PRICE);
    }

    public long quantity() {
        return getLong(QUANTITY);
    }

    public long restingQuantity() {
        return getLong(RESTING_QUANTITY);
    }

    @Override
    public int length() {
        return LENGTH;
    }
}
