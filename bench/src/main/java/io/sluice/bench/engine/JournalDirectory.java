package io.sluice.bench.engine;

import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code --dir} option the engine benchmarks share (a picocli mixin). Their journals go to the given directory and
 * stay, or by default to a fresh temporary directory deleted afterwards (they are gigabytes).
 */
public final class JournalDirectory {
    @Option(names = "--dir", description = "where to put the journals (kept; default: a temp dir, deleted afterwards)")
    private Path dir;

    /** Work done with a journal root. */
    public interface Work {
        int run(Path root) throws Exception;
    }

    /** Runs {@code work} with the journal root, then deletes it if it was temporary. */
    public int use(final String prefix, final Work work) throws Exception {
        final Path root = dir != null ? dir : Files.createTempDirectory(prefix);
        try {
            return work.run(root);
        } finally {
            if (dir == null) {
                PreWrittenJournals.delete(root);
            }
        }
    }
}
