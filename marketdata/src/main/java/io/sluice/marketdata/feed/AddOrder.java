package io.sluice.marketdata.feed;

/**
 * Add order, type {@code 'A'}, 42 bytes: an order now rests at the back of its price level. FLAG is its side.
 * <pre>
 *   0 type 'A' | 1 side | 2 symbol | 10 timestamp | 18 orderId | 26 price | 34 quantity
 * </pre>
 */
public final class AddOrder extends FeedMessage {
    public static final byte TYPE_A = 'A';
    public static final int ORDER_ID = BODY;
    public static final int PRICE = ORDER_ID + Long.BYTES;
    public static final int QUANTITY = PRICE + Long.BYTES;
    public static final int LENGTH = QUANTITY + Long.BYTES;

    /** Writes a whole add order; @return its length */
    public int encode(final byte side, final long symbol, final long timestamp, final long orderId, final long price,
                      final long quantity) {
        putLong(ORDER_ID, orderId);
        putLong(PRICE, price);
        putLong(QUANTITY, quantity);
        return header(TYPE_A, side, symbol, timestamp);
    }

    public long orderId() {
        return getLong(ORDER_ID);
    }

    /** @return the limit price, fixed point ({@code io.sluice.contracts.Price}) */
    public long price() {
        return getLong(PRICE);
    }

    public long quantity() {
        return getLong(QUANTITY);
    }

    @Override
    public int length() {
        return LENGTH;
    }
}
