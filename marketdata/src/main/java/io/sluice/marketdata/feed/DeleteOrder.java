package io.sluice.marketdata.feed;

/**
 * Delete order, type {@code 'D'}, 26 bytes: a resting order left the book. It was canceled, expired, or replaced at the
 * back of a queue, in which case an {@link AddOrder} follows. FLAG is its side.
 * <pre>
 *   0 type 'D' | 1 side | 2 symbol | 10 timestamp | 18 orderId
 * </pre>
 */
public final class DeleteOrder extends FeedMessage {
    public static final byte TYPE_D = 'D';
    public static final int ORDER_ID = BODY;
    public static final int LENGTH = ORDER_ID + Long.BYTES;

    /** Writes a whole delete order; @return its length */
    public int encode(final byte side, final long symbol, final long timestamp, final long orderId) {
        putLong(ORDER_ID, orderId);
        return header(TYPE_D, side, symbol, timestamp);
    }

    public long orderId() {
        return getLong(ORDER_ID);
    }

    @Override
    public int length() {
        return LENGTH;
    }
}
