package io.sluice.runtime.counters;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The layout every Sluice counters file shares, as Aeron lays out its CnC file. A header page, whose first long is 0
 * while a writer (re)writes the file, then the Agrona counters' metadata, then their values, sized for a number of
 * counters. What a file keeps in its header page is its own ({@link CountersFile}: the process). A writer creates a
 * file or
 * rewrites it in place ({@link #mapFresh}: the same inode, so readers keep their mapping); a reader maps it read-only
 * once it has its full length ({@link #mapForReading}).
 */
public final class CountersLayout {
    /** Bytes of the header page. */
    public static final int HEADER_LENGTH = 4096;

    private final int metaDataLength;
    private final int valuesLength;
    private final int fileLength;

    /** @param maxCounters the most counters a file of this layout holds */
    public CountersLayout(final int maxCounters) {
        metaDataLength = maxCounters * CountersReader.METADATA_LENGTH;
        valuesLength = maxCounters * CountersReader.COUNTER_LENGTH;
        fileLength = HEADER_LENGTH + metaDataLength + valuesLength;
    }

    /** @return the length of a file of this layout */
    public int fileLength() {
        return fileLength;
    }

    /**
     * Creates {@code file} (and its directory), or rewrites an existing one in place, all zeros: the header's first
     * long is set to 0 before anything else is cleared, so a reader sees "being written" first.
     */
    public MappedByteBuffer mapFresh(final Path file) throws IOException {
        Files.createDirectories(file.getParent());
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            if (raf.length() != fileLength) {
                raf.setLength(fileLength);
            }
            final MappedByteBuffer mapped = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, fileLength);
            final UnsafeBuffer all = new UnsafeBuffer(mapped);
            all.putLongVolatile(0, 0);
            all.setMemory(Long.BYTES, fileLength - Long.BYTES, (byte) 0);
            return mapped;
        }
    }

    /** @return {@code file} mapped read-only, or null if it is not there, not readable, or still being created */
    public MappedByteBuffer mapForReading(final Path file) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            if (raf.length() < fileLength) {
                return null;
            }
            return raf.getChannel().map(FileChannel.MapMode.READ_ONLY, 0, fileLength);
        } catch (final IOException e) {
            return null;
        }
    }

    /** @return the header page of {@code mapped} */
    public UnsafeBuffer header(final MappedByteBuffer mapped) {
        return new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
    }

    /** @return a manager allocating counters in {@code mapped}, for its writer */
    public CountersManager manager(final MappedByteBuffer mapped) {
        return new CountersManager(metaData(mapped), values(mapped), StandardCharsets.US_ASCII);
    }

    /** @return a reader of the counters in {@code mapped} */
    public CountersReader reader(final MappedByteBuffer mapped) {
        return new CountersReader(metaData(mapped), values(mapped), StandardCharsets.US_ASCII);
    }

    private UnsafeBuffer metaData(final MappedByteBuffer mapped) {
        return new UnsafeBuffer(mapped, HEADER_LENGTH, metaDataLength);
    }

    private UnsafeBuffer values(final MappedByteBuffer mapped) {
        return new UnsafeBuffer(mapped, HEADER_LENGTH + metaDataLength, valuesLength);
    }
}
