package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesOut;

import static net.openhft.chronicle.core.UnsafeMemory.MEMORY;

/**
 * Where an {@link Event} writes its fixed binary layout, field after field. Into direct memory (a mapped
 * journal, as Chronicle's method writers hand it over) it stores each field straight at its address and
 * moves the write position once at the end; into anything else (heap bytes in tests and tools) it goes
 * through {@link BytesOut}'s own writes. The layout is the same either way, written by one
 * {@code writeBody}; only the per-field bounds, position and thread checks of {@code BytesOut} are saved,
 * which were a quarter of the engine's time.
 * <p>
 * One per event instance, reused; used by one thread at a time, like the event.
 */
final class RecordOut {
    /** More than any Sluice record needs: what is reserved before writing straight to memory. */
    static final int MAX_RECORD_BYTES = 512;

    private BytesOut<?> bytes;
    private boolean direct;
    private long address;
    private int at;

    /** Starts a record at {@code bytes}' write position. */
    void begin(final BytesOut<?> bytes) {
        this.bytes = bytes;
        direct = bytes.isDirectMemory();
        if (direct) {
            bytes.ensureCapacity(bytes.writePosition() + MAX_RECORD_BYTES);
            address = bytes.addressForWritePosition();
            at = 0;
        }
    }

    void writeByte(final byte value) {
        if (direct) {
            MEMORY.writeByte(address + at, value);
            at += Byte.BYTES;
        } else {
            bytes.writeByte(value);
        }
    }

    void writeInt(final int value) {
        if (direct) {
            MEMORY.writeInt(address + at, value);
            at += Integer.BYTES;
        } else {
            bytes.writeInt(value);
        }
    }

    void writeLong(final long value) {
        if (direct) {
            MEMORY.writeLong(address + at, value);
            at += Long.BYTES;
        } else {
            bytes.writeLong(value);
        }
    }

    /** Ends the record: the write position moves past it. */
    void end() {
        if (direct) {
            if (at > MAX_RECORD_BYTES) {
                throw new IllegalStateException("a record of " + at + " bytes, more than the "
                        + MAX_RECORD_BYTES + " reserved for it");
            }
            bytes.writeSkip(at);
        }
        bytes = null;
    }
}
