package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;

import java.nio.BufferUnderflowException;

import static net.openhft.chronicle.core.UnsafeMemory.MEMORY;

/**
 * Where an {@link Event} reads its fixed binary layout from, field after field: the reading twin of
 * {@link RecordOut}. From direct memory (a mapped journal) it loads each field straight from its address,
 * checking only that it lies within the bytes readable, and moves the read position once at the end; from
 * anything else it goes through {@link BytesIn}'s own reads. A record cut short fails either way with a
 * {@link BufferUnderflowException}, before anything past its end is read.
 * <p>
 * One per event instance, reused; used by one thread at a time, like the event.
 */
final class RecordIn {
    private BytesIn<?> bytes;
    private boolean direct;
    private long address;
    private long remaining;
    private int at;

    /** Starts reading a record at {@code bytes}' read position. */
    void begin(final BytesIn<?> bytes) {
        this.bytes = bytes;
        direct = bytes.isDirectMemory();
        if (direct) {
            remaining = bytes.readRemaining();
            address = remaining == 0 ? 0 : bytes.addressForRead(bytes.readPosition());
            at = 0;
        }
    }

    byte readByte() {
        if (!direct) {
            return bytes.readByte();
        }
        final long from = claim(Byte.BYTES);
        return MEMORY.readByte(from);
    }

    int readInt() {
        if (!direct) {
            return bytes.readInt();
        }
        final long from = claim(Integer.BYTES);
        return MEMORY.readInt(from);
    }

    long readLong() {
        if (!direct) {
            return bytes.readLong();
        }
        final long from = claim(Long.BYTES);
        return MEMORY.readLong(from);
    }

    /** Ends the record: the read position moves past it. */
    void end() {
        if (direct) {
            bytes.readSkip(at);
        }
        bytes = null;
    }

    /** @return the address of the next {@code size} bytes, which must lie within the readable bytes */
    private long claim(final int size) {
        if (at + size > remaining) {
            throw new BufferUnderflowException();
        }
        final long from = address + at;
        at += size;
        return from;
    }
}
