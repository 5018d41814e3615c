package io.sluice.marketdata.feed;

/**
 * Modify order, type {@code 'U'}, 34 bytes: a resting order keeps its place in the queue with a new quantity (a
 * replace that kept priority). An order that loses its place is a {@link DeleteOrder} then an {@link AddOrder}; a fill
 * is a {@link Trade}. FLAG is its side.
 * <pre>
 *   0 type 'U' | 1 side | 2 symbol | 10 timestamp | 18 orderId | 26 quantity
 * </pre>
 */
public final class ModifyOrder extends FeedMessage {
    public static final byte TYPE_U = 'U';
    public static final int ORDER_ID = BODY;
    public static final int QUANTITY = ORDER_ID + Long.BYTES;
    public static final int LENGTH = QUANTITY + Long.BYTES;

    /** Writes a whole modify order; @return its length */
    public int encode(final byte side, final long symbol, final long timestamp, final long orderId, final long quantity) {
        putLong(ORDER_ID, orderId);
        putLong(QUANTITY, quantity);
        return header(TYPE_U, side, symbol, timestamp);
    }

    public long orderId() {
        return getLong(ORDER_ID);
    }

    /** @return the quantity that now rests */
    public long quantity() {
        return getLong(QUANTITY);
    }

    @Override
    public int length() {
        return LENGTH;
    }
}
