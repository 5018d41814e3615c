package io.sluice.replication;

import io.sluice.kafka.KafkaCluster;
import io.sluice.runtime.process.AwaitPromotion;
import io.sluice.runtime.process.JavaProcess;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice standby} against a real broker, a journal flow and a shipper (child processes): after {@code kill -9}
 * of the primary's writers and shipper it takes over by itself, holding every excerpt the primary shipped; killed after
 * its claim and restarted, it finishes the takeover (once), and restarted after it, it resumes as the primary;
 * restarted on its promoted root after another standby took over from it, it refuses; a broker down for longer than the
 * silence it waits for, then back, is no silence of the primary, and one restarted during a takeover delays it only;
 * one of the processes it starts ahead of a takeover exiting stops it, saying which.
 */
final class StandbyTest {
    @RegisterExtension
    static final BrokerPerTestClass kafka = new BrokerPerTestClass();

    @TempDir
    Path dir;

    @Test
    void takesOverOnceThePrimaryFallsSilentHoldingEverythingItShipped() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "standby", primary, kafka.bootstrapServers());
             JavaProcess standby = Replicas.standby(dir, "standby-b", "standby", replica, kafka.bootstrapServers())) {
            Replicas.await("the standby to see the primary", 180, () -> standby.logText().contains("the primary is alive"),
                    standby, shipper);
            Replicas.await("the replica received 3000 excerpts", 180, () -> Replicas.total(replica) >= 3000, standby,
                    shipper);
            shipper.kill9();
            flow.kill9();

            Replicas.await("the standby to take over", 180, () -> standby.logText().contains("start took"), standby);
            assertEquals("deployment: standby\nrole: promoted\n",
                    Files.readString(replica.resolve(RootIdentity.RELATIVE_PATH)));
            final Map<String, Long> inKafka = LogRecords.lastIndexes(kafka.bootstrapServers(), "standby",
                    Duration.ofSeconds(15), SystemNanoClock.INSTANCE);
            for (final Map.Entry<String, Path> journal : Excerpts.journals(replica).entrySet()) {
                final List<Long> indexes = Excerpts.of(journal.getValue()).indexes();
                assertEquals(inKafka.getOrDefault(journal.getKey(), -1L), indexes.isEmpty() ? -1L : indexes.getLast(),
                        journal.getKey() + ": the promoted root ends where the log does");
            }
            assertTrue(Replicas.total(replica) >= 3000);
            Replicas.printSteps(standby);
        }
    }

    @Test
    void aStandbyKilledDuringItsPromotionFinishesItWhenRestarted() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "restarted", primary, kafka.bootstrapServers())) {
            final JavaProcess first = Replicas.standby(dir, "standby-b", "restarted", replica, kafka.bootstrapServers());
            Replicas.await("the standby to see the primary", 180, () -> first.logText().contains("the primary is alive"),
                    first, shipper);
            Replicas.await("the replica received 1000 excerpts", 180, () -> Replicas.total(replica) >= 1000, first,
                    shipper);
            shipper.kill9();
            flow.kill9();
            // Its claim is committed: killed now, it has promoted the root or not yet.
            Replicas.await("the standby's claim", 180, () -> first.logText().contains("fence took"), first);
            kill9WithChildren(first);
            // Each restart runs in a directory of its own: its log holds only what it printed.
            final boolean promotedBefore = Files.readString(replica.resolve(RootIdentity.RELATIVE_PATH))
                    .contains("promoted");

            try (JavaProcess again = Replicas.standby(Files.createDirectories(dir.resolve("again")), "standby-b",
                    "restarted", replica, kafka.bootstrapServers())) {
                Replicas.await("the restarted standby to take over", 180, () -> again.logText().contains("start took"),
                        again);
                assertTrue(again.logText().contains("resumption took"), again.logText());
                assertTrue(again.logText().contains("shipping the promoted root"), again.logText());
                assertEquals("deployment: restarted\nrole: promoted\n",
                        Files.readString(replica.resolve(RootIdentity.RELATIVE_PATH)));
                System.out.println("killed after its claim, the root " + (promotedBefore ? "promoted" : "not promoted yet")
                        + "; restarted:");
                Replicas.printSteps(again);
                kill9WithChildren(again);
            }

            // Killed after its takeover, on a root it promoted: the deployment is still its own, so it ships and starts.
            try (JavaProcess third = Replicas.standby(Files.createDirectories(dir.resolve("third")), "standby-b",
                    "restarted", replica, kafka.bootstrapServers())) {
                Replicas.await("the standby to resume as the primary", 180, () -> third.logText().contains("start took"),
                        third);
                assertTrue(third.logText().contains("this standby promoted the root before it stopped"), third.logText());
                assertTrue(third.logText().contains("shipping the promoted root"), third.logText());
                Replicas.printSteps(third);
            }
        }
    }

    @Test
    void aStandbyRestartedOnARootItPromotedRefusesOnceAnotherTookOverFromIt() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path rootB = dir.resolve("replica-b");
        final Path rootC = dir.resolve("replica-c");
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 500);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "overtaken", primary, kafka.bootstrapServers());
             JavaProcess b = Replicas.standby(dir, "standby-b", "overtaken", rootB, kafka.bootstrapServers())) {
            Replicas.await("standby-b to see the primary", 180, () -> b.logText().contains("the primary is alive"), b,
                    shipper);
            Replicas.await("the replica received 500 excerpts", 180, () -> Replicas.total(rootB) >= 500, b, shipper);
            shipper.kill9();
            flow.kill9();
            Replicas.await("standby-b to take over", 180, () -> b.logText().contains("start took"), b);
            takeOverFromTheTakenOver(rootB, rootC, b);
        }
    }

    /** A second standby follows {@code b}, which took over, then takes over from it; {@code b} restarted refuses. */
    private void takeOverFromTheTakenOver(final Path rootB, final Path rootC, final JavaProcess b) throws Exception {
        try (JavaProcess c = Replicas.standby(dir, "standby-c", "overtaken", rootC, kafka.bootstrapServers())) {
            Replicas.await("standby-c to follow standby-b's shipper", 180, () -> c.logText().contains(
                    "the primary is alive (the shipper of standby standby-b"), c, b);
            kill9WithChildren(b);
            Replicas.await("standby-c to take over", 180, () -> c.logText().contains("start took"), c);

            try (JavaProcess again = Replicas.standby(Files.createDirectories(dir.resolve("again")), "standby-b",
                    "overtaken", rootB, kafka.bootstrapServers())) {
                assertEquals(ReplicateMain.EXIT_REFUSED, again.waitFor(180), again.logText());
                // the newest record is standby-c's claim, or the heartbeat of its shipper
                assertTrue(again.logText().contains("is promoted (deployment overtaken) but the newest record of"
                        + " sluice.overtaken.lease is "), again.logText());
                assertTrue(again.logText().contains("standby standby-c on " + ShipperHeartbeat.hostName() + ", not of"
                        + " this standby: the root can be no replica again"), again.logText());
            }
        }
    }

    @Test
    void aProcessThatExitsBeforeTheTakeoverStopsTheStandbySayingWhich() throws Exception {
        try (JavaProcess standby = Replicas.standby(dir, "standby-b", "exits", dir.resolve("replica"),
                kafka.bootstrapServers(), "echo 'stand-in: cannot use its config' >&2; exit 2\n")) {
            assertEquals(ReplicateMain.EXIT_REFUSED, standby.waitFor(120), standby.logText());
            final String said = standby.logText();
            assertTrue(said.contains("stand-in: cannot use its config"), said);
            assertTrue(said.contains("-stand-in.sh " + AwaitPromotion.OPTION + ") exited with 2 while awaiting the"
                    + " takeover"), said);
        }
    }

    /** {@code kill -9} of a standby and of what it may have started already (its stand-in for the engine and gateways). */
    private static void kill9WithChildren(final JavaProcess standby) throws InterruptedException {
        final List<ProcessHandle> children = ProcessHandle.of(standby.pid()).map(jvm -> jvm.descendants().toList())
                .orElse(List.of());
        standby.kill9();
        children.forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void aBrokerRestartedDuringATakeoverDelaysItAndTheTakeoverFinishesOnceWithEverythingTheLogHolds() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (KafkaCluster cluster = KafkaCluster.start(dir.resolve("kafka"), 1);
             JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 500);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "midtakeover", primary, cluster.bootstrapServers());
             JavaProcess standby = Replicas.standby(dir, "standby-b", "midtakeover", replica, cluster.bootstrapServers())) {
            Replicas.await("the standby to see the primary", 180, () -> standby.logText().contains("the primary is alive"),
                    standby, shipper);
            Replicas.await("the replica received 500 excerpts", 180, () -> Replicas.total(replica) >= 500, standby,
                    shipper);
            shipper.kill9();
            flow.kill9();
            Replicas.await("the standby to detect the silence", 180, () -> standby.logText().contains("detection took"),
                    standby);
            // Whichever step it is in (catching up, fencing, promoting), Kafka goes away under it and comes back.
            cluster.kill9(0);
            cluster.restart(0);

            Replicas.await("the standby to take over", 180, () -> standby.logText().contains("start took"), standby);
            assertEquals("deployment: midtakeover\nrole: promoted\n",
                    Files.readString(replica.resolve(RootIdentity.RELATIVE_PATH)));
            assertEquals(1, standby.logText().split("start took", -1).length - 1, "one takeover: " + standby.logText());
            final Map<String, Long> inKafka = LogRecords.lastIndexes(cluster.bootstrapServers(), "midtakeover",
                    Duration.ofSeconds(15), SystemNanoClock.INSTANCE);
            for (final Map.Entry<String, Path> journal : Excerpts.journals(replica).entrySet()) {
                final List<Long> indexes = Excerpts.of(journal.getValue()).indexes();
                assertEquals(inKafka.getOrDefault(journal.getKey(), -1L), indexes.isEmpty() ? -1L : indexes.getLast(),
                        journal.getKey() + ": the promoted root ends where the log does");
            }
            Replicas.printSteps(standby);
        }
    }

    @Test
    void aBrokerRestartedWhileTheStandbyWatchesIsNoSilenceOfThePrimary() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (KafkaCluster cluster = KafkaCluster.start(dir.resolve("kafka"), 1);
             JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 500);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "restart", primary, cluster.bootstrapServers());
             JavaProcess standby = Replicas.standby(dir, "standby-b", "restart", replica, cluster.bootstrapServers())) {
            Replicas.await("the standby to see the primary", 180, () -> standby.logText().contains("the primary is alive"),
                    standby, shipper);
            Replicas.await("the replica received 500 excerpts", 180, () -> Replicas.total(replica) >= 500, standby,
                    shipper);

            cluster.kill9(0);
            Replicas.await("the standby to see Kafka gone", 180, () -> standby.logText().contains("kafka unreachable"),
                    standby, shipper);
            final long down = System.currentTimeMillis();
            // Down for three times the silence the standby waits for: the outage itself is no silence of the primary.
            Replicas.await("the outage to last 6 s", 180, () -> System.currentTimeMillis() - down >= 6000, standby,
                    shipper);
            cluster.restart(0);
            Replicas.await("the standby to see Kafka again", 180,
                    () -> standby.logText().contains("kafka reachable again"), standby, shipper);
            final long back = System.currentTimeMillis();

            Replicas.awaitGrowth(replica, 500, standby, shipper);
            // Watched for twice the silence the standby waits for, from when it saw Kafka again: the primary beats
            // again within it, however long its resume takes.
            Replicas.await("4 s since the standby saw Kafka again", 180,
                    () -> System.currentTimeMillis() - back >= 4000, standby, shipper);
            assertTrue(!standby.logText().contains("detection took"), standby.logText());
            assertEquals("deployment: restart\nrole: replica\n",
                    Files.readString(replica.resolve(RootIdentity.RELATIVE_PATH)));
        }
    }
}
