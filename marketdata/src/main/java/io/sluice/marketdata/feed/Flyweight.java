package io.sluice.marketdata.feed;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A view of one message at an offset in a buffer, read and written in place with {@link FeedLayout#ORDER}: the base
 * of every feed message's flyweight. Wrap, then read (decoding) or write (encoding) the fields; nothing is copied and
 * nothing allocated.
 */
public abstract class Flyweight {
    MutableDirectBuffer buffer;
    DirectBuffer readOnly;
    int offset;

    /** Wraps a message to write at {@code offset}. */
    public final void wrapForEncode(final MutableDirectBuffer buffer, final int offset) {
        this.buffer = buffer;
        this.readOnly = buffer;
        this.offset = offset;
    }

    /** Wraps a message to read at {@code offset}. */
    public final void wrapForDecode(final DirectBuffer buffer, final int offset) {
        this.buffer = null;
        this.readOnly = buffer;
        this.offset = offset;
    }

    final long getLong(final int field) {
        return readOnly.getLong(offset + field, FeedLayout.ORDER);
    }

    final void putLong(final int field, final long value) {
        buffer.putLong(offset + field, value, FeedLayout.ORDER);
    }

    final byte getByte(final int field) {
        return readOnly.getByte(offset + field);
    }

    final void putByte(final int field, final byte value) {
        buffer.putByte(offset + field, value);
    }
}
