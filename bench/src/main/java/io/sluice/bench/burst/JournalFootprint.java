package io.sluice.bench.burst;

import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * How much room the journals of a burst take. Two measures: the size of every file under a root (what a
 * reader of {@code ls} sees; a cycle file is sparse and runs up to 64 MiB ahead of its data, which does not
 * matter at gigabytes), and the exact bytes of the excerpts in a set of journals (header and payload), for
 * the bytes each message costs.
 */
public final class JournalFootprint {
    /** Chronicle's length-and-flags header before every excerpt. */
    private static final int EXCERPT_HEADER = 4;

    private JournalFootprint() {
    }

    /** @return the size of every regular file under {@code root}, in bytes. */
    public static long fileBytes(final Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).mapToLong(JournalFootprint::sizeOf).sum();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
    }

    /** @return the bytes of every excerpt (header included) in the engine journal and the gateway journals. */
    static long excerptBytes(final Path root, final int[] gatewayIds) {
        long bytes = excerptBytes(Journals.engineJournal(root));
        for (final int id : gatewayIds) {
            bytes += excerptBytes(Journals.gatewayJournal(root, id));
        }
        return bytes;
    }

    private static long excerptBytes(final Path journal) {
        long bytes = 0;
        try (ChronicleQueue queue = Journals.openReadOnly(journal); ExcerptTailer tailer = queue.createTailer()) {
            while (true) {
                try (DocumentContext excerpt = tailer.readingDocument()) {
                    if (!excerpt.isPresent()) {
                        return bytes;
                    }
                    bytes += EXCERPT_HEADER + excerpt.wire().bytes().readRemaining();
                }
            }
        }
    }

    private static long sizeOf(final Path file) {
        try {
            return Files.size(file);
        } catch (final IOException e) {
            return 0; // deleted while listing (a temporary file of Chronicle's)
        }
    }
}
