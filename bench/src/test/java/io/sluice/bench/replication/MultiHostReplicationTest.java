package io.sluice.bench.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The multi-host scenario ({@link MultiHostReplicationBench}), short: the primary and the replica in two network
 * namespaces, a 5 s partition of the link between them (after short netem delay and loss phases where the kernel has
 * netem, and a short narrow-link phase), healed; the replica must end identical to the primary excerpt by excerpt.
 * Needs root and {@code ip}: skipped,
 * with the reason, where network namespaces cannot be created. Its catch-up rate is a figure of the benchmark, not
 * asserted here.
 */
class MultiHostReplicationTest {
    @TempDir
    Path dir;

    @Test
    void afterAPartitionHealsTheReplicaCatchesUpAndEndsIdenticalToThePrimary() throws Exception {
        final String unavailable = NetnsLink.unavailable();
        assumeTrue(unavailable == null, () -> "skipped: network namespaces cannot be created here: " + unavailable);
        final MultiHostReplicationBench.Outcome outcome = MultiHostReplicationBench.run(dir,
                new MultiHostPlan(300, 2, 2, 2, 2, 5, 5, "1ms 200us", "1%",
                        "rate 8mbit burst 32kb latency 100ms"), false);
        assertTrue(outcome.backlogAtHeal() > 0, "the partition held records back: " + outcome.summary());
        assertTrue(outcome.identical(), outcome.summary());
    }
}
