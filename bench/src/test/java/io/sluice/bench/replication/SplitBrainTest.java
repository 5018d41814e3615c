package io.sluice.bench.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Split brain, short ({@link SplitBrainBench}): the primary cut off from Kafka and the standby while its client still
 * reaches it. Needs root and {@code ip}: skipped, with the reason, where network namespaces cannot be created. The
 * moments are figures of the benchmark; what is asserted is who takes orders.
 */
class SplitBrainTest {
    @TempDir
    Path dir;

    @Test
    void aPrimaryCutOffFromKafkaStopsTakingOrdersWhileTheStandbyTakesOverAndAfterTheHealItIsFenced() throws Exception {
        final String unavailable = NetnsLink.unavailable();
        assumeTrue(unavailable == null, () -> "skipped: network namespaces cannot be created here: " + unavailable);
        final SplitBrainBench.Outcome outcome = SplitBrainBench.run(dir, 6, 0);
        assertTrue(outcome.promoted() >= 0, "the standby took over: " + outcome.summary());
        assertTrue(outcome.probeTaken() >= 0, "a client on the standby's side got an order taken: " + outcome.summary());
        assertTrue(outcome.lapsed() >= 0, "the old primary rejected on its lease: " + outcome.summary());
        assertEquals(0, outcome.takenAfterLapse(), "orders the old primary took after its lease lapsed: "
                + outcome.summary());
        assertTrue(outcome.fencedAfterHeal() >= 0, "after the heal the old primary said it was fenced: "
                + outcome.summary());
        assertTrue(outcome.identical(), "the new primary's journals replay identically: " + outcome.summary());
    }
}
