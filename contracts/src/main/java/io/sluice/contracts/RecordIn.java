package io.sluice.contracts;

import io.sluice.contracts.journal.RecordChecksumException;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.MappedBytes;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.BufferUnderflowException;

import static net.openhft.chronicle.core.UnsafeMemory.MEMORY;

/**
 * Where a record reads its fixed binary layout from, field after field, and checks its {@link RecordChecksum}:
 * the reading twin of {@link RecordOut}. From direct memory (a mapped journal) it loads each field straight
 * from its address, checking only that it lies within the bytes readable, verifies the checksum in place and
 * moves the read position once at the end; from anything else (heap bytes in tests and tools) it first copies
 * the record into its own direct scratch memory. A record cut short fails with a
 * {@link BufferUnderflowException} before anything past its end is read; a damaged one with a
 * {@link RecordChecksumException} naming its file and byte offset.
 * <p>
 * One per record instance, reused; used by one thread at a time, like the record.
 */
final class RecordIn {
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private BytesIn<?> bytes;
    private Bytes<?> scratch;
    private long start;
    private long address;
    private long remaining;
    private int at;

    /** Starts reading a record of at most {@value RecordOut#MAX_RECORD_BYTES} bytes of fields. */
    void begin(final BytesIn<?> bytes) {
        begin(bytes, RecordOut.MAX_RECORD_BYTES);
    }

    /** Starts reading a record of at most {@code maxFieldBytes} bytes of fields at {@code bytes}' read position. */
    void begin(final BytesIn<?> bytes, final int maxFieldBytes) {
        this.bytes = bytes;
        start = bytes.readPosition();
        remaining = bytes.readRemaining();
        at = 0;
        if (remaining == 0) {
            address = 0;
        } else if (bytes.isDirectMemory()) {
            address = bytes.addressForRead(start);
        } else {
            remaining = Math.min(remaining, (long) maxFieldBytes + RecordChecksum.LENGTH);
            if (scratch == null) {
                scratch = Bytes.allocateElasticDirect(remaining);
            }
            scratch.clear();
            scratch.ensureCapacity(remaining);
            address = scratch.addressForWrite(0);
            for (int i = 0; i < remaining; i++) {
                MEMORY.writeByte(address + i, bytes.readByte(start + i));
            }
        }
    }

    byte readByte() {
        return MEMORY.readByte(claim(Byte.BYTES));
    }

    int readInt() {
        return MEMORY.readInt(claim(Integer.BYTES));
    }

    long readLong() {
        return MEMORY.readLong(claim(Long.BYTES));
    }

    /** Reads {@code length} bytes into {@code target} from index 0. */
    void readBytes(final UnsafeBuffer target, final int length) {
        view.wrap(claim(length), length);
        target.putBytes(0, view, 0, length);
    }

    /** Passes over {@code length} bytes. */
    void skip(final int length) {
        claim(length);
    }

    /**
     * Ends the record: checks the checksum after its fields, and the read position moves past both.
     *
     * @throws RecordChecksumException if the record's bytes are not the ones written
     */
    void end() {
        final long fields = address;
        final int length = at;
        claim(RecordChecksum.LENGTH);
        if (!RecordChecksum.holds(fields, length)) {
            throw new RecordChecksumException(bytes instanceof MappedBytes mapped ? mapped.mappedFile().file().getPath() : null,
                    start, RecordChecksum.storedAfter(fields, length), RecordChecksum.compute(fields, length));
        }
        bytes.readSkip(at);
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
