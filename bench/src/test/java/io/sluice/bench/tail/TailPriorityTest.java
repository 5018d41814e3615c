package io.sluice.bench.tail;

import io.sluice.contracts.process.IdlePriority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

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
            for (final long tid : IdlePriority.threadsOf(tail.pid())) {
                assertEquals(IdlePriority.SCHED_IDLE, IdlePriority.policyOf(tail.pid(), tid), "thread " + tid + " of the tail");
            }
        }
    }
}
