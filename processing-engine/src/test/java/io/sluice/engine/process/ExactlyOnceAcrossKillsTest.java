package io.sluice.engine.process;

import io.sluice.engine.EngineMain;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exactly once, with real processes: two writer processes stream commands into two gateway journals, and a third
 * operators' commands into the admin journal (cancels, kill switch, halts, closing and opening the session), while
 * the engine process is killed with {@code kill -9} again and again, at instants chosen by its progress
 * (a seeded number of excerpts after each restart, sometimes zero: killed during start-up or recovery),
 * and restarted. At the end every command of both gateways and of the admin journal was answered exactly once, in
 * per-source
 * order, and the engine journal equals, timestamps aside, what one uninterrupted engine writes for the
 * same inputs in the same order.
 */
final class ExactlyOnceAcrossKillsTest {
    private static final long SEED = 20261122L;
    private static final int KILLS = 21;
    private static final long COMMANDS_PER_GATEWAY = 4_000;
    private static final long ADMIN_COMMANDS = 3 * AdminWriterMain.CYCLE_LENGTH;
    private static final long ALL_COMMANDS = 2 * COMMANDS_PER_GATEWAY + ADMIN_COMMANDS;
    /** Correctness, not speed, is under test: C1 only halves each child JVM's start-up CPU on 2 cores. */
    private static final List<String> CHILD_JVM = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1");

    @TempDir
    Path dir;

    @Test
    void killingTheEngineNeverLosesNorRepeatsAnInput() throws Exception {
        final Path root = dir.resolve("journals");
        final EngineConfig config = TwoInstrumentMarket.config(root);
        final Path configFile = dir.resolve("engine.yaml");
        Files.writeString(configFile, config.toString());
        final Path logs = dir.resolve("logs");
        final SplittableRandom random = new SplittableRandom(SEED);

        try (JavaProcess writer1 = writer(logs, root, 1); JavaProcess writer2 = writer(logs, root, 2);
             JavaProcess admin = adminWriter(logs, root); CommittedExcerpts answered = new CommittedExcerpts(root)) {
            for (int kill = 1; kill <= KILLS; kill++) {
                final JavaProcess engine = engine(logs, configFile, kill);
                final long before = answered.count();
                final long more = random.nextInt(6) == 0 ? 0 : 1 + random.nextInt(300);
                // Wait for that much progress, or for the engine to have answered all there will ever be.
                EngineProcesses.await(() -> answered.count() >= before + more
                        || answered.count() >= ALL_COMMANDS, engine, "progress before kill " + kill);
                engine.kill9();
            }
            final JavaProcess last = engine(logs, configFile, KILLS + 1);
            EngineProcesses.await(() -> answered.count() >= ALL_COMMANDS, last, "the engine answering every command");
            last.stop(10);
            assertEquals(0, writer1.waitFor(30), writer1.logText());
            assertEquals(0, writer2.waitFor(30), writer2.logText());
            assertEquals(0, admin.waitFor(30), admin.logText());
        }

        final List<EngineJournalContents.Excerpt> excerpts = EngineJournalContents.read(root);
        EngineJournalContents.assertExactlyOnceInOrder(excerpts,
                Map.of(0, ADMIN_COMMANDS, 1, COMMANDS_PER_GATEWAY, 2, COMMANDS_PER_GATEWAY));
        final List<EngineJournalContents.Excerpt> uninterrupted = EngineJournalContents.freshRun(config, root);
        assertEquals(uninterrupted.size(), excerpts.size());
        for (int i = 0; i < excerpts.size(); i++) {
            assertEquals(uninterrupted.get(i), excerpts.get(i), "excerpt " + i);
        }
        assertTrue(interleaved(excerpts), "both gateways' commands were consumed interleaved");
    }

    private static boolean interleaved(final List<EngineJournalContents.Excerpt> excerpts) {
        int switches = 0;
        for (int i = 1; i < excerpts.size(); i++) {
            if (excerpts.get(i).sourceId() != excerpts.get(i - 1).sourceId()) {
                switches++;
            }
        }
        return switches > 100;
    }

    private static JavaProcess writer(final Path logs, final Path root, final int gatewayId) throws Exception {
        return JavaProcess.start("writer-" + gatewayId, logs.resolve("writer-" + gatewayId + ".log"), CHILD_JVM,
                GatewayWriterMain.class, root.toString(), Integer.toString(gatewayId), Integer.toString(gatewayId),
                Long.toString(COMMANDS_PER_GATEWAY), "100000");
    }

    /** Admin commands spread over the run: the gateway writers take about 40 s (100 ms after every ten commands). */
    private static JavaProcess adminWriter(final Path logs, final Path root) throws Exception {
        return JavaProcess.start("admin-writer", logs.resolve("admin-writer.log"), CHILD_JVM, AdminWriterMain.class,
                root.toString(), Long.toString(ADMIN_COMMANDS), "500000");
    }

    private static JavaProcess engine(final Path logs, final Path configFile, final int run) throws Exception {
        return JavaProcess.start("engine-" + run, logs.resolve("engine.log"), CHILD_JVM,
                EngineMain.class, "--config", configFile.toString());
    }
}
