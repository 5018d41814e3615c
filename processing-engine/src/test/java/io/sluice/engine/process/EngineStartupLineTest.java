package io.sluice.engine.process;

import io.sluice.engine.EngineMain;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.engine.snapshot.SnapshotMain;
import io.sluice.runtime.process.AotRecording;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The engine process's start: once live it prints where its start's time went (for {@code ./sluice bench recovery}
 * and for operators wondering why a restart was slow), its hand-parsed command line refuses what it cannot use, and a
 * start that fails discards the JDK AOT cache it was recording ({@link AotRecording}).
 */
final class EngineStartupLineTest {
    private static final List<String> CHILD_JVM = List.of("-XX:TieredStopAtLevel=1");

    @TempDir
    Path root;

    @Test
    void aRestartFromASnapshotSaysWhereItsStartTimeWentPhaseByPhase() throws Exception {
        final EngineConfig config = TwoInstrumentMarket.config(root);
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1);
             GatewayJournalWriter gateway2 = new GatewayJournalWriter(root, 2, 2)) {
            gateway1.write(300);
            gateway2.write(200);
        }
        try (EngineService service = EngineService.launch(config)) { // the history, answered
            while (service.processed() < 500) {
                service.poll();
            }
        }
        final Path configFile = Files.writeString(root.resolve("engine.yaml"), config.toString());
        try (JavaProcess snapshotter = JavaProcess.start("snapshot", root.resolve("snapshot.log"), CHILD_JVM,
                SnapshotMain.class, "--config", configFile.toString(), "--at-end")) {
            assertEquals(0, snapshotter.waitFor(120), snapshotter.logText());
        }

        final String line = startupLine(configFile);
        assertTrue(line.matches("engine: live \\d+ ms after the JVM's start, process cpu [\\d,]+ ms; phases wall/thread cpu:"
                + " jvm \\d+/\\d+ ms, command line \\d+/\\d+ ms, config \\d+/\\d+ ms, journals \\d+/\\d+ ms,"
                + " snapshot \\d+/\\d+ ms \\(1 snapshots found in \\d+ ms, checked in \\d+ ms,"
                + " [\\d,]+ orders loaded in \\d+ ms\\), re-run \\d+/\\d+ ms \\(0 inputs\\), agent thread \\d+/\\d+ ms"), line);
    }

    @Test
    void withoutSnapshotsTheStartupLineSaysTheyAreOffAndCountsTheInputsReRun() throws Exception {
        final EngineConfig config = TwoInstrumentMarket.config(root).restartFromSnapshots(false);
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1)) {
            gateway1.write(120);
        }
        try (EngineService service = EngineService.launch(config)) {
            while (service.processed() < 120) {
                service.poll();
            }
        }
        final String line = startupLine(Files.writeString(root.resolve("engine.yaml"), config.toString()));
        assertTrue(line.contains(", snapshot ") && line.contains(" ms (restartFromSnapshots off), re-run "), line);
        assertTrue(line.contains(" ms (120 inputs), agent thread "), line);
    }

    @Test
    void aCommandLineWithoutAConfigOrWithAnUnknownOptionIsRefusedWithTheUsage() throws Exception {
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("none.log"), CHILD_JVM, EngineMain.class)) {
            assertEquals(EngineMain.EXIT_BAD_CONFIG, engine.waitFor(60), engine.logText());
            assertTrue(engine.logText().contains("Missing required option: '--config=FILE'"), engine.logText());
            assertTrue(engine.logText().contains("Usage: engine --config=FILE [--await-promotion] [-h]"), engine.logText());
        }
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("unknown.log"), CHILD_JVM, EngineMain.class,
                "--confg", "engine.yaml")) {
            assertEquals(EngineMain.EXIT_BAD_CONFIG, engine.waitFor(60), engine.logText());
            assertTrue(engine.logText().contains("Unknown option: '--confg'"), engine.logText());
        }
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("help.log"), CHILD_JVM, EngineMain.class,
                "--help")) {
            assertEquals(0, engine.waitFor(60), engine.logText());
            assertTrue(engine.logText().contains("--config=FILE   engine config, YAML"), engine.logText());
        }
    }

    @Test
    void aStartThatFailsDiscardsTheAotCacheItRecordsAndOneThatSucceedsKeepsIt() throws Exception {
        final Path failedKey = Files.writeString(root.resolve("failed.aot.key"), "the launcher's key\n");
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("failed.log"),
                List.of("-XX:TieredStopAtLevel=1", "-D" + AotRecording.KEY_FILE_PROPERTY + "=" + failedKey),
                EngineMain.class, "--config=" + root.resolve("missing.yaml"))) {
            assertEquals(EngineMain.EXIT_BAD_CONFIG, engine.waitFor(60), engine.logText());
            assertTrue(engine.logText().contains("the AOT cache it records is discarded"), engine.logText());
        }
        assertFalse(Files.exists(failedKey), "the next start finds no key for its build and records a new cache");

        final Path keptKey = Files.writeString(root.resolve("kept.aot.key"), "the launcher's key\n");
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("kept.log"),
                List.of("-XX:TieredStopAtLevel=1", "-D" + AotRecording.KEY_FILE_PROPERTY + "=" + keptKey),
                EngineMain.class, "--help")) {
            assertEquals(0, engine.waitFor(60), engine.logText());
        }
        assertTrue(Files.exists(keptKey), "a run that ends well keeps the cache it recorded");
    }

    /** Starts an engine process, waits for its start-up line, stops it; @return the line */
    private String startupLine(final Path configFile) throws Exception {
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("engine.log"), CHILD_JVM, EngineMain.class,
                "--config=" + configFile)) {
            final long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (!engine.logText().contains("engine: live ")) {
                if (!engine.isAlive() || System.nanoTime() > deadline) {
                    fail("no start-up line from the engine: " + engine.logText());
                }
                LockSupport.parkNanos(10_000_000); // polling the log for the line, not waiting for time to pass
            }
            engine.stop(30);
            return engine.logText().lines().filter(l -> l.startsWith("engine: live ")).findFirst().orElseThrow();
        }
    }
}
