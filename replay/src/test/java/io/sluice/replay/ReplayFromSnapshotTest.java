package io.sluice.replay;

import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.snapshot.SnapshotMain;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice replay --from-snapshot}: on a copy of the recorded session with snapshots written by the snapshotter
 * after inputs 400 and 800 (of 900), a replay from the newest replays and compares only the last 100 inputs, one from
 * the snapshot named by its engine index the last 500; a snapshot of another config is refused and says why.
 */
final class ReplayFromSnapshotTest {
    @TempDir
    Path dir;

    @Test
    void aReplayFromASnapshotReplaysAndComparesOnlyTheInputsAfterIt() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final Path recorded = copy(session.root(), dir.resolve("recorded"));
        final EngineConfig config = EngineConfig.load(session.configFile());
        final SnapshotMain.Summary summary = SnapshotMain.run(config, recorded, 400, false);
        assertEquals(2, summary.written(), summary.describe());
        final List<RecordedReports> reports = RecordedReports.read(recorded);
        final List<Long> excerpts = reports.stream().map(RecordedReports::excerptIndex).distinct().toList();
        assertEquals(900, excerpts.size());
        final long at400 = excerpts.get(399);
        final long at800 = excerpts.get(799);
        assertEquals(at800, summary.lastEngineIndex());

        try (JavaProcess replay = replay("--recorded", recorded.toString(), "--config", session.configFile().toString(),
                "--out", dir.resolve("out-latest").toString(), "--from-snapshot", "latest")) {
            assertEquals(0, replay.waitFor(60), replay.logText());
            final String text = replay.logText();
            assertTrue(text.contains("identical, " + reports.stream().filter(r -> r.excerptIndex() > at800).count()
                    + " reports"), text);
            assertTrue(text.contains("replay: 100 inputs in "), text);
            assertTrue(text.contains("started from the snapshot at engine index 0x" + Long.toHexString(at800) + " (800 inputs"), text);
        }
        try (JavaProcess replay = replay("--recorded", recorded.toString(), "--config", session.configFile().toString(),
                "--out", dir.resolve("out-400").toString(), "--from-snapshot", "0x" + Long.toHexString(at400), "--quiet")) {
            assertEquals(0, replay.waitFor(60), replay.logText());
            final String text = replay.logText();
            assertTrue(text.contains("identical, " + reports.stream().filter(r -> r.excerptIndex() > at400).count()
                    + " reports"), text);
            assertTrue(text.contains("replay: 500 inputs in "), text);
        }
        final Path changed = Files.writeString(dir.resolve("changed.yaml"), RecordedSession.configYaml(recorded, 200));
        try (JavaProcess replay = replay("--recorded", recorded.toString(), "--config", changed.toString(),
                "--out", dir.resolve("out-changed").toString(), "--from-snapshot", "latest", "--quiet")) {
            assertEquals(ReplayMain.EXIT_CANNOT_REPLAY, replay.waitFor(60), replay.logText());
            final String text = replay.logText();
            assertTrue(text.contains("not used: taken under another engine config: instruments differ"), text);
            assertTrue(text.contains("replay: no usable snapshot in " + recorded.resolve("snapshots").toAbsolutePath()), text);
        }
    }

    private JavaProcess replay(final String... args) throws Exception {
        final String out = Path.of(args[5]).getFileName().toString();
        return JavaProcess.start("replay", dir.resolve("replay-" + out + ".log"), List.of("-Xmx256m"), ReplayMain.class, args);
    }

    private static Path copy(final Path from, final Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            paths.forEach(path -> {
                try {
                    // Keeping modes: the admin journal's is owner-only, which every reader of it checks.
                    Files.copy(path, to.resolve(from.relativize(path).toString()),
                            StandardCopyOption.COPY_ATTRIBUTES);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return to;
    }
}
