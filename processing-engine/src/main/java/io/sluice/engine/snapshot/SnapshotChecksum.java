package io.sluice.engine.snapshot;

import org.agrona.checksum.Crc32c;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The checksum of a whole snapshot ({@link io.sluice.contracts.SnapshotEnd#contentChecksum()}): a CRC32C chained over
 * the CRC32Cs of its excerpts' bytes, in order, so that a changed, missing, added or reordered excerpt changes it.
 * The writer computes it on the bytes it has just written, the reader on the bytes it reads, both in place.
 */
final class SnapshotChecksum {
    private final UnsafeBuffer pair = new UnsafeBuffer(ByteBuffer.allocateDirect(2 * Integer.BYTES));
    private int value;
    private int excerpts;

    void reset() {
        value = 0;
        excerpts = 0;
    }

    /** Chains in the excerpt of {@code length} bytes at {@code address}. */
    void add(final long address, final int length) {
        pair.putInt(0, value);
        pair.putInt(Integer.BYTES, Crc32c.INSTANCE.compute(address, 0, length));
        value = Crc32c.INSTANCE.compute(pair.addressOffset(), 0, 2 * Integer.BYTES);
        excerpts++;
    }

    int value() {
        return value;
    }

    /** @return how many excerpts were chained in since {@link #reset()} */
    int excerpts() {
        return excerpts;
    }
}
