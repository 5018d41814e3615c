package io.sluice.bench.hop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A throw-away journal directory for one benchmark pass: created fresh, deleted with all its files. */
final class BenchJournal {
    private BenchJournal() {
    }

    /** @return a new, empty directory {@code journal-hop-*} under {@code parent}, created if needed. */
    static Path createTempDirectory(final Path parent) {
        try {
            return Files.createTempDirectory(Files.createDirectories(parent), "journal-hop-");
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create a journal directory under " + parent.toAbsolutePath(), e);
        }
    }

    /** Deletes {@code dir} and everything in it. */
    static void deleteRecursively(final Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot delete the bench journal " + dir.toAbsolutePath(), e);
        }
    }
}
