package io.sluice.engine.snapshot;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.process.GatewayJournalWriter;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.process.CpuPinning;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ./sluice snapshot --follow} on real journals: the follower, on its agent thread beside an engine that keeps
 * writing, catches up with what was recorded before it started, then keeps up, writing a snapshot after every N-th
 * input and, once the interval has passed, after the last input re-run; an engine restart then starts from its
 * newest snapshot with nothing to re-run.
 */
final class SnapshotFollowerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path root;

    @Test
    void followsALiveEngineWritingSnapshotsByCountAndByTime() throws Exception {
        final EngineConfig config = SnapshotRestartTest.config(root);
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1);
             GatewayJournalWriter gateway2 = new GatewayJournalWriter(root, 2, 2);
             EngineService engine = EngineService.launch(config)) {
            gateway1.write(600);
            gateway2.write(400);
            process(engine, 1_000);
            final SnapshotFollower follower = new SnapshotFollower(new SnapshotContext().config(config).root(root)
                    .countersFile(true).conclude(), 500, TimeUnit.MILLISECONDS.toNanos(200));
            final AgentThread thread = AgentThread.start(follower, IdleConfig.of("sleep-ms").newStrategy(),
                    CpuPinning.NONE, AgentThread.Priority.NORMAL);
            try {
                awaitSnapshots(List.of(500L, 1_000L));
                gateway1.write(400);
                gateway2.write(300);
                process(engine, 1_700);
                // 1,500 by count; then 1,700, the last input, once 200 ms have passed since the one before.
                awaitSnapshots(List.of(500L, 1_000L, 1_500L, 1_700L));
            } finally {
                thread.close();
            }
            assertNull(thread.failure());
            assertEquals(1_700, follower.summary().inputs());
            assertEquals(4, follower.summary().written());
            // Its counters, as ./sluice stat shows them: caught up with the engine's journal index.
            final Map<String, Long> counters = new HashMap<>();
            for (final CountersDirectory.ProcessCounters process : new CountersDirectory(root).read()) {
                for (final CountersDirectory.Counter counter : process.counters()) {
                    counters.put(process.process() + " " + counter.label().text(), counter.value());
                }
            }
            assertEquals(1_700, counters.get("snapshotter sluice_snapshotter_inputs_total"), counters.toString());
            assertEquals(4, counters.get("snapshotter sluice_snapshotter_snapshots_total"), counters.toString());
            assertEquals(counters.get("engine sluice_engine_journal_index"),
                    counters.get("snapshotter sluice_snapshotter_engine_index"), counters.toString());
        }
        try (EngineService restarted = EngineService.launch(config)) {
            assertEquals(0, restarted.recovered(), "nothing to re-run after the newest snapshot");
            assertEquals(1_700, restarted.restoredFrom().inputs());
        }
    }

    private static void process(final EngineService engine, final long upTo) {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (engine.processed() < upTo && System.nanoTime() < deadline) {
            engine.poll();
        }
        assertEquals(upTo, engine.processed());
    }

    /** Waits until the snapshot journal holds whole snapshots taken after exactly these input counts. */
    private void awaitSnapshots(final List<Long> inputs) {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        List<Long> seen = List.of();
        while (System.nanoTime() < deadline) {
            if (Files.isDirectory(Journals.snapshotJournal(root))) {
                try (ChronicleQueue snapshots = Journals.openReadOnly(Journals.snapshotJournal(root))) {
                    seen = SnapshotCatalog.read(snapshots).stream().filter(entry -> entry.end != null)
                            .map(entry -> entry.begin.inputs()).toList();
                }
                if (seen.equals(inputs)) {
                    return;
                }
                if (seen.size() > inputs.size()) {
                    fail("snapshots after " + seen + ", expected " + inputs);
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // between looks at the snapshot journal
        }
        fail("snapshots after " + seen + " within " + TIMEOUT + ", expected " + inputs);
    }
}
