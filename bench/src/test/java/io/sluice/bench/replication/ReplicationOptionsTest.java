package io.sluice.bench.replication;

import io.sluice.bench.BenchArguments;
import io.sluice.bench.suite.BenchScenarios;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The replication benchmarks read the arguments {@code bench all} gives them as they always did. */
class ReplicationOptionsTest {
    @Test
    void theLagBenchReadsItsQuickArgumentsAndDefaults() throws Exception {
        final ReplicationLagOptions quick = BenchArguments.parse(new ReplicationLagOptions(),
                BenchScenarios.find("replication").orElseThrow().args(true).toArray(String[]::new));
        assertArrayEquals(new long[] {10_000, 100_000, 0}, quick.rates());
        assertEquals(3, quick.seconds());
        assertEquals(5, quick.warmUpSeconds());
        assertEquals(200_000, quick.flatOut());
        final ReplicationLagOptions defaults = BenchArguments.parse(new ReplicationLagOptions(), new String[0]);
        assertArrayEquals(new long[] {10_000, 100_000, 0}, defaults.rates());
        assertEquals(5, defaults.seconds());
        assertEquals(10, defaults.warmUpSeconds());
        assertEquals(300_000, defaults.flatOut());
    }

    @Test
    void theNetnsBenchReadsItsQuickArgumentsIntoItsPlan() throws Exception {
        final MultiHostPlan quick = BenchArguments.parse(new MultiHostReplicationOptions(),
                BenchScenarios.find("replication-netns").orElseThrow().args(true).toArray(String[]::new)).plan();
        assertEquals(5, quick.baseline());
        assertEquals(10, quick.partition());
        assertEquals(new MultiHostPlan(1_000, 20, 20, 20, 20, 60, 60, "1ms 200us", "1%",
                        "rate 8mbit burst 32kb latency 100ms"),
                BenchArguments.parse(new MultiHostReplicationOptions(), new String[0]).plan(), "the defaults");
    }
}
