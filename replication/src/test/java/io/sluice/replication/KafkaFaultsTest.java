package io.sluice.replication;

import io.sluice.kafka.KafkaCluster;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.process.JavaProcess;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kafka failing under a running replication, with real brokers: the only broker of a cluster killed and restarted
 * (the shipper says once that Kafka is unreachable, the receiver's lag line says so instead of a lag it cannot know,
 * the writer is untouched, the replica catches up), and one broker
 * of a 3-broker cluster (replication factor 3, {@code min.insync.replicas} 2) killed for good mid-flow; and shippers
 * killed in turn mid-flow into a 3-broker cluster. Each time the replica ends identical to the primary.
 */
final class KafkaFaultsTest {
    @TempDir
    Path dir;

    @Test
    void theOnlyBrokerKilledAndRestartedMidFlowLosesNothing() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1);
             JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "outage", primary, kafka.bootstrapServers());
             JavaProcess receiver = Replicas.receive(dir, "receiver", "outage", replica, kafka.bootstrapServers())) {
            Replicas.await("the replica received 1000 excerpts", 60, () -> Replicas.total(replica) >= 1000, shipper, receiver);
            kafka.kill9(0);
            Replicas.await("the shipper saw kafka go", 30, () -> shipper.logText().contains("shipper: kafka unreachable"),
                    shipper, receiver);
            // The receiver cannot learn Kafka's end: its lag line says Kafka is unreachable, never "0 behind".
            Replicas.await("the receiver's lag line to say kafka is unreachable", 30, () -> receiver.logText().lines()
                    .anyMatch(line -> line.startsWith("receiver: lag | kafka unreachable since ")
                            && line.contains(" ? behind") && !line.contains(" 0 behind")), shipper, receiver);
            Replicas.awaitGrowth(primary, 2000, shipper, receiver); // the writer goes on without Kafka
            kafka.restart(0);
            Replicas.awaitGrowth(replica, 2000, shipper, receiver);
            Replicas.stop(dir, flow);
            Replicas.await("the replica caught up", 60, () -> Replicas.caughtUp(primary, replica), shipper, receiver);
            assertTrue(shipper.logText().contains("shipper: kafka reachable again"), shipper.logText());
            // What a gateway in acknowledged mode reads is right again after the outage (and any transaction it aborted).
            for (final var journal : Excerpts.journals(primary).entrySet()) {
                final long last = Excerpts.of(journal.getValue()).indexes().getLast();
                try (AcknowledgedIndexReader reader = new AcknowledgedIndexReader(primary, journal.getKey(), SystemNanoClock.INSTANCE)) {
                    Replicas.await("the acknowledged index of " + journal.getKey(), 30,
                            () -> reader.acknowledgedIndex() == last, shipper);
                }
            }
        }
        Excerpts.assertIdentical(primary, replica);
    }

    @Test
    void oneBrokerOfThreeKilledMidFlowLosesNothing() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 3);
             JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess shipper = Replicas.start(dir, "shipper", "ship", "three", primary, kafka.bootstrapServers(), 3, 2);
             JavaProcess receiver = Replicas.receive(dir, "receiver", "three", replica, kafka.bootstrapServers())) {
            Replicas.await("the replica received 1000 excerpts", 60, () -> Replicas.total(replica) >= 1000, shipper, receiver);
            kafka.kill9(2);
            Replicas.awaitGrowth(replica, 2000, shipper, receiver);
            Replicas.stop(dir, flow);
            Replicas.await("the replica caught up", 90, () -> Replicas.caughtUp(primary, replica), shipper, receiver);
        }
        Excerpts.assertIdentical(primary, replica);
    }

    /**
     * The race transactions close: a shipper killed while its sends to a 3-broker cluster are appended by a leader but
     * not yet replicated (or still in flight) could, with an idempotent producer alone, see such a record become visible
     * after its successor resumed before it: one index twice in a topic. Each successor's initTransactions() fences the
     * killed producer and aborts its open transaction, and every reader is read_committed. Three shippers killed mid-flow
     * in turn; then every index is in its topic exactly once, in order, and the replica is identical.
     */
    @Test
    void shippersKilledMidFlowIntoThreeBrokersLeaveEachExcerptOnce() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 3);
             JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 2000);
             JavaProcess receiver = Replicas.receive(dir, "receiver", "fenced", replica, kafka.bootstrapServers())) {
            for (int round = 1; round <= 3; round++) {
                final JavaProcess killed = Replicas.start(dir, "shipper-" + round, "ship", "fenced", primary,
                        kafka.bootstrapServers(), 3, 2);
                Replicas.awaitGrowth(replica, 1000, killed, receiver);
                killed.kill9();
            }
            try (JavaProcess last = Replicas.start(dir, "shipper-4", "ship", "fenced", primary, kafka.bootstrapServers(), 3, 2)) {
                Replicas.awaitGrowth(replica, 1000, last, receiver);
                Replicas.stop(dir, flow);
                Replicas.await("the replica caught up", 90, () -> Replicas.caughtUp(primary, replica), last, receiver);
                assertTrue(last.logText().contains("resumes after"), last.logText());
            }
            Replicas.assertLogHoldsEachExcerptOnceCausesFirst(kafka.bootstrapServers(), "fenced", primary);
        }
        Excerpts.assertIdentical(primary, replica);
    }
}
