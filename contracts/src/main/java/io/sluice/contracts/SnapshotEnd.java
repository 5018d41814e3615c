package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * The last record of an engine snapshot ({@link EngineSnapshots}), alone in its excerpt, which makes the snapshot
 * valid. It names the snapshot it ends (by the {@link SnapshotBegin#engineIndex()} and the index of the excerpt holding
 * its begin record) and carries how many excerpts came before it and a CRC32C chained over those excerpts' own CRC32Cs,
 * in order. A
 * snapshot is valid only with its end, and only if its excerpts still give that checksum.
 */
public final class SnapshotEnd extends BytesInBinaryMarshallable {
    private long engineIndex;
    private long beginIndex;
    private int excerpts;
    private int contentChecksum;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    public SnapshotEnd set(final long engineIndex, final long beginIndex, final int excerpts, final int contentChecksum) {
        this.engineIndex = engineIndex;
        this.beginIndex = beginIndex;
        this.excerpts = excerpts;
        this.contentChecksum = contentChecksum;
        return this;
    }

    /** @return the engine journal index of the snapshot this record ends ({@link SnapshotBegin#engineIndex()}) */
    public long engineIndex() {
        return engineIndex;
    }

    /** @return the snapshot journal index of the excerpt holding that snapshot's begin record */
    public long beginIndex() {
        return beginIndex;
    }

    /** @return how many excerpts the snapshot has before this one */
    public int excerpts() {
        return excerpts;
    }

    /** @return the CRC32C chained over those excerpts' CRC32Cs */
    public int contentChecksum() {
        return contentChecksum;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeLong(engineIndex);
        out.writeLong(beginIndex);
        out.writeInt(excerpts);
        out.writeInt(contentChecksum);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        engineIndex = in.readLong();
        beginIndex = in.readLong();
        excerpts = in.readInt();
        contentChecksum = in.readInt();
        in.end();
    }
}
