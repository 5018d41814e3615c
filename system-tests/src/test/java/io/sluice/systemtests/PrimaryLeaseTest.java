package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.bench.replication.ReplicationProcesses;
import io.sluice.bench.replication.ReplicationProcesses.ShipperTuning;
import io.sluice.contracts.RejectReason;
import io.sluice.engine.config.EngineConfig;
import io.sluice.kafka.KafkaCluster;
import io.sluice.replay.ReplayAssertions;
import io.sluice.replication.KafkaClients;
import io.sluice.replication.ReplicateMain;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ExecType;
import quickfix.field.Side;
import quickfix.field.TimeInForce;
import quickfix.fix44.NewOrderSingle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.sluice.systemtests.FixMessages.cancel;
import static io.sluice.systemtests.FixMessages.charField;
import static io.sluice.systemtests.FixMessages.clOrdId;
import static io.sluice.systemtests.FixMessages.order;
import static io.sluice.systemtests.FixMessages.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A primary that loses Kafka, or its shipper, stops taking orders, with real processes and a real broker. The lease
 * (here 1 s) lapses once Kafka acknowledges none of the shipper's writes, or once the shipper is killed, and the engine,
 * told through the admin journal by its lease watch, rejects new orders with the lease's text while resting orders stay
 * and the session stays logged on; with the broker (or a shipper) back it takes orders again, and the replica, which
 * received the admin commands too, replays identically. A primary fenced by a newer epoch of its deployment's
 * transactional.id while it was cut off rejects orders for good once Kafka is back, and a shipper started again on its
 * root refuses.
 */
class PrimaryLeaseTest {
    private static final String CLIENT = "LEASER";
    private static final String PASSWORD = "secret";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final long LEASE_MILLIS = 1000;
    private static final ShipperTuning SHORT_LEASE = ShipperTuning.DEFAULTS.lease(LEASE_MILLIS);
    /**
     * How much later than its lease a primary whose shipper was killed may still take an order: the watch's look, the
     * engine reading the admin command, an order's round trip, on a loaded 2-core host.
     */
    private static final long LEASE_SLACK_MILLIS = 4000;

    @TempDir
    Path dir;

    @Test
    void aPrimaryCutOffFromKafkaRejectsNewOrdersUntilKafkaTakesItsWritesAgainAndItsRestingOrdersStay() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            final SluiceDeployment primary = deployment("primary");
            final Path replica = dir.resolve("replica");
            final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper", "lease", primary.journals(),
                    kafka.bootstrapServers(), SHORT_LEASE);
            final JavaProcess receiver = ReplicationProcesses.receive(dir, "receiver", "lease", replica,
                    kafka.bootstrapServers());
            try (QuickFixJClient client = new QuickFixJClient(primary.endpoint(1), CLIENT,
                    SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj"))) {
                restASell(primary, client);
                // The lease runs from Kafka's first acknowledgement: the replica holds the sell once there was one.
                PollUntil.await(() -> engineExcerpts(replica) >= 1, TIMEOUT,
                        () -> "the replica to hold the resting sell; " + shipper.logText() + receiver.logText());

                kafka.stop(0);
                final Message lapsed = firstAnswered(client, "CUT", ExecType.REJECTED);
                assertEquals(RejectReason.LEASE_LAPSED.text(), QuickFixJClient.text(lapsed), client.trafficText());
                // The watch prints after its append: the engine may reject an order before the line is out.
                PollUntil.await(() -> primary.engine().logText().contains("lease lapsed"), TIMEOUT,
                        () -> "the engine's watch to say the lease lapsed; " + primary.engine().logText());

                kafka.restart(0);
                PollUntil.await(() -> primary.engine().logText().contains("lease held"), TIMEOUT,
                        () -> "the engine to be told the lease is held again; " + shipper.logText()
                                + primary.engine().logText());
                // The engine reads the admin journal beside the gateway's: an order may come before the lease's news.
                firstAnswered(client, "BACK", ExecType.NEW);
                client.send(cancel("UNREST", "REST", 10));
                client.await("the sell that rested through the lapse canceled", report("UNREST", ExecType.CANCELED));
                assertEquals(1, client.logons(), "the session stayed logged on; " + client.trafficText());
                assertEquals(0, client.logouts(), client.trafficText());

                final EngineConfig config = EngineConfig.load(primary.root().resolve("config/engine.yaml"));
                ReplayAssertions.assertReplaysIdentically(primary.journals(), config);
                PollUntil.await(() -> excerpts(replica).equals(excerpts(primary.journals())), TIMEOUT,
                        () -> "the replica to catch up; " + receiver.logText());
                ReplayAssertions.assertReplaysIdentically(replica, config);
            } finally {
                primary.close();
                shipper.close();
                receiver.close();
            }
        }
    }

    @Test
    void aPrimaryWhoseShipperIsKilledRejectsNewOrdersWithinItsLeaseUntilAShipperIsBack() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            final SluiceDeployment primary = deployment("primary");
            final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper", "orphan", primary.journals(),
                    kafka.bootstrapServers(), SHORT_LEASE);
            JavaProcess again = null;
            try (QuickFixJClient client = new QuickFixJClient(primary.endpoint(1), CLIENT,
                    SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj"))) {
                restASellShipped(primary, client, kafka, "orphan", shipper);

                // Engine and gateway live on; nobody ships what they take from now on, and a standby would take over.
                final long killedNanos = System.nanoTime();
                shipper.kill9();
                final Message lapsed = firstAnswered(client, "ORPHAN", ExecType.REJECTED,
                        Duration.ofMillis(LEASE_MILLIS + LEASE_SLACK_MILLIS));
                final long rejectedMillis = Duration.ofNanos(System.nanoTime() - killedNanos).toMillis();
                assertEquals(RejectReason.LEASE_LAPSED.text(), QuickFixJClient.text(lapsed), client.trafficText());
                assertTrue(rejectedMillis <= LEASE_MILLIS + LEASE_SLACK_MILLIS, rejectedMillis + " ms after the kill");
                // The watch prints after its append: the engine may reject an order before the line is out.
                PollUntil.await(() -> primary.engine().logText().contains("lease lapsed"), TIMEOUT,
                        () -> "the engine's watch to say the lease lapsed; " + primary.engine().logText());
                client.send(order("STILL", Side.BUY, 10, 100));
                assertEquals(RejectReason.LEASE_LAPSED.text(), QuickFixJClient.text(
                        client.await("the order after the lapse", report("STILL", ExecType.REJECTED))));

                // A shipper started again holds the lease once Kafka acknowledges its writes, and only then.
                again = ReplicationProcesses.ship(dir, "shipper-again", "orphan", primary.journals(),
                        kafka.bootstrapServers(), SHORT_LEASE);
                final JavaProcess restarted = again;
                PollUntil.await(() -> primary.engine().logText().contains("lease held"), TIMEOUT,
                        () -> "the engine to be told the lease is held again; " + restarted.logText()
                                + primary.engine().logText());
                firstAnswered(client, "BACK", ExecType.NEW);
                client.send(cancel("UNREST", "REST", 10));
                client.await("the sell that rested through the lapse canceled", report("UNREST", ExecType.CANCELED));
                assertEquals(1, client.logons(), "the session stayed logged on; " + client.trafficText());

                ReplayAssertions.assertReplaysIdentically(primary.journals(),
                        EngineConfig.load(primary.root().resolve("config/engine.yaml")));
            } finally {
                primary.close();
                shipper.close();
                if (again != null) {
                    again.close();
                }
            }
        }
    }

    @Test
    void aPrimaryFencedWhileCutOffStaysHaltedOnceKafkaIsBack() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            final SluiceDeployment primary = deployment("primary");
            final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper", "fenced", primary.journals(),
                    kafka.bootstrapServers(), SHORT_LEASE);
            JavaProcess again = null;
            try (QuickFixJClient client = new QuickFixJClient(primary.endpoint(1), CLIENT,
                    SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj"))) {
                restASellShipped(primary, client, kafka, "fenced", shipper);

                kafka.stop(0);
                assertEquals(RejectReason.LEASE_LAPSED.text(),
                        QuickFixJClient.text(firstAnswered(client, "CUT", ExecType.REJECTED)));
                // Cut off for as long as it takes a newer primary to fence it: its shipper gets no CPU meanwhile.
                signal("STOP", shipper);
                kafka.restart(0);
                try (KafkaProducer<byte[], byte[]> newer = new KafkaProducer<>(KafkaClients.fencer(
                        kafka.bootstrapServers(), "fenced"), new ByteArraySerializer(), new ByteArraySerializer())) {
                    newer.initTransactions();
                }
                signal("CONT", shipper);

                assertEquals(ReplicateMain.EXIT_FENCED, shipper.waitFor(TIMEOUT.toSeconds()), shipper.logText());
                assertTrue(shipper.logText().contains("lease fenced"), shipper.logText());
                awaitRejectedWith(client, "AFTER", RejectReason.PRIMARY_FENCED);

                again = ReplicationProcesses.ship(dir, "shipper-again", "fenced", primary.journals(),
                        kafka.bootstrapServers(), SHORT_LEASE);
                assertEquals(ReplicateMain.EXIT_REFUSED, again.waitFor(TIMEOUT.toSeconds()), again.logText());
                assertTrue(again.logText().contains("was fenced by a newer primary"), again.logText());
                client.send(order("STILL", Side.BUY, 10, 100));
                assertEquals(RejectReason.PRIMARY_FENCED.text(), QuickFixJClient.text(
                        client.await("the order after the refused shipper", report("STILL", ExecType.REJECTED))));
                // The sell rested through it all: cancels are taken.
                client.send(cancel("UNREST", "REST", 10));
                client.await("the resting sell canceled", report("UNREST", ExecType.CANCELED));

                ReplayAssertions.assertReplaysIdentically(primary.journals(),
                        EngineConfig.load(primary.root().resolve("config/engine.yaml")));
            } finally {
                primary.close();
                shipper.close();
                if (again != null) {
                    again.close();
                }
            }
        }
    }

    /**
     * Sends IOC buys that find nothing to trade, one at a time, each named {@code prefix} and a count, until one is
     * answered {@code execType} (NEW: accepted, REJECTED): @return that answer
     */
    private static Message firstAnswered(final QuickFixJClient client, final String prefix, final char execType)
            throws Exception {
        return firstAnswered(client, prefix, execType, TIMEOUT);
    }

    /** As {@link #firstAnswered(QuickFixJClient, String, char)}, sending none after {@code within}. */
    private static Message firstAnswered(final QuickFixJClient client, final String prefix, final char execType,
                                         final Duration within) throws Exception {
        final long deadline = System.nanoTime() + within.toNanos();
        for (int i = 0; System.nanoTime() < deadline; i++) {
            final String id = prefix + i;
            final NewOrderSingle buy = order(id, Side.BUY, 1, 99);
            buy.set(new TimeInForce(TimeInForce.IMMEDIATE_OR_CANCEL));
            client.send(buy);
            final Message answer = client.await("an answer to " + id, message -> id.equals(clOrdId(message))
                    && (charField(message, ExecType.FIELD) == ExecType.NEW
                    || charField(message, ExecType.FIELD) == ExecType.REJECTED));
            if (charField(answer, ExecType.FIELD) == execType) {
                return answer;
            }
        }
        throw new AssertionError("no order answered " + execType + " in " + within + "; " + client.trafficText());
    }

    /**
     * Sends IOC buys, each named {@code prefix} and a count, until one is rejected with {@code reason}'s text; each before
     * it must be rejected too (the engine may read an order before the admin command that changes the reason).
     */
    private static void awaitRejectedWith(final QuickFixJClient client, final String prefix, final RejectReason reason)
            throws Exception {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        for (int i = 0; System.nanoTime() < deadline; i++) {
            final Message rejected = firstAnswered(client, prefix + i + "-", ExecType.REJECTED);
            assertEquals(prefix + i + "-0", clOrdId(rejected), "not accepted; " + client.trafficText());
            if (reason.text().equals(QuickFixJClient.text(rejected))) {
                return;
            }
        }
        throw new AssertionError("no order rejected with " + reason + " in " + TIMEOUT + "; " + client.trafficText());
    }

    /** Starts the primary's gateway and engine, logs the client on and rests a sell, REST, 10 at 101. */
    private static void restASell(final SluiceDeployment primary, final QuickFixJClient client) throws Exception {
        primary.startGateway(1);
        primary.launchEngine();
        client.logOn();
        client.send(order("REST", Side.SELL, 10, 101));
        client.await("the resting sell acknowledged", report("REST", ExecType.NEW));
    }

    /** As {@link #restASell}, then waits until Kafka holds the engine journal that {@code shipper} ships. */
    private static void restASellShipped(final SluiceDeployment primary, final QuickFixJClient client,
                                         final KafkaCluster kafka, final String deployment, final JavaProcess shipper)
            throws Exception {
        restASell(primary, client);
        PollUntil.await(() -> ReplicationProcesses.kafkaLastIndexes(kafka.bootstrapServers(), deployment)
                .containsKey("engine"), TIMEOUT, () -> "Kafka to hold the engine journal; " + shipper.logText());
    }

    private static void signal(final String signal, final JavaProcess process) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor());
    }

    private static long engineExcerpts(final Path root) {
        return excerpts(root).get("engine");
    }

    /** @return the excerpt counts of the journals the engine reads and writes under {@code root} (none yet: 0) */
    private static Map<String, Long> excerpts(final Path root) {
        final Map<String, Long> counts;
        try {
            counts = Files.isDirectory(root) ? ReplicationProcesses.excerptCounts(root) : Map.of();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("engine", counts.getOrDefault("engine", 0L), "admin", counts.getOrDefault("admin", 0L),
                "gateway-1", counts.getOrDefault("gateway-1", 0L));
    }

    private SluiceDeployment deployment(final String name) throws IOException {
        return SluiceDeployment.prepare(dir.resolve(name), List.of(new SluiceDeployment.GatewaySpec(1,
                        FixTransport.TCP, List.of(SessionIdentity.ofSluiceClient(CLIENT, PASSWORD)))),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS);
    }
}
