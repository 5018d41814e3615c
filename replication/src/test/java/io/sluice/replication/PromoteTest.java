package io.sluice.replication;

import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.process.JavaProcess;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice promote} against a real broker, shipper and receiver (child processes): a replica that lags Kafka is
 * refused and stays a replica; caught up, it is promoted, once, having fenced the deployment's shipper through Kafka
 * (the old primary's shipper, still running, stops at its next write); a root that was never a replica is not
 * promoted.
 */
final class PromoteTest {
    @RegisterExtension
    static final BrokerPerTestClass kafka = new BrokerPerTestClass();

    @TempDir
    Path dir;

    @Test
    void aReplicaBehindKafkaIsRefusedAndOneCaughtUpIsPromotedOnce() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "promote", primary, kafka.bootstrapServers())) {
            final JavaProcess first = Replicas.receive(dir, "receiver-1", "promote", replica, kafka.bootstrapServers());
            Replicas.await("the replica received 500 excerpts", 60, () -> Replicas.total(replica) >= 500, first, shipper);
            first.kill9();
            Replicas.stop(dir, flow);
            awaitShipped(primary, shipper);

            final JavaProcess behind = promote(replica);
            assertEquals(ReplicateMain.EXIT_REFUSED, behind.waitFor(60), behind.logText());
            assertTrue(behind.logText().contains("promote: refused: the replica is behind Kafka: "), behind.logText());
            assertTrue(Files.readString(replica.resolve(RootIdentity.RELATIVE_PATH)).contains("role: replica"));

            try (JavaProcess second = Replicas.receive(dir, "receiver-2", "promote", replica, kafka.bootstrapServers())) {
                Replicas.await("the replica caught up", 60, () -> Replicas.caughtUp(primary, replica), shipper, second);
            }
            final JavaProcess promoted = promote(replica);
            assertEquals(0, promoted.waitFor(60), promoted.logText());
            assertTrue(promoted.logText().contains("the replica holds every excerpt the log holds of deployment promote"),
                    promoted.logText());
            // It fenced the old primary's shipper through Kafka: at its next write the shipper learns it and stops.
            assertTrue(promoted.logText().contains("promote: fenced the deployment's shipper (transactional.id "
                    + "sluice-shipper-promote): Kafka refuses its writes from now on"), promoted.logText());
            final Path more = Files.createDirectories(dir.resolve("more"));
            try (JavaProcess flowMore = Replicas.flow(more, primary, 200, 1000)) {
                assertEquals(ReplicateMain.EXIT_FENCED, shipper.waitFor(60), shipper.logText());
                assertEquals(0, flowMore.waitFor(60), flowMore.logText());
            }
            assertEquals("deployment: promote\nrole: promoted\n",
                    Files.readString(replica.resolve(RootIdentity.RELATIVE_PATH)));
            final JavaProcess again = promote(replica);
            assertEquals(0, again.waitFor(60), again.logText());
            assertTrue(again.logText().contains("is already promoted"), again.logText());
        }
        final JavaProcess notReplica = promote(primary);
        assertEquals(ReplicateMain.EXIT_BAD_CONFIG, notReplica.waitFor(60), notReplica.logText());
        assertTrue(notReplica.logText().contains("is no replica root (it is the primary of promote)"),
                notReplica.logText());
    }

    /** Waits until Kafka has acknowledged every excerpt of every journal under {@code primary}. */
    private static void awaitShipped(final Path primary, final JavaProcess shipper) throws Exception {
        for (final Map.Entry<String, Path> journal : Excerpts.journals(primary).entrySet()) {
            final List<Long> indexes = Excerpts.of(journal.getValue()).indexes();
            try (AcknowledgedIndexReader reader = new AcknowledgedIndexReader(primary, journal.getKey(), SystemNanoClock.INSTANCE)) {
                Replicas.await("Kafka to acknowledge all of " + journal.getKey(), 60,
                        () -> reader.acknowledgedIndex() == indexes.getLast(), shipper);
            }
        }
    }

    private JavaProcess promote(final Path root) throws Exception {
        return JavaProcess.start("promote", dir.resolve("promote-" + System.nanoTime() + ".log"),
                List.of("-Xmx256m", "-XX:+UseSerialGC"), PromoteMain.class, "--root", root.toString(),
                "--bootstrap-servers", kafka.bootstrapServers());
    }
}
