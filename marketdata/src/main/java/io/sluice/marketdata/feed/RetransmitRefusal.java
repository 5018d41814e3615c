package io.sluice.marketdata.feed;

/**
 * Retransmit refusal, type {@code 'R'}, 42 bytes, retransmission socket only, in a packet of sequence 0. It says why a
 * request was not answered ({@link RefusalReason}, FLAG), the sequence it asked for, the first sequence the market-data
 * journal still holds and the next sequence to be published. SYMBOL is 0, TIMESTAMP when refused.
 * <pre>
 *   0 type 'R' | 1 reason | 2 0 | 10 timestamp | 18 requestedSequence | 26 firstAvailable | 34 nextSequence
 * </pre>
 */
public final class RetransmitRefusal extends FeedMessage {
    public static final byte TYPE_R = 'R';
    public static final int REQUESTED_SEQUENCE = BODY;
    public static final int FIRST_AVAILABLE = REQUESTED_SEQUENCE + Long.BYTES;
    public static final int NEXT_SEQUENCE = FIRST_AVAILABLE + Long.BYTES;
    public static final int LENGTH = NEXT_SEQUENCE + Long.BYTES;

    /** Writes a whole refusal; @return its length */
    public int encode(final RefusalReason reason, final long timestamp, final long requestedSequence,
                      final long firstAvailable, final long nextSequence) {
        putLong(REQUESTED_SEQUENCE, requestedSequence);
        putLong(FIRST_AVAILABLE, firstAvailable);
        putLong(NEXT_SEQUENCE, nextSequence);
        return header(TYPE_R, reason.code(), 0, timestamp);
    }

    public RefusalReason reason() {
        return RefusalReason.of(flag());
    }

    public long requestedSequence() {
        return getLong(REQUESTED_SEQUENCE);
    }

    public long firstAvailable() {
        return getLong(FIRST_AVAILABLE);
    }

    public long nextSequence() {
        return getLong(NEXT_SEQUENCE);
    }

    @Override
    public int length() {
        return LENGTH;
    }
}
