package io.sluice.bench.burst;

import io.sluice.bench.engine.PreWrittenJournals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A temporary directory for journals too big to leave behind: deleted on {@link #close()}, and also when the
 * JVM exits first (Ctrl-C, SIGTERM, an uncaught failure), by a shutdown hook. Files still mapped by running
 * threads are unlinked at once and their space returns when the process exits.
 */
final class ScratchDirectory implements AutoCloseable {
    private final Path dir;
    private final Thread deleteOnExit;

    private ScratchDirectory(final Path dir) {
        this.dir = dir;
        this.deleteOnExit = new Thread(this::delete, "delete-" + dir.getFileName());
        Runtime.getRuntime().addShutdownHook(deleteOnExit);
    }

    /** Creates a fresh directory named {@code prefix...} under {@code parent}. */
    static ScratchDirectory under(final Path parent, final String prefix) {
        try {
            Files.createDirectories(parent);
            return new ScratchDirectory(Files.createTempDirectory(parent, prefix));
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create a directory under " + parent, e);
        }
    }

    Path path() {
        return dir;
    }

    /** @return a new, empty sub-directory. */
    Path newSubdirectory(final String name) {
        try {
            return Files.createDirectory(dir.resolve(name));
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create " + dir.resolve(name), e);
        }
    }

    /** Deletes {@code sub} (a directory of this one) and everything in it. */
    void delete(final Path sub) {
        PreWrittenJournals.delete(sub);
    }

    private void delete() {
        try {
            PreWrittenJournals.delete(dir);
        } catch (final UncheckedIOException e) {
            System.err.println("could not delete " + dir + " (delete it by hand): " + e.getCause());
        }
    }

    @Override
    public void close() {
        delete();
        try {
            Runtime.getRuntime().removeShutdownHook(deleteOnExit);
        } catch (final IllegalStateException alreadyExiting) {
            // the hook is running or about to: it finds the directory gone
        }
    }
}
