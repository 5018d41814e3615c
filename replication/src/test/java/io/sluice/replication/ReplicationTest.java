package io.sluice.replication;

import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.AcknowledgementWaiters;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.process.JavaProcess;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shipping and receiving every journal of a deployment through one real Kafka broker (a child process), with real
 * journals written by a child process while they replicate, and {@code kill -9} of the shipper and of the receiver
 * mid-flow: the replica ends identical to the primary, excerpt by excerpt, and Kafka holds each excerpt once.
 */
final class ReplicationTest {
    @RegisterExtension
    static final BrokerPerTestClass kafka = new BrokerPerTestClass();

    @TempDir
    Path dir;

    @Test
    void replicaHoldsEveryExcerptOfEveryJournalAtItsIndexByteForByte() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flow(dir, primary, 3000, 1000);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "plain", primary, kafka.bootstrapServers());
             JavaProcess receiver = Replicas.receive(dir, "receiver", "plain", replica, kafka.bootstrapServers())) {
            assertEquals(0, flow.waitFor(60), flow.logText());
            Replicas.await("the replica caught up", 60, () -> Replicas.caughtUp(primary, replica), shipper, receiver);
            Excerpts.assertIdentical(primary, replica);
            assertTrue(Excerpts.journals(primary).containsKey(Journals.ADMIN), "the flow wrote admin commands");
            final Excerpts marketData = Excerpts.of(Journals.marketDataJournal(primary));
            final Excerpts replicaMarketData = Excerpts.of(Journals.marketDataJournal(replica));
            assertEquals(3001, replicaMarketData.size(), "the replica's market-data journal: the statuses, a batch per event");
            assertEquals(marketData.indexes(), replicaMarketData.indexes());
            for (int i = 0; i < marketData.size(); i++) {
                assertArrayEquals(marketData.bytes().get(i), replicaMarketData.bytes().get(i),
                        "market-data excerpt " + i + ", byte for byte");
            }
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    Journals.adminJournal(replica))), "the replica's admin journal is owner-only, as the primary's");
            assertLogHoldsEachExcerptOnceCausesFirst("plain", primary);
            assertTrue(receiver.logText().contains("receiver: lag"), receiver.logText());

            // The shipper's acknowledged indexes, as a gateway reads them: the last index of every journal; and the
            // counters ./sluice stat shows: every record shipped and received, nothing behind, Kafka up.
            for (final var journal : Excerpts.journals(primary).entrySet()) {
                final List<Long> indexes = Excerpts.of(journal.getValue()).indexes();
                try (AcknowledgedIndexReader reader = new AcknowledgedIndexReader(primary, journal.getKey(), SystemNanoClock.INSTANCE)) {
                    Replicas.await("the acknowledged index of " + journal.getKey(), 10,
                            () -> reader.acknowledgedIndex() == indexes.getLast(), shipper);
                }
                final String label = " journal=" + journal.getKey();
                Replicas.await("the counters of " + journal.getKey(), 10, () ->
                        counter(primary, "shipper", "sluice_replication_shipped_total" + label) == indexes.size()
                        && counter(primary, "shipper", "sluice_replication_lag_messages" + label) == 0
                        && counter(primary, "shipper", "sluice_replication_acknowledged_index" + label) == indexes.getLast()
                        && counter(replica, "receiver", "sluice_replication_received_total" + label) == indexes.size()
                        && counter(replica, "receiver", "sluice_replication_lag_messages" + label) == 0,
                        shipper, receiver);
            }
            assertEquals(1, counter(primary, "shipper", "sluice_replication_kafka_up"));
            assertEquals(1, counter(replica, "receiver", "sluice_replication_kafka_up"));
        }
    }

    @Test
    void aShipperKilledMidFlowResumesFromWhatKafkaHoldsWithoutGapOrDuplicate() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess receiver = Replicas.receive(dir, "receiver", "shipkill", replica, kafka.bootstrapServers())) {
            final JavaProcess first = Replicas.ship(dir, "shipper-1", "shipkill", primary, kafka.bootstrapServers());
            Replicas.await("the replica received 1000 excerpts", 60, () -> Replicas.total(replica) >= 1000, first, receiver);
            first.kill9();
            Replicas.awaitGrowth(primary, 2000, receiver);
            try (JavaProcess second = Replicas.ship(dir, "shipper-2", "shipkill", primary, kafka.bootstrapServers())) {
                Replicas.awaitGrowth(replica, 2000, second, receiver);
                Replicas.stop(dir, flow);
                Replicas.await("the replica caught up", 60, () -> Replicas.caughtUp(primary, replica), second, receiver);
                assertTrue(second.logText().contains("resumes after"), second.logText());
            }
            Excerpts.assertIdentical(primary, replica);
            assertLogHoldsEachExcerptOnceCausesFirst("shipkill", primary);
        }
    }

    @Test
    void aFrameNotFullStaysOpenForTheExcerptsThatFollowItsFirst() throws Exception {
        assertFramesHeld("held", 0, 50_000, 50_000);
    }

    @Test
    void whileAGatewayWaitsForAcknowledgementsAFrameIsHeldTheAwaitedHold() throws Exception {
        AcknowledgementWaiters.declare(dir.resolve("primary"), "gateway-1-out");
        assertFramesHeld("awaited", 50_000, 0, 50_000);
    }

    /**
     * Ships a flow with a shipper holding frames {@code awaitedMicros} while a gateway waits for acknowledgements and
     * {@code asynchronousMicros} while none does, and checks that each frame not full went to the producer (its
     * record's timestamp) no sooner than {@code expectedMicros} after its first excerpt was read: a lower bound, which
     * a slow host only widens.
     */
    private void assertFramesHeld(final String deployment, final long awaitedMicros, final long asynchronousMicros,
                                  final long expectedMicros) throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flow(dir, primary, 500, 1000);
             JavaProcess shipper = Replicas.ship(dir, "shipper", deployment, primary, kafka.bootstrapServers(),
                     awaitedMicros, asynchronousMicros);
             JavaProcess receiver = Replicas.receive(dir, "receiver", deployment, replica, kafka.bootstrapServers())) {
            assertEquals(0, flow.waitFor(60), flow.logText());
            Replicas.await("the replica caught up", 60, () -> Replicas.caughtUp(primary, replica), shipper, receiver);
            Excerpts.assertIdentical(primary, replica);
            assertLogHoldsEachExcerptOnceCausesFirst(deployment, primary);
            assertTrue(shipper.logText().contains("held up to " + expectedMicros + " µs"), shipper.logText());
        }
        final List<String> early = new ArrayList<>();
        int frames = 0;
        int excerpts = 0;
        final LogFrameReader frame = new LogFrameReader();
        for (final ConsumerRecord<byte[], byte[]> record : Replicas.log(kafka.bootstrapServers(), deployment)) {
            if (frame.wrap(record.value()) != LogFrame.Kind.EXCERPTS || record.value().length >= Shipper.FRAME_BYTES) {
                continue;
            }
            long firstReadTicks = Long.MAX_VALUE;
            while (frame.next()) {
                firstReadTicks = Math.min(firstReadTicks, frame.readTicks());
                excerpts++;
            }
            frames++;
            final long firstReadMillis = firstReadTicks / (1000 * SluiceClock.TICKS_PER_MICRO);
            if (record.timestamp() < firstReadMillis + expectedMicros / 1000 - 1) {
                early.add("offset " + record.offset() + ": sent " + (record.timestamp() - firstReadMillis)
                        + " ms after its first excerpt was read");
            }
        }
        assertEquals(List.of(), early, "frames sent before the hold was over");
        assertTrue(excerpts > frames, excerpts + " excerpts in " + frames + " frames");
    }

    @Test
    void aReceiverKilledMidFlowResumesFromItsOwnJournals() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "receivekill", primary, kafka.bootstrapServers())) {
            final JavaProcess first = Replicas.receive(dir, "receiver-1", "receivekill", replica, kafka.bootstrapServers());
            Replicas.await("the replica received 1000 excerpts", 60, () -> Replicas.total(replica) >= 1000, first, shipper);
            first.kill9();
            Replicas.awaitGrowth(primary, 2000, shipper);
            try (JavaProcess second = Replicas.receive(dir, "receiver-2", "receivekill", replica, kafka.bootstrapServers())) {
                Replicas.awaitGrowth(replica, 2000, shipper, second);
                Replicas.stop(dir, flow);
                Replicas.await("the replica caught up", 60, () -> Replicas.caughtUp(primary, replica), shipper, second);
                assertTrue(second.logText().contains("resumes at offset"), second.logText());
            }
            Excerpts.assertIdentical(primary, replica);
        }
    }

    @Test
    void aReplicaRootOfAnotherDeploymentIsRefused() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flow(dir, primary, 50, 1000)) {
            assertEquals(0, flow.waitFor(60), flow.logText());
        }
        try (JavaProcess shipper = Replicas.ship(dir, "shipper", "first", primary, kafka.bootstrapServers());
             JavaProcess receiver = Replicas.receive(dir, "receiver", "first", replica, kafka.bootstrapServers())) {
            Replicas.await("the replica caught up", 60, () -> Replicas.caughtUp(primary, replica), shipper, receiver);
        }
        try (JavaProcess other = Replicas.receive(dir, "other", "second", replica, kafka.bootstrapServers())) {
            assertEquals(ReplicateMain.EXIT_REFUSED, other.waitFor(60), other.logText());
            assertTrue(other.logText().contains("belongs to deployment: first"), other.logText());
            assertTrue(other.logText().contains("replication/identity"), other.logText());
        }
        try (JavaProcess other = Replicas.ship(dir, "other-shipper", "second", primary, kafka.bootstrapServers())) {
            assertEquals(ReplicateMain.EXIT_REFUSED, other.waitFor(60), other.logText());
        }
    }

    @Test
    void aRecordWhoseIndexIsNotTheNextStopsTheReceiverNamingJournalAndIndex() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flow(dir, primary, 50, 1000)) {
            assertEquals(0, flow.waitFor(60), flow.logText());
        }
        try (JavaProcess shipper = Replicas.ship(dir, "shipper", "gap", primary, kafka.bootstrapServers());
             JavaProcess receiver = Replicas.receive(dir, "receiver", "gap", replica, kafka.bootstrapServers())) {
            Replicas.await("the replica caught up", 60, () -> Replicas.caughtUp(primary, replica), shipper, receiver);
        }
        // A frame holding an excerpt two past the engine journal's last: one excerpt is missing.
        final Excerpts engine = Excerpts.of(Journals.engineJournal(primary));
        final long skipping = engine.indexes().getLast() + 2;
        final LogFrameWriter frame = new LogFrameWriter();
        frame.start(LogFrame.Kind.EXCERPTS);
        final byte[] last = engine.bytes().getLast();
        frame.excerpt("engine".getBytes(StandardCharsets.US_ASCII), skipping, 0, new UnsafeBuffer(last), last.length);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KafkaClients.producer(kafka.bootstrapServers(),
                "test", 0), new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(LogTopic.of("gap"), 0, null, frame.toValue())).get();
        }
        try (JavaProcess receiver = Replicas.receive(dir, "receiver-2", "gap", replica, kafka.bootstrapServers())) {
            assertEquals(ReplicateMain.EXIT_REFUSED, receiver.waitFor(60), receiver.logText());
            final String log = receiver.logText();
            assertTrue(log.contains("journal engine, index 0x" + Long.toHexString(skipping)), log);
            assertTrue(log.contains("a gap"), log);
        }
        Excerpts.assertIdentical(primary, replica);
    }

    @Test
    void aTopicOfAnOlderFormatIsRefusedSayingSo() throws Exception {
        final String topic = LogTopic.prefix("format2") + "engine"; // an older shipper's: a topic per journal
        try (Admin admin = kafka.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        try (JavaProcess receiver = Replicas.receive(dir, "receiver", "format2", dir.resolve("replica"), kafka.bootstrapServers())) {
            assertEquals(ReplicateMain.EXIT_REFUSED, receiver.waitFor(60), receiver.logText());
            assertTrue(receiver.logText().contains("receiver: refused: topic " + topic + " is of topic format 1 or 2 (a"
                    + " topic per journal), written by an older shipper"), receiver.logText());
        }
        final Path primary = dir.resolve("primary");
        try (JavaProcess flow = Replicas.flow(dir, primary, 50, 1000)) {
            assertEquals(0, flow.waitFor(60), flow.logText());
        }
        try (JavaProcess shipper = Replicas.ship(dir, "shipper", "format2", primary, kafka.bootstrapServers())) {
            assertEquals(ReplicateMain.EXIT_REFUSED, shipper.waitFor(60), shipper.logText());
            assertTrue(shipper.logText().contains("shipper: refused: topic " + topic + " is of topic format 1 or 2"),
                    shipper.logText());
        }
    }

    @Test
    void aBrokerThatNoLongerHoldsWhatTheReplicaNeedsIsReportedNotSkipped() throws Exception {
        final Path primary = dir.resolve("primary");
        try (JavaProcess flow = Replicas.flow(dir, primary, 50, 1000)) {
            assertEquals(0, flow.waitFor(60), flow.logText());
        }
        final String topic = LogTopic.of("lost");
        try (JavaProcess shipper = Replicas.ship(dir, "shipper", "lost", primary, kafka.bootstrapServers());
              Admin admin = kafka.admin()) {
            final long last = Excerpts.of(Journals.engineJournal(primary)).indexes().getLast();
            try (AcknowledgedIndexReader reader = new AcknowledgedIndexReader(primary, "engine", SystemNanoClock.INSTANCE)) {
                Replicas.await("the engine journal shipped", 60, () -> reader.acknowledgedIndex() == last, shipper);
            }
            // The broker loses the log's first record (as retention or a lost disk would).
            admin.deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(1))).all().get();
        }
        try (JavaProcess receiver = Replicas.receive(dir, "receiver", "lost", dir.resolve("replica"), kafka.bootstrapServers())) {
            assertEquals(ReplicateMain.EXIT_REFUSED, receiver.waitFor(60), receiver.logText());
            final String log = receiver.logText();
            assertTrue(log.contains("topic " + topic + " starts at offset 1 but the replica needs offset 0"), log);
        }
    }

    /** @return the value of the counter labelled {@code label} in {@code process}'s counters file under {@code root} */
    private static long counter(final Path root, final String process, final String label) {
        return new CountersDirectory(root).read().stream().filter(p -> p.process().equals(process))
                .flatMap(p -> p.counters().stream()).filter(c -> c.label().text().equals(label))
                .mapToLong(CountersDirectory.Counter::value).findFirst()
                .orElseThrow(() -> new AssertionError("no counter " + label + " in " + process + "'s counters file under " + root));
    }

    /** Asserts that the log of {@code deployment} holds each excerpt of each journal once, in order, causes first. */
    static void assertLogHoldsEachExcerptOnceCausesFirst(final String deployment, final Path primary) throws Exception {
        Replicas.assertLogHoldsEachExcerptOnceCausesFirst(kafka.bootstrapServers(), deployment, primary);
    }
}
