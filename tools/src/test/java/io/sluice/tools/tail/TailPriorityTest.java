package io.sluice.tools.tail;

import io.sluice.runtime.process.IdlePriority;
import io.sluice.testkit.LatencyPattern;
import io.sluice.testkit.SyntheticJournals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live tail, started as ./sluice tail starts it, runs every one of its threads at idle priority and compiles with C1
 * only, so it takes as little as it can from the writers it follows.
 */
final class TailPriorityTest {
    @TempDir
    Path dir;

    @Test
    void aLiveTailRunsAtIdlePriorityWithC1Only() throws Exception {
        final Path root = dir.resolve("journals");
        new SyntheticJournals(1, LatencyPattern.realistic()).write(root, 1, 100);
        try (LiveTailProcess tail = LiveTailProcess.start(root, dir.resolve("tail.log"))) {
            assertTrue(tail.logText().contains("SCHED_IDLE"), tail.logText());
            assertTrue(tail.logText().contains("JIT compiles with C1 only"), tail.logText());
            for (final long tid : IdlePriority.threadsOf(tail.pid())) {
                assertEquals(IdlePriority.SCHED_IDLE, IdlePriority.policyOf(tail.pid(), tid), "thread " + tid + " of the tail");
            }
        }
    }
}
