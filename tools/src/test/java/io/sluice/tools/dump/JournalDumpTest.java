package io.sluice.tools.dump;

import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.Delivery;
import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.SessionProgress;
import io.sluice.contracts.Side;
import io.sluice.contracts.SnapshotBegin;
import io.sluice.contracts.SnapshotEnd;
import io.sluice.contracts.SnapshotInstrument;
import io.sluice.contracts.SnapshotOrder;
import io.sluice.contracts.SnapshotSource;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.Journals;
import io.sluice.marketdata.feed.AddOrder;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchLayout;
import io.sluice.marketdata.journal.BatchWriter;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.JournalSurgery;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ChronicleReaderMain;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A journal written by Sluice reads as YAML with Chronicle's own ChronicleReaderMain and with {@code ./sluice dump},
 * run as a separate process exactly as an operator would, and neither the writer nor the reader prints Chronicle's
 * warnings. The dump shows every record type, and stops on a damaged journal, market data included, with where it is.
 */
final class JournalDumpTest {
    /**
     * A dump that hangs never exits; one that works exits in seconds, but a child JVM may take tens of seconds just to
     * start on a loaded 2-core machine, so the bound is generous: it tells a hang from a slow start, not a speed.
     */
    private static final int CHILD_EXIT_SECONDS = 180;

    @TempDir
    Path root;

    @Test
    void chroniclesOwnReaderDumpsAGatewayJournalAsYaml() throws Exception {
        final Path journal = Journals.gatewayJournal(root, 3);
        try (ChronicleQueue queue = Journals.open(journal)) {
            final GatewayToEngine writer = queue.methodWriter(GatewayToEngine.class);
            writer.newOrder(EventFixtures.newOrder());
            writer.cancelOrder(EventFixtures.cancelOrder());
        }
        final String text = runReader(ChronicleReaderMain.class, "-d", journal.toString(), "-r", GatewayToEngine.class.getName());
        assertTrue(text.contains("newOrder: {"), text);
        assertTrue(text.contains("clOrdId: ORD-000001"), text);
        assertTrue(text.contains("price: 101.25"), text);
        assertTrue(text.contains("cancelOrder: {"), text);
        assertTrue(text.contains("origClOrdId: ORD-000001"), text);
        assertNoChronicleWarnings(text);
    }

    @Test
    void theDumpRoleChoosesTheInterfaceFromTheJournalName() throws Exception {
        final Path journal = Journals.engineJournal(root);
        try (ChronicleQueue queue = Journals.open(journal)) {
            queue.methodWriter(EngineToGateway.class).executionReport(EventFixtures.executionReport());
        }
        final String text = runReader(JournalDump.class, journal.toString());
        assertTrue(text.contains("executionReport: {"), text);
        assertTrue(text.contains("execType: TRADE"), text);
        assertTrue(text.contains("avgPx: 100.33333333"), text);
        assertNoChronicleWarnings(text);
    }

    @Test
    void theDumpOfAGatewaysOwnJournalShowsEveryRecordType() throws Exception {
        final Path journal = Journals.gatewayDeliveries(root, 2);
        try (ChronicleQueue queue = Journals.open(journal)) {
            final GatewayRecords writer = Journals.methodWriter(queue.createAppender(), GatewayRecords.class);
            final UnsafeBuffer body = new UnsafeBuffer("35=8|".getBytes());
            writer.sent(new SentMessage(64).set(EventFixtures.id("CLIENT1"), 7, '8', 1_764_000_000_000L, 0x55, body, 0, 5));
            writer.received(new SessionProgress().set(EventFixtures.id("CLIENT1"), 8, 4, 12));
            writer.reset(new SessionProgress().set(EventFixtures.id("CLIENT1"), 1, 1, 12));
            writer.delivered(new Delivery().session(EventFixtures.id("CLIENT1")).execId(99));
        }
        final String text = runReader(JournalDump.class, journal.toString(), "-s");
        for (final String expected : List.of("sent: {", "seqNum: 7", "engineIndex: 85", "received: {", "nextTargetSeq: 4",
                "reset: {", "delivered: {", "execId: 99", "# index 0x")) {
            assertTrue(text.contains(expected), () -> "no '" + expected + "' in:\n" + text);
        }
        assertNoChronicleWarnings(text);
    }

    @Test
    void theDumpOfTheMarketDataJournalShowsEveryBatchAndItsMessages() throws Exception {
        final Path journal = writeMarketData(2);
        final String text = runReader(JournalDump.class, journal.toString(), "-s");
        for (final String expected : List.of("batch: { engineIndex: none, firstSequence: 1, count: 1 }",
                "1: tradingStatus: { symbol: VOD.L, timestamp: 5, status: H, halt: true }",
                "batch: { engineIndex: 0x1234, firstSequence: 2, count: 1 }",
                "2: addOrder: { symbol: VOD.L, timestamp: 6, side: B, orderId: 42, price: 100, quantity: 300 }",
                "# index 0x")) {
            assertTrue(text.contains(expected), () -> "no '" + expected + "' in:\n" + text);
        }
        assertNoChronicleWarnings(text);
    }

    @Test
    void theDumpOfTheSnapshotJournalShowsEverySnapshotRecord() throws Exception {
        final Path journal = Journals.snapshotJournal(root);
        try (ChronicleQueue queue = Journals.open(journal)) {
            final EngineSnapshots writer = Journals.methodWriter(queue.createAppender(), EngineSnapshots.class);
            writer.snapshotBegin(new SnapshotBegin().position(0x512e00000007L, 0x1234, 1, 7, 7).state(3, 9, 1, 0, 1, 1)
                    .capacities(1000, 100, 64));
            writer.snapshotSource(new SnapshotSource().set(1, 7, 0x512e00000006L));
            writer.snapshotInstrument(new SnapshotInstrument().set(EventFixtures.id("VOD.L"), Price.of(1) / 100, 1,
                    Price.of(50), Price.of(150), 1000, Price.of(1_000_000)));
            writer.snapshotOrder(new SnapshotOrder().resting(true).owner(3, 1, EventFixtures.id("CLIENT1"), 0)
                    .terms(EventFixtures.id("ORD-000003"), EventFixtures.id("ACC"), EventFixtures.id("VOD.L"), Side.BUY,
                            OrdType.LIMIT, TimeInForce.DAY, 100, Price.of(101)).state(OrdStatus.PARTIALLY_FILLED, 40, 40 * Price.of(101)));
            writer.snapshotEnd(new SnapshotEnd().set(0x512e00000007L, 0, 2, 0x5678));
        }
        final String text = runReader(JournalDump.class, journal.toString());
        for (final String expected : List.of("snapshotBegin: {", "formatVersion: " + SnapshotBegin.FORMAT_VERSION,
                "lastExecId: 9", "snapshotSource: {", "snapshotInstrument: {", "symbol: VOD.L", "snapshotOrder: {",
                "clOrdId: ORD-000003", "price: 101",
                "ordStatus: PARTIALLY_FILLED", "snapshotEnd: {", "excerpts: 2")) {
            assertTrue(text.contains(expected), () -> "no '" + expected + "' in:\n" + text);
        }
        assertNoChronicleWarnings(text);
    }

    @Test
    void theDumpOfADamagedJournalStopsWithWhereAndExitCodeThree() throws Exception {
        final Path journal = Journals.gatewayJournal(root, 3);
        try (ChronicleQueue queue = Journals.open(journal)) {
            final GatewayToEngine writer = queue.methodWriter(GatewayToEngine.class);
            writer.newOrder(EventFixtures.newOrder());
            writer.cancelOrder(EventFixtures.cancelOrder());
            writer.newOrder(EventFixtures.newOrder());
        }
        final JournalSurgery.Change flipped = JournalSurgery.flip(journal, 2, EventFixtures.cancelOrder(), 30);
        try (JavaProcess reader = JavaProcess.start("reader", root.resolve("reader.log"), List.of(), JournalDump.class,
                journal.toString())) {
            assertEquals(JournalDump.EXIT_CORRUPT, reader.waitFor(CHILD_EXIT_SECONDS), reader::logText);
            final String text = reader.logText();
            assertTrue(text.contains("newOrder: {"), text);
            assertTrue(text.contains("dump: stopped on a damaged journal: journal " + journal.toAbsolutePath()
                    + ", file " + flipped.file().getFileName() + ", excerpt index 0x" + Long.toHexString(flipped.index())), text);
            assertTrue(flipped.file().getFileName().toString().endsWith("F.cq4"), flipped.file().toString());
            assertTrue(text.contains("byte offset " + flipped.offset() + ": checksum mismatch"), text);
        }
    }

    @Test
    void theDumpOfAJournalWithADamagedExcerptHeaderStopsTooNeverHangs() throws Exception {
        final Path journal = Journals.gatewayJournal(root, 3);
        try (ChronicleQueue queue = Journals.open(journal)) {
            final GatewayToEngine writer = queue.methodWriter(GatewayToEngine.class);
            writer.newOrder(EventFixtures.newOrder());
            writer.cancelOrder(EventFixtures.cancelOrder());
            writer.newOrder(EventFixtures.newOrder());
        }
        final JournalSurgery.Change second = JournalSurgery.excerpt(journal, 2);
        JournalSurgery.flip(second, -1); // the length word's top byte, just before the content
        try (JavaProcess reader = JavaProcess.start("reader", root.resolve("reader.log"), List.of(), JournalDump.class,
                journal.toString())) {
            assertEquals(JournalDump.EXIT_CORRUPT, reader.waitFor(CHILD_EXIT_SECONDS), reader::logText);
            final String text = reader.logText();
            assertTrue(text.contains("dump: stopped on a damaged journal: journal " + journal.toAbsolutePath()
                    + ", file " + second.file().getFileName() + ", excerpt index 0x" + Long.toHexString(second.index())), text);
        }
    }

    @Test
    void theDumpOfAMarketDataJournalWithADamagedExcerptHeaderStopsNamingFileAndOffset() throws Exception {
        final Path journal = writeMarketData(3);
        final JournalSurgery.Change damaged = JournalSurgery.damageHeader(journal, 2);
        try (JavaProcess reader = JavaProcess.start("reader", root.resolve("reader.log"), List.of(), JournalDump.class,
                journal.toString())) {
            assertEquals(JournalDump.EXIT_CORRUPT, reader.waitFor(CHILD_EXIT_SECONDS), reader::logText);
            final String text = reader.logText();
            assertTrue(text.contains("batch: { engineIndex: none, firstSequence: 1, count: 1 }"), text);
            assertFalse(text.contains("firstSequence: 2"), text);
            assertTrue(text.contains("dump: stopped on a damaged journal: journal " + journal.toAbsolutePath()
                    + ", file " + damaged.file().getFileName() + ", excerpt index 0x" + Long.toHexString(damaged.index())), text);
            assertTrue(text.contains("byte offset " + damaged.offset() + ": the excerpt cannot be read (its header is"
                    + " damaged)"), text);
        }
    }

    @Test
    void journalNamesMapToTheirInterfaces() {
        assertEquals(EngineToGateway.class, JournalDump.interfaceOf(Journals.engineJournal(root)));
        assertEquals(AdminCommands.class, JournalDump.interfaceOf(Journals.adminJournal(root)));
        assertEquals(GatewayToEngine.class, JournalDump.interfaceOf(Journals.gatewayJournal(root, 12)));
        assertEquals(GatewayRecords.class, JournalDump.interfaceOf(Journals.gatewayDeliveries(root, 12)));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JournalDump.interfaceOf(root.resolve("orders")));
        assertTrue(e.getMessage().contains("not a Sluice journal name: orders"), e.getMessage());
    }

    @Test
    void openingAMissingJournalReadOnlyNamesTheDirectory() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Journals.openReadOnly(root.resolve("gateway-9")));
        assertTrue(e.getMessage().contains("gateway-9"), e.getMessage());
    }

    /**
     * Writes a market-data journal of {@code batches} batches (at least 2): a trading status, then one order added per
     * batch. @return its directory
     */
    private Path writeMarketData(final int batches) {
        final Path journal = Journals.marketDataJournal(root);
        try (ChronicleQueue queue = Journals.open(journal); ExcerptAppender appender = queue.createAppender()) {
            final BatchWriter batch = new BatchWriter();
            final TradingStatus status = new TradingStatus();
            status.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
            batch.commit(status.encode(TradingStatus.HALTED, EventFixtures.id("VOD.L"), 5, true));
            batch.appendTo(appender, BatchLayout.NO_ENGINE_INDEX, 1);
            final AddOrder add = new AddOrder();
            for (int sequence = 2; sequence <= batches; sequence++) {
                add.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                batch.commit(add.encode(FeedMessage.BUY, EventFixtures.id("VOD.L"), sequence + 4, 40 + sequence,
                        Price.of(100), 300));
                batch.appendTo(appender, 0x1232 + sequence, sequence);
            }
        }
        return journal;
    }

    private String runReader(final Class<?> main, final String... args) throws Exception {
        try (JavaProcess reader = JavaProcess.start("reader", root.resolve("reader.log"), List.of(), main, args)) {
            assertEquals(0, reader.waitFor(CHILD_EXIT_SECONDS), reader::logText);
            return reader.logText();
        }
    }

    private static void assertNoChronicleWarnings(final String text) {
        for (final String bad : List.of("may require command line", "WARN", "Exception", "falling back", "Proxy")) {
            assertFalse(text.contains(bad), () -> "unexpected '" + bad + "' in:\n" + text);
        }
    }
}
