package io.sluice.runtime.counters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Which journals under a root have a gateway waiting for Kafka's acknowledgement of their records.
 * A gateway in "replication: acknowledged" mode holds each report until the shipper's acknowledged index passes it
 * ({@link AcknowledgedIndexReader}); while it runs it keeps an empty file {@code <root>/counters/<journal>}{@value
 * #SUFFIX}, beside the counters files (whose readers list {@code .counters} files only). The shipper looks for any:
 * while one exists it ships a frame after a short hold, since a client waits for it; while none does it batches longer,
 * for fewer Kafka requests. A gateway that starts in asynchronous mode removes its journal's file, and one stopped
 * cleanly removes its own; a file left by a gateway killed with {@code kill -9} keeps the short hold until that
 * gateway starts again: the safe side.
 */
public final class AcknowledgementWaiters {
    /** The suffix of a waiter's file in the counters directory. */
    public static final String SUFFIX = ".awaits-acknowledgement";

    private AcknowledgementWaiters() {
    }

    /** Declares that a gateway waits for Kafka's acknowledgement of {@code journalName} under {@code root}. */
    public static void declare(final Path root, final String journalName) {
        final Path file = path(root, journalName);
        try {
            Files.createDirectories(file.getParent());
            if (!Files.exists(file)) {
                Files.createFile(file);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot declare acknowledged mode in " + file.toAbsolutePath(), e);
        }
    }

    /** Withdraws the declaration for {@code journalName} under {@code root}, if there is one. */
    public static void withdraw(final Path root, final String journalName) {
        final Path file = path(root, journalName);
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot withdraw acknowledged mode from " + file.toAbsolutePath(), e);
        }
    }

    /** @return true if a gateway under {@code root} waits for Kafka's acknowledgements (one directory read) */
    public static boolean any(final Path root) {
        try (DirectoryStream<Path> waiters = Files.newDirectoryStream(root.resolve(CountersFile.DIRECTORY), "*" + SUFFIX)) {
            return waiters.iterator().hasNext();
        } catch (final NoSuchFileException e) {
            return false;
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + root.resolve(CountersFile.DIRECTORY).toAbsolutePath(), e);
        }
    }

    /** @return the file that declares a gateway waiting for {@code journalName} under {@code root} */
    public static Path path(final Path root, final String journalName) {
        return root.resolve(CountersFile.DIRECTORY).resolve(journalName + SUFFIX);
    }
}
