package io.sluice.marketdata.feed;

/**
 * End of snapshot, type {@code 'E'}, 26 bytes, snapshot channel only. The snapshot before it is the book after
 * incremental message {@code lastSequence}; a handler applies the incrementals from {@code lastSequence + 1}. SYMBOL is
 * 0, FLAG unused, TIMESTAMP when the snapshot was taken.
 * <pre>
 *   0 type 'E' | 1 0 | 2 0 | 10 timestamp | 18 lastSequence
 * </pre>
 */
public final class EndOfSnapshot extends FeedMessage {
    public static final byte TYPE_E = 'E';
    public static final int LAST_SEQUENCE = BODY;
    public static final int LENGTH = LAST_SEQUENCE + Long.BYTES;

    /** Writes a whole end of snapshot; @return its length */
    public int encode(final long timestamp, final long lastSequence) {
        putLong(LAST_SEQUENCE, lastSequence);
        return header(TYPE_E, (byte) 0, 0, timestamp);
    }

    public long lastSequence() {
        return getLong(LAST_SEQUENCE);
    }

    @Override
    public int length() {
        return LENGTH;
    }
}
