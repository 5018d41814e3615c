package io.sluice.marketdata.feed;

/**
 * Trading status, type {@code 'S'}, 19 bytes: whether an instrument trades. FLAG is {@code 'O'} (open), {@code 'H'}
 * (halted by an operator) or {@code 'C'} (its trading session is closed; a close shows over a halt). HALT is 1 while an
 * operator's halt stands, closed or not (so that an open after a close shows the halt again), else 0.
 * <pre>
 *   0 type 'S' | 1 status | 2 symbol | 10 timestamp | 18 halt
 * </pre>
 */
public final class TradingStatus extends FeedMessage {
    public static final byte TYPE_S = 'S';
    public static final byte OPEN = 'O';
    public static final byte HALTED = 'H';
    public static final byte CLOSED = 'C';
    public static final int HALT = BODY;
    public static final int LENGTH = HALT + Byte.BYTES;

    /** Writes a whole trading status; @return its length */
    public int encode(final byte status, final long symbol, final long timestamp, final boolean halt) {
        putByte(HALT, (byte) (halt ? 1 : 0));
        return header(TYPE_S, status, symbol, timestamp);
    }

    public byte status() {
        return flag();
    }

    /** @return true while an operator's halt stands */
    public boolean halt() {
        return getByte(HALT) != 0;
    }

    /** @return the status an instrument shows: closed over halted over open */
    public static byte of(final boolean sessionOpen, final boolean halt) {
        return !sessionOpen ? CLOSED : halt ? HALTED : OPEN;
    }

    @Override
    public int length() {
        return LENGTH;
    }
}
