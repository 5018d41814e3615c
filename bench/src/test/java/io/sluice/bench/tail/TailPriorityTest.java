package io.sluice.bench.tail;

import io.sluice.contracts.process.IdlePriority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A live tail, started as ./sluice tail is, runs every one of its threads at idle priority, so it never slows the writers it follows. */
final class TailPriorityTest {
    @TempDir
    Path dir;

    @Test
    void aLiveTailRunsAtIdlePriority() throws Exception {
        final Path root = dir.resolve("journals");
        new SyntheticJournals(1, LatencyPattern.realistic()).write(root, 1, 100);
        try (LiveTailProcess tail = LiveTailProcess.start(root, dir.resolve("tail.log"))) {
            assertTrue(tail.logText().contains("SCHED_IDLE"), tail.logText());
            final List<Long> threads;
            try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(tail.pid()), "task"))) {
                threads = tasks.map(task -> Long.parseLong(task.getFileName().toString())).toList();
            }
            for (final long tid : threads) {
                assertEquals(IdlePriority.SCHED_IDLE, IdlePriority.policyOf(tail.pid(), tid), "thread " + tid + " of the tail");
            }
        }
    }
}
