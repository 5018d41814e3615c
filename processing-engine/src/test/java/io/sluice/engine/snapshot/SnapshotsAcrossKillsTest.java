package io.sluice.engine.snapshot;

import io.sluice.engine.EngineMain;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.process.AdminWriterMain;
import io.sluice.engine.process.CommittedExcerpts;
import io.sluice.engine.process.EngineJournalContents;
import io.sluice.engine.process.GatewayWriterMain;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.ProcessCpuTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Restarts from snapshots, with real processes: two writer processes stream commands into two gateway journals and a
 * third operators' commands into the admin journal (so snapshots hold the kill switch, halts and closed sessions, and
 * the admin journal's position); the
 * engine process is killed with {@code kill -9} at seeded points of its progress and restarted, again and again,
 * while snapshotter processes ({@code ./sluice snapshot --every 500}) run beside it, some of them killed with
 * {@code kill -9} too, wherever they are; once, after a snapshotter has run to the end, a snapshot writer is killed in
 * the middle of an excerpt ({@link TornSnapshotMain}), leaving a torn snapshot as the newest, which the next engine
 * start reports and passes over for the older one. At the end every command was answered exactly once, the engine
 * restarted from snapshots, and its journal
 * equals, run timestamps aside, what one uninterrupted engine writes for the same inputs in the same order.
 */
final class SnapshotsAcrossKillsTest {
    private static final long SEED = 20261125L;
    private static final int KILLS = 10;
    private static final int TORN_AT = 5;
    private static final long COMMANDS_PER_GATEWAY = 5_000;
    private static final long ADMIN_COMMANDS = 3 * AdminWriterMain.CYCLE_LENGTH;
    private static final long ALL_COMMANDS = 2 * COMMANDS_PER_GATEWAY + ADMIN_COMMANDS;
    private static final long POLL_NANOS = 2_000_000;
    private static final long CHILD_CPU_SECONDS = 60;
    private static final long WALL_SECONDS = 600;
    private static final List<String> CHILD_JVM = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1");

    @TempDir
    Path dir;

    @Test
    void killingTheEngineAndSnapshottersAtAnyPointNeverChangesWhatTheEngineWrites() throws Exception {
        final Path root = dir.resolve("journals");
        final EngineConfig config = SnapshotRestartTest.config(root);
        final Path configFile = dir.resolve("engine.yaml");
        Files.writeString(configFile, config.toString());
        final Path logs = dir.resolve("logs");
        final SplittableRandom random = new SplittableRandom(SEED);
        final List<String> engineLogs = new ArrayList<>();
        int snapshottersKilled = 0;

        try (JavaProcess writer1 = writer(logs, root, 1); JavaProcess writer2 = writer(logs, root, 2);
             JavaProcess admin = start("admin-writer", logs, AdminWriterMain.class, root.toString(),
                     Long.toString(ADMIN_COMMANDS), "200000");
             CommittedExcerpts answered = new CommittedExcerpts(root)) {
            for (int kill = 1; kill <= KILLS; kill++) {
                if (kill == TORN_AT) { // a whole snapshot first, so that there is an older one to fall back on
                    try (JavaProcess snapshotter = start("snapshot-before-torn", logs, SnapshotMain.class,
                            "--config", configFile.toString(), "--at-end")) {
                        assertEquals(0, snapshotter.waitFor(60), snapshotter.logText());
                    }
                    writeTornSnapshot(logs, root);
                }
                final JavaProcess engine = start("engine-" + kill, logs, EngineMain.class, "--config", configFile.toString());
                if (kill == TORN_AT) { // its snapshotter must not write a newer snapshot before this start has looked
                    await(() -> engine.logText().contains("engine: recovered"), engine, "the start after the torn write");
                }
                final JavaProcess snapshotter = start("snapshot-" + kill, logs, SnapshotMain.class,
                        "--config", configFile.toString(), "--every", "500");
                final long before = answered.count();
                final long more = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(1_500);
                await(() -> answered.count() >= before + more || answered.count() >= ALL_COMMANDS,
                        engine, "progress before kill " + kill);
                engine.kill9();
                engineLogs.add(engine.logText());
                if (random.nextInt(3) == 0) {
                    snapshotter.kill9(); // wherever it is: re-running, or writing a snapshot
                    snapshottersKilled++;
                } else {
                    assertEquals(0, snapshotter.waitFor(60), snapshotter.logText());
                }
            }
            final JavaProcess last = start("engine-last", logs, EngineMain.class, "--config", configFile.toString());
            await(() -> answered.count() >= ALL_COMMANDS, last, "the engine answering every command");
            last.stop(10);
            engineLogs.add(last.logText());
            for (final String log : engineLogs) { // how each start went, in the test's output
                log.lines().filter(line -> line.startsWith("engine: ")).forEach(System.out::println);
            }
            assertEquals(0, writer1.waitFor(60), writer1.logText());
            assertEquals(0, writer2.waitFor(60), writer2.logText());
            assertEquals(0, admin.waitFor(60), admin.logText());
        }

        final List<EngineJournalContents.Excerpt> excerpts = EngineJournalContents.read(root);
        EngineJournalContents.assertExactlyOnceInOrder(excerpts,
                Map.of(0, ADMIN_COMMANDS, 1, COMMANDS_PER_GATEWAY, 2, COMMANDS_PER_GATEWAY));
        final List<EngineJournalContents.Excerpt> uninterrupted = EngineJournalContents.freshRun(config, root);
        assertEquals(uninterrupted.size(), excerpts.size());
        for (int i = 0; i < excerpts.size(); i++) {
            assertEquals(uninterrupted.get(i), excerpts.get(i), "excerpt " + i);
        }
        final long fromSnapshots = engineLogs.stream().filter(log -> log.contains(" after the snapshot at engine index ")).count();
        assertTrue(fromSnapshots >= 3, fromSnapshots + " of " + engineLogs.size() + " starts were from a snapshot:\n"
                + String.join("\n", engineLogs));
        assertTrue(engineLogs.get(TORN_AT - 1).contains("not used: torn: it has no end record"),
                "the start after the torn write reports it:\n" + engineLogs.get(TORN_AT - 1));
        assertTrue(engineLogs.get(TORN_AT - 1).contains(" after the snapshot at engine index "),
                "and starts from the older one:\n" + engineLogs.get(TORN_AT - 1));
        assertTrue(snapshottersKilled > 0);
        // The snapshotter goes on past the torn snapshot: a run now writes one at the end and a restart would use it.
        final SnapshotMain.Summary summary = SnapshotMain.run(config, root, 0, true);
        assertEquals(ALL_COMMANDS, summary.inputs(), summary.describe());
    }

    /** Starts {@link TornSnapshotMain}, waits until it holds an excerpt open, and kills it with {@code kill -9}. */
    private static void writeTornSnapshot(final Path logs, final Path root) throws Exception {
        final JavaProcess torn = start("torn-snapshot", logs, TornSnapshotMain.class, root.toString());
        await(() -> torn.logText().contains(TornSnapshotMain.HOLDING), torn, "the torn snapshot writer to hold an excerpt");
        torn.kill9();
    }

    private static JavaProcess writer(final Path logs, final Path root, final int gatewayId) throws Exception {
        return start("writer-" + gatewayId, logs, GatewayWriterMain.class, root.toString(), Integer.toString(gatewayId),
                Integer.toString(gatewayId), Long.toString(COMMANDS_PER_GATEWAY), "20000");
    }

    private static JavaProcess start(final String name, final Path logs, final Class<?> main, final String... args)
            throws Exception {
        return JavaProcess.start(name, logs.resolve(name + ".log"), CHILD_JVM, main, args);
    }

    /**
     * Waits for {@code condition}, giving up once the child has had {@value #CHILD_CPU_SECONDS} s of CPU for it (or,
     * with a host so loaded that it gets none, after {@value #WALL_SECONDS} s): a busy host slows the child, it does
     * not fail the test.
     */
    private static void await(final BooleanSupplier condition, final JavaProcess process, final String what) {
        final long wallDeadline = System.nanoTime() + Duration.ofSeconds(WALL_SECONDS).toNanos();
        final long cpuAtStart = ProcessCpuTime.nanos(process.pid());
        while (!condition.getAsBoolean()) {
            if (!process.isAlive() && !condition.getAsBoolean()) {
                fail(process.name() + " exited while waiting for " + what + ": " + process.logText());
            }
            final Duration cpu = Duration.ofNanos(ProcessCpuTime.nanos(process.pid()) - cpuAtStart);
            if (cpu.toSeconds() >= CHILD_CPU_SECONDS || System.nanoTime() > wallDeadline) {
                fail("timed out waiting for " + what + " (" + process.name() + " had " + cpu.toMillis()
                        + " ms of CPU for it); log: " + process.logText());
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }
}
