package io.sluice.replication;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.kafka.KafkaCluster;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A receiver is one writer of each journal it rebuilds, as the OS enforces for every writer: with a real broker and
 * real processes, a receiver pointed at a root whose engine journal an engine writes is refused (exit 3) naming the
 * journal and the engine's pid, and writes nothing; an engine started on a root a receiver rebuilds is refused (exit 1)
 * naming the receiver's pid. The replication roles and the Kafka node stop with exit code 0 on SIGTERM.
 */
final class ReplicaRootWritersTest {
    @RegisterExtension
    static final BrokerPerTestClass kafka = new BrokerPerTestClass();

    @TempDir
    Path dir;

    @Test
    void aReceiverOnARootWhoseEngineJournalAnEngineWritesIsRefusedNamingTheEngine() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path served = dir.resolve("served");
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "misdirected", primary, kafka.bootstrapServers());
             JavaProcess engine = engine("engine", served)) {
            Replicas.await("the engine is live", 120, () -> engine.logText().contains("engine: recovered"), engine);
            Replicas.await("the shipper resumes", 60, () -> shipper.logText().contains("resumes from its first excerpt"),
                    shipper);
            final long excerptsBefore = excerpts(Journals.engineJournal(served));
            try (JavaProcess receiver = Replicas.receive(dir, "receiver", "misdirected", served, kafka.bootstrapServers())) {
                assertEquals(ReplicateMain.EXIT_REFUSED, receiver.waitFor(120), receiver.logText());
                final Path journal = Journals.engineJournal(served).toAbsolutePath();
                assertTrue(receiver.logText().contains("receiver: refused: journal " + journal + " is written by engine pid "
                        + engine.pid() + " (it holds " + journal.resolve("writer.lock") + "): one process writes a"
                        + " journal; stop that one first"), receiver.logText());
            }
            assertEquals(excerptsBefore, excerpts(Journals.engineJournal(served)), "nothing written by the receiver");
            assertTrue(engine.isAlive(), engine.logText());
            assertEquals(0, engine.stop(30), engine.logText());
            Replicas.stop(dir, flow);
            assertEquals(0, shipper.stop(30), shipper.logText()); // SIGTERM: a clean stop
        }
    }

    @Test
    void anEngineOnARootAReceiverRebuildsIsRefusedNamingTheReceiverAndEveryRoleExitsZeroOnSigterm() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (JavaProcess flow = Replicas.flow(dir, primary, 300, 1000);
             JavaProcess shipper = Replicas.ship(dir, "shipper", "rebuilt", primary, kafka.bootstrapServers());
             JavaProcess receiver = Replicas.receive(dir, "receiver", "rebuilt", replica, kafka.bootstrapServers())) {
            assertEquals(0, flow.waitFor(120), flow.logText());
            Replicas.await("the replica caught up", 120, () -> Replicas.caughtUp(primary, replica), shipper, receiver);
            try (JavaProcess engine = engine("engine", replica)) {
                assertEquals(EngineMain.EXIT_FAILED, engine.waitFor(120), engine.logText());
                final Path journal = Journals.engineJournal(replica).toAbsolutePath();
                assertTrue(engine.logText().contains("engine: cannot start: journal " + journal + " is written by"
                        + " receiver pid " + receiver.pid()), engine.logText());
                assertFalse(engine.logText().contains("engine: recovered"), engine.logText());
            }
            assertEquals(0, receiver.stop(30), receiver.logText()); // SIGTERM: a clean stop
            assertTrue(receiver.logText().contains("receiver: stopped"), receiver.logText());
            assertEquals(0, shipper.stop(30), shipper.logText());
            assertTrue(shipper.logText().contains("shipper: stopped"), shipper.logText());
        }
    }

    @Test
    void aKafkaNodeStopsWithExitCodeZeroOnSigterm() throws Exception {
        final KafkaCluster node = KafkaCluster.start(dir.resolve("kafka"), 1);
        try {
            assertEquals(0, node.stop(0), node.logs());
        } finally {
            node.close();
        }
    }

    /** Starts an engine process on {@code root}, gateway 1's journal its input. */
    private JavaProcess engine(final String name, final Path root) throws IOException {
        final Path config = dir.resolve(name + ".yaml");
        Files.writeString(config, """
                !io.sluice.engine.config.EngineConfig {
                  journalRoot: "%s",
                  gatewayIds: [ 1 ],
                  idle: { strategy: sleep-ms, sleepPeriodMs: 1 },
                  instruments: [
                    { symbol: VOD.L, tickSize: 0.01, lotSize: 1, priceLow: 50, priceHigh: 150, maxOrderQty: 1000000, maxNotional: 50000000 }
                  ]
                }
                """.formatted(root));
        return JavaProcess.start(name, dir.resolve(name + ".log"), List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"),
                EngineMain.class, "--config", config.toString());
    }

    private static long excerpts(final Path journal) {
        if (!Files.exists(journal.resolve("metadata.cq4t"))) {
            return 0;
        }
        try (var queue = Journals.openReadOnly(journal)) {
            return queue.lastIndex();
        }
    }
}
