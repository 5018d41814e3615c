package io.sluice.marketdata.feed;

import org.agrona.DirectBuffer;

/**
 * The fields every feed message starts with: its type, one byte the type gives meaning to, the symbol and a timestamp.
 * The byte is a side, a status, or unused; the symbol is Sluice's short text code; the timestamp is the engine's {@code
 * reportWriting} of the report the message comes from (0.1 µs ticks since the epoch), which makes the feed a function
 * of the engine journal and lets a reader measure order-to-tick.
 */
public abstract class FeedMessage extends Flyweight {
    /** The type byte (one ASCII letter). */
    public static final int TYPE = 0;
    /** A side ({@code 'B'}, {@code 'S'}), a trading status, or 0. */
    public static final int FLAG = 1;
    /** The instrument's symbol, a long ({@code ShortTextLongConverter}). */
    public static final int SYMBOL = 2;
    /** The engine's reportWriting of the report behind the message, 0.1 µs ticks. */
    public static final int TIMESTAMP = 10;
    /** Where a message's own fields start. */
    public static final int BODY = 18;

    /** A buy side byte. */
    public static final byte BUY = 'B';
    /** A sell side byte. */
    public static final byte SELL = 'S';

    public final byte type() {
        return getByte(TYPE);
    }

    public final byte flag() {
        return getByte(FLAG);
    }

    public final long symbol() {
        return getLong(SYMBOL);
    }

    public final long timestamp() {
        return getLong(TIMESTAMP);
    }

    /** Writes the common fields; @return this message's length in bytes */
    final int header(final byte type, final byte flag, final long symbol, final long timestamp) {
        putByte(TYPE, type);
        putByte(FLAG, flag);
        putLong(SYMBOL, symbol);
        putLong(TIMESTAMP, timestamp);
        return length();
    }

    /** @return this message's length in bytes */
    public abstract int length();

    /** @return the symbol of the message at {@code offset} of {@code buffer} */
    public static long symbolAt(final DirectBuffer buffer, final int offset) {
        return buffer.getLong(offset + SYMBOL, FeedLayout.ORDER);
    }

    /** @return the timestamp of the message at {@code offset} of {@code buffer} */
    public static long timestampAt(final DirectBuffer buffer, final int offset) {
        return buffer.getLong(offset + TIMESTAMP, FeedLayout.ORDER);
    }

    /** @return the type byte of the message at {@code offset} of {@code buffer} */
    public static byte typeAt(final DirectBuffer buffer, final int offset) {
        return buffer.getByte(offset + TYPE);
    }
}
