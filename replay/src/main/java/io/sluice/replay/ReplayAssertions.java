package io.sluice.replay;

import io.sluice.engine.config.EngineConfig;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * JUnit 5 assertions for regression tests over recorded sessions: point at a directory of recorded journals and give
 * the engine config. The test fails with the first divergence (input, expected and actual report as YAML; IDEs show the
 * two reports side by side) unless a fresh engine writes every recorded report identically.
 * <pre>
 * &#64;Test
 * void yesterdaysSessionStillReplays() {
 *     assertReplaysIdentically(Path.of("recordings/2026-11-20"), EngineConfig.load(Path.of("engine.yaml")));
 * }
 * </pre>
 */
public final class ReplayAssertions {
    private ReplayAssertions() {
    }

    /**
     * Replays {@code recorded} with {@code config} into a temporary directory (deleted afterwards).
     *
     * @return the result, for further checks (inputs, reports, rate)
     * @throws AssertionFailedError describing the first divergence
     * @throws ReplayException      if the journals or config do not allow a replay at all
     */
    public static ReplayResult assertReplaysIdentically(final Path recorded, final EngineConfig config) {
        final Path output;
        try {
            output = Files.createTempDirectory("sluice-replay-");
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create a directory for the replayed engine journal", e);
        }
        try {
            return assertReplaysIdentically(new Replay(recorded, config).output(output));
        } finally {
            deleteTree(output);
        }
    }

    /**
     * Runs {@code replay} (configured with its output directory and any options) and asserts it is identical.
     *
     * @return the result
     * @throws AssertionFailedError describing the first divergence
     */
    public static ReplayResult assertReplaysIdentically(final Replay replay) {
        final ReplayResult result = replay.run();
        if (!result.identical()) {
            final Divergence divergence = result.divergence();
            throw new AssertionFailedError("replay diverged from the recording: " + divergence.describe(),
                    divergence.expected(), divergence.actual());
        }
        return result;
    }

    static void deleteTree(final Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot delete the replay's temporary directory " + root, e);
        }
    }
}
