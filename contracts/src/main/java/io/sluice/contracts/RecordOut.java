package io.sluice.contracts;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesOut;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static net.openhft.chronicle.core.UnsafeMemory.MEMORY;

/**
 * Where a record (an {@link Event}, or a gateway's own {@link SentMessage}, {@link SessionProgress}) writes
 * its fixed binary layout, field after field, followed by its {@link RecordChecksum}. Into direct memory (a
 * mapped journal, as Chronicle's method writers hand it over) it stores each field straight at its address,
 * checksums the record there and moves the write position once at the end; into anything else (heap bytes in
 * tests and tools) it writes into its own direct scratch memory the same way and copies the record over. The
 * layout is the same either way, written by one {@code writeTo}/{@code writeBody}; only the per-field bounds,
 * position and thread checks of {@code BytesOut} are saved, which were a quarter of the engine's time.
 * <p>
 * One per record instance, reused; used by one thread at a time, like the record.
 */
final class RecordOut {
    /** More than any fixed-length Sluice record needs: what is reserved before writing straight to memory. */
    static final int MAX_RECORD_BYTES = 512;

    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private BytesOut<?> bytes;
    private Bytes<?> scratch;
    private boolean direct;
    private long address;
    private int reserved;
    private int at;

    /** Starts a record of at most {@value #MAX_RECORD_BYTES} bytes of fields at {@code bytes}' write position. */
    void begin(final BytesOut<?> bytes) {
        begin(bytes, MAX_RECORD_BYTES);
    }

    /** Starts a record of at most {@code maxFieldBytes} bytes of fields at {@code bytes}' write position. */
    void begin(final BytesOut<?> bytes, final int maxFieldBytes) {
        this.bytes = bytes;
        reserved = maxFieldBytes;
        final int capacity = maxFieldBytes + RecordChecksum.LENGTH;
        direct = bytes.isDirectMemory();
        if (direct) {
            bytes.ensureCapacity(bytes.writePosition() + capacity);
            address = bytes.addressForWritePosition();
        } else {
            if (scratch == null) {
                scratch = Bytes.allocateElasticDirect(capacity);
            }
            scratch.clear();
            scratch.ensureCapacity(capacity);
            address = scratch.addressForWrite(0);
        }
        at = 0;
    }

    void writeByte(final byte value) {
        MEMORY.writeByte(address + at, value);
        at += Byte.BYTES;
    }

    void writeInt(final int value) {
        MEMORY.writeInt(address + at, value);
        at += Integer.BYTES;
    }

    void writeLong(final long value) {
        MEMORY.writeLong(address + at, value);
        at += Long.BYTES;
    }

    /** Writes {@code length} bytes of {@code source} from {@code offset}. */
    void writeBytes(final DirectBuffer source, final int offset, final int length) {
        if (at + length > reserved) {
            throw new IllegalStateException("a record of more than the " + reserved + " bytes reserved for it");
        }
        view.wrap(address + at, length);
        view.putBytes(0, source, offset, length);
        at += length;
    }

    /** Ends the record: its checksum follows its fields, and the write position moves past both. */
    void end() {
        if (at > reserved) {
            throw new IllegalStateException("a record of " + at + " bytes, more than the " + reserved + " reserved for it");
        }
        MEMORY.writeInt(address + at, RecordChecksum.compute(address, at));
        final int length = at + RecordChecksum.LENGTH;
        if (direct) {
            bytes.writeSkip(length);
        } else {
            bytes.write(scratch, 0L, length);
        }
        bytes = null;
    }
}
