package io.sluice.gateway;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.GatewayDeliveries;
import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.SessionProgress;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.JournalSurgery;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.sluice.contracts.EventFixtures.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway reads its own journals whole as it starts, every record's checksum checked: a flipped byte in its
 * command journal or in its session store stops the start, naming the journal, its real cycle file, the excerpt
 * and the byte offset; as a process it exits with code 3 and that message, and never listens. So does a damaged
 * excerpt header, which a tailer takes for the journal's end: the gateway names it rather than append after it. A
 * damaged report in the engine journal stops it the same way before it delivers anything of it.
 */
final class GatewayJournalIntegrityTest {
    private static final int GATEWAY = 1;

    @TempDir
    Path dir;

    @Test
    void aFlippedByteInTheCommandJournalStopsTheStart() throws Exception {
        final Path root = dir.resolve("journals");
        final NewOrder second = EventFixtures.newOrder();
        second.metaData().eventId(2);
        try (ChronicleQueue commands = Journals.open(Journals.gatewayJournal(root, GATEWAY))) {
            final GatewayToEngine writer = commands.methodWriter(GatewayToEngine.class);
            writer.newOrder(EventFixtures.newOrder());
            writer.newOrder(second);
        }
        final JournalSurgery.Change flipped = JournalSurgery.flip(Journals.gatewayJournal(root, GATEWAY), 2, second, 50);

        final CorruptJournalException e = assertThrows(CorruptJournalException.class,
                () -> Gateway.launch(new GatewayContext().config(config(root))).close());
        assertDamageAt(flipped, Journals.gatewayJournal(root, GATEWAY), e);
    }

    @Test
    void aFlippedByteInTheSessionStoreStopsTheGatewayProcessWithExitCodeThree() throws Exception {
        final Path root = dir.resolve("journals");
        final SessionProgress progress = new SessionProgress().set(id("CLIENT1"), 3, 5, 0);
        try (ChronicleQueue store = Journals.open(Journals.gatewayDeliveries(root, GATEWAY))) {
            final GatewayRecords writer = Journals.methodWriter(store.createAppender(), GatewayRecords.class);
            final UnsafeBuffer body = new UnsafeBuffer("35=0|".getBytes());
            writer.sent(new SentMessage(64).set(id("CLIENT1"), 1, '0', 1_764_000_000_000L, 0, body, 0, 5));
            writer.sent(new SentMessage(64).set(id("CLIENT1"), 2, '0', 1_764_000_001_000L, 0, body, 0, 5));
            writer.received(progress);
        }
        final JournalSurgery.Change flipped = JournalSurgery.flip(Journals.gatewayDeliveries(root, GATEWAY), 3, progress, 9);
        final CorruptJournalException e = assertThrows(CorruptJournalException.class,
                () -> Gateway.launch(new GatewayContext().config(config(root))).close());
        assertDamageAt(flipped, Journals.gatewayDeliveries(root, GATEWAY), e);

        final Path configFile = dir.resolve("gateway.yaml");
        Files.writeString(configFile, config(root).toString());
        try (JavaProcess gateway = JavaProcess.start("gateway", dir.resolve("gateway.log"), List.of("-Xmx256m"),
                GatewayMain.class, "--config", configFile.toString())) {
            assertEquals(GatewayMain.EXIT_CORRUPT_JOURNAL, gateway.waitFor(60), gateway::logText);
            final String log = gateway.logText();
            assertTrue(log.contains("gateway 1: cannot start on a damaged journal: journal "
                    + Journals.gatewayDeliveries(root, GATEWAY).toAbsolutePath() + ", file " + flipped.file().getFileName()
                    + ", excerpt index 0x" + Long.toHexString(flipped.index())), log);
            assertTrue(log.contains("byte offset " + flipped.offset() + ": checksum mismatch"), log);
            assertTrue(!log.contains("listening"), log);
        }
    }

    @Test
    void aDamagedExcerptHeaderInTheCommandJournalStopsTheGatewayProcessWithExitCodeThree() throws Exception {
        final Path root = dir.resolve("journals");
        final Path journal = Journals.gatewayJournal(root, GATEWAY);
        try (ChronicleQueue commands = Journals.open(journal)) {
            final GatewayToEngine writer = commands.methodWriter(GatewayToEngine.class);
            for (int eventId = 1; eventId <= 5; eventId++) {
                final NewOrder order = EventFixtures.newOrder();
                order.metaData().eventId(eventId);
                writer.newOrder(order);
            }
        }
        final JournalSurgery.Change damaged = JournalSurgery.damageHeader(journal, 3);
        final long lastIndex = lastIndex(journal);

        final Path configFile = dir.resolve("gateway.yaml");
        Files.writeString(configFile, config(root).toString());
        try (JavaProcess gateway = GatewayProcess.start(dir, "gateway", configFile)) {
            JournalProbe.await("the gateway exits or listens", 120,
                    () -> !gateway.isAlive() || gateway.logText().contains("listening on"));
            assertEquals(GatewayMain.EXIT_CORRUPT_JOURNAL, gateway.waitFor(30), gateway.logText());
            final String log = gateway.logText();
            assertTrue(log.contains("gateway 1: cannot start on a damaged journal: journal " + journal.toAbsolutePath()
                    + ", file " + damaged.file().getFileName() + ", excerpt index 0x" + Long.toHexString(damaged.index())
                    + " (sequence 2 of cycle "), log);
            assertTrue(log.contains("byte offset " + damaged.offset() + ": the excerpt cannot be read (its header is"
                    + " damaged), though the journal holds excerpts up to index 0x" + Long.toHexString(lastIndex)), log);
            assertFalse(log.contains("listening on"), log);
        }
        assertEquals(lastIndex, lastIndex(journal), "nothing appended past the damage");
    }

    private static long lastIndex(final Path journal) {
        try (ChronicleQueue queue = Journals.openReadOnly(journal)) {
            return queue.lastIndex();
        }
    }

    @Test
    void aFlippedByteInAReportStopsTheGatewayBeforeItDeliversIt() throws Exception {
        final Path root = dir.resolve("journals");
        final ExecutionReport report = EventFixtures.executionReport();
        report.gatewayId(GATEWAY).session(id("CLIENT1"));
        try (ChronicleQueue engine = Journals.open(Journals.engineJournal(root))) {
            engine.methodWriter(EngineToGateway.class).executionReport(report);
        }
        final JournalSurgery.Change flipped = JournalSurgery.flip(Journals.engineJournal(root), 1, report, 80);
        try (Gateway gateway = Gateway.launch(new GatewayContext().config(config(root)))) {
            final CorruptJournalException e = assertThrows(CorruptJournalException.class, gateway::doWork);
            assertDamageAt(flipped, Journals.engineJournal(root), e);
            assertEquals(0, deliveries(root), "no delivery recorded in the gateway's own journal");
        }
    }

    /** @return how many deliveries the gateway's own journal records */
    private static int deliveries(final Path root) {
        final int[] count = {0};
        try (ChronicleQueue out = Journals.openReadOnly(Journals.gatewayDeliveries(root, GATEWAY))) {
            final MethodReader reader = out.createTailer().methodReader((GatewayDeliveries) delivery -> count[0]++);
            while (reader.readOne()) {
                // count
            }
        }
        return count[0];
    }

    private GatewayConfig config(final Path root) {
        return new GatewayConfig().gatewayId(GATEWAY).journalRoot(root)
                .listen("unix:" + dir.resolve("gw.sock")).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
    }

    private static void assertDamageAt(final JournalSurgery.Change change, final Path journal, final CorruptJournalException e) {
        assertEquals(change.file(), e.file(), e.getMessage());
        assertEquals(change.offset(), e.fileOffset(), e.getMessage());
        assertEquals(change.index(), e.index(), e.getMessage());
        assertTrue(e.getMessage().startsWith("journal " + journal.toAbsolutePath() + ", file " + change.file().getFileName()),
                e.getMessage());
        assertTrue(Files.exists(e.file()), e.getMessage());
    }
}
