package io.sluice.testkit;

import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.WriteBytesMarshallable;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Damages copies of journals on disk the way a failing disk or a tamperer would, for tests. One flipped bit, one record
 * replaced by another of the same length, or an excerpt's header garbled. Each change reports where it was made: the
 * real cycle file,
 * the byte offset in it and the excerpt's index.
 */
public final class JournalSurgery {
    /** Where a journal was changed. */
    public record Change(Path file, long offset, long index) {
    }

    /** The length of an excerpt's header, before its content. */
    private static final int HEADER_BYTES = 4;

    private JournalSurgery() {
    }

    /**
     * Flips bit 4 of the byte {@code at} bytes into the record {@code record} writes, found in the {@code n}-th data
     * excerpt (from 1) of {@code dir}.
     *
     * @return where the damaged record starts
     */
    public static Change flip(final Path dir, final int n, final WriteBytesMarshallable record, final int at)
            throws IOException {
        final Change change = locate(dir, n, record);
        flip(change, at);
        return change;
    }

    /** Flips bit 4 of the byte {@code at} bytes after {@code where}. */
    public static void flip(final Change where, final int at) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(where.file().toFile(), "rw")) {
            file.seek(where.offset() + at);
            final int b = file.read();
            file.seek(where.offset() + at);
            file.write(b ^ 0x10);
        }
    }

    /**
     * Flips every bit of the 4-byte header (length and flags) of the {@code n}-th data excerpt (from 1) of {@code dir}:
     * a tailer no longer sees an excerpt there, and nothing after it.
     *
     * @return where the damaged header is: its cycle file, its byte offset and the excerpt's index
     */
    public static Change damageHeader(final Path dir, final int n) throws IOException {
        final Change excerpt = excerpt(dir, n);
        final Change header = new Change(excerpt.file(), excerpt.offset() - HEADER_BYTES, excerpt.index());
        try (RandomAccessFile file = new RandomAccessFile(header.file().toFile(), "rw")) {
            final byte[] bytes = new byte[HEADER_BYTES];
            file.seek(header.offset());
            file.readFully(bytes);
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) ~bytes[i];
            }
            file.seek(header.offset());
            file.write(bytes);
        }
        return header;
    }

    /**
     * Replaces, in the {@code n}-th data excerpt of {@code dir}, the record {@code before} writes by the one
     * {@code after} writes (same length, each with its own correct checksum): a consistent tamper.
     *
     * @return where the replaced record starts
     */
    public static Change replace(final Path dir, final int n, final WriteBytesMarshallable before,
                                 final WriteBytesMarshallable after) throws IOException {
        final byte[] now = bytesOf(after);
        final Change change = locate(dir, n, before);
        if (bytesOf(before).length != now.length) {
            throw new IllegalArgumentException("records of different lengths");
        }
        try (RandomAccessFile file = new RandomAccessFile(change.file().toFile(), "rw")) {
            file.seek(change.offset());
            file.write(now);
        }
        return change;
    }

    /** @return where, in the {@code n}-th data excerpt (from 1) of {@code dir}, the bytes {@code record} writes start */
    public static Change locate(final Path dir, final int n, final WriteBytesMarshallable record) throws IOException {
        final byte[] wanted = bytesOf(record);
        final Change excerpt = excerpt(dir, n);
        try (RandomAccessFile file = new RandomAccessFile(excerpt.file().toFile(), "r")) {
            final byte[] content = new byte[4096];
            file.seek(excerpt.offset());
            final int read = file.read(content);
            for (int i = 0; i + wanted.length <= read; i++) {
                if (Arrays.equals(content, i, i + wanted.length, wanted, 0, wanted.length)) {
                    return new Change(excerpt.file(), excerpt.offset() + i, excerpt.index());
                }
            }
        }
        throw new IllegalStateException("the record is not in excerpt " + n + " of " + dir);
    }

    /** @return the cycle file, content offset and index of the {@code n}-th data excerpt (from 1) of {@code dir} */
    public static Change excerpt(final Path dir, final int n) {
        try (ChronicleQueue queue = Journals.openReadOnly(dir); ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 1; ; i++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        throw new IllegalArgumentException(dir + " has fewer than " + n + " excerpts");
                    }
                    if (i == n) {
                        return new Change(Journals.cycleFile(queue, queue.rollCycle().toCycle(dc.index())),
                                dc.wire().bytes().readPosition(), dc.index());
                    }
                }
            }
        }
    }

    private static byte[] bytesOf(final WriteBytesMarshallable record) {
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        record.writeMarshallable(bytes);
        return bytes.toByteArray();
    }
}
