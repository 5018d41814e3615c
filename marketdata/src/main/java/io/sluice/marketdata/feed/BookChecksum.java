package io.sluice.marketdata.feed;

/**
 * Book checksum, type {@code 'C'}, 26 bytes: the checksum of an instrument's whole book after the messages before it.
 * It is {@code io.sluice.marketdata.book.OrderBooks#checksum}, so that a feed handler proves its book equals the
 * publisher's. FLAG is unused (0).
 * <pre>
 *   0 type 'C' | 1 0 | 2 symbol | 10 timestamp | 18 checksum
 * </pre>
 */
public final class BookChecksum extends FeedMessage {
    public static final byte TYPE_C = 'C';
    public static final int CHECKSUM = BODY;
    public static final int LENGTH = CHECKSUM + Long.BYTES;

    /** Writes a whole book checksum; @return its length */
    public int encode(final long symbol, final long timestamp, final long checksum) {
        putLong(CHECKSUM, checksum);
        return header(TYPE_C, (byte) 0, symbol, timestamp);
    }

    public long checksum() {
        return getLong(CHECKSUM);
    }

    @Override
    public int length() {
        return LENGTH;
    }
}
