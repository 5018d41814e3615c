package io.sluice.engine.process;

import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.JournalSurgery;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.Marshallable;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine never acts on a damaged or altered journal: a flipped byte in a command or a report fails its
 * checksum, and a consistent change (a price altered and its checksum recomputed, as a tamperer or a bad copy
 * would leave it) makes the re-run reports differ from the recorded ones, so recovery refuses to go live. Every
 * error names the journal, its real cycle file, the excerpt and the exact byte offset.
 */
final class JournalIntegrityTest {
    private static final long VOD = ShortTextLongConverter.INSTANCE.parse("VOD.L");

    @TempDir
    Path root;

    @Test
    void aFlippedByteInACommandStopsTheEngineBeforeItActsOnIt() throws Exception {
        final List<NewOrder> orders = writeOrders();
        final JournalSurgery.Change flipped = JournalSurgery.flip(Journals.gatewayJournal(root, 1), 2, orders.get(1), 60);

        final EngineService service = EngineService.launch(TwoInstrumentMarket.config(root));
        final CorruptJournalException e = assertInstanceOf(CorruptJournalException.class, EngineServiceTest.failureOf(service));
        assertDamageAt(flipped, Journals.gatewayJournal(root, 1), e);
        assertEquals(1, EngineJournalContents.read(root).size(), "only the command before it was answered");
    }

    @Test
    void aFlippedByteInACommandAlreadyAnsweredStopsRecovery() throws Exception {
        final List<NewOrder> orders = writeOrders();
        answerAll(orders.size());
        final JournalSurgery.Change flipped = JournalSurgery.flip(Journals.gatewayJournal(root, 1), 3, orders.get(2), 20);

        final CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> EngineService.launch(TwoInstrumentMarket.config(root)));
        assertDamageAt(flipped, Journals.gatewayJournal(root, 1), e);
    }

    @Test
    void aFlippedByteInAReportStopsRecovery() throws Exception {
        final List<NewOrder> orders = writeOrders();
        answerAll(orders.size());
        final ExecutionReport secondReport = firstReportOfExcerpt(2);
        final JournalSurgery.Change flipped = JournalSurgery.flip(Journals.engineJournal(root), 2, secondReport, 70);

        final CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> EngineService.launch(TwoInstrumentMarket.config(root)));
        assertDamageAt(flipped, Journals.engineJournal(root), e);
    }

    @Test
    void aConsistentlyAlteredPriceInACopiedGatewayJournalMakesTheEngineRefuseToGoLive() throws Exception {
        final List<NewOrder> orders = writeOrders();
        answerAll(orders.size());
        // The buy at 101.00 traded with the resting sell at 101.00; in the copy it asks 100.00 and would rest.
        final NewOrder buy = orders.get(1);
        final NewOrder altered = copyOf(buy);
        altered.price(Price.of(100));
        final JournalSurgery.Change tampered = JournalSurgery.replace(Journals.gatewayJournal(root, 1), 2, buy, altered);

        final Path configFile = root.resolve("engine.yaml");
        Files.writeString(configFile, TwoInstrumentMarket.config(root).toString());
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("engine.log"),
                List.of("-XX:TieredStopAtLevel=1"), EngineMain.class, "--config", configFile.toString())) {
            assertEquals(EngineMain.EXIT_CORRUPT_JOURNAL, engine.waitFor(60), engine.logText());
            final String log = engine.logText();
            assertTrue(log.contains("engine: stopped on a corrupt journal: journal " + Journals.engineJournal(root).toAbsolutePath()
                    + ", file " + tampered.file().getFileName().toString().replace(".cq4", "") ), log);
            assertTrue(log.contains("event 2 of gateway 1 (journal " + Journals.gatewayJournal(root, 1).toAbsolutePath()
                    + ", file " + tampered.file().getFileName() + ", excerpt index 0x" + Long.toHexString(tampered.index())), log);
            assertTrue(log.contains("gives other reports than recorded"), log);
            assertTrue(log.contains("recorded report 1 of 3:\n!io.sluice.contracts.ExecutionReport {"), log);
            assertTrue(log.contains("re-run report 1 of 1:\n!io.sluice.contracts.ExecutionReport {"), log);
            assertTrue(log.contains("price: 101,") && log.contains("price: 100,"), log);
        }
        assertEquals(orders.size(), EngineJournalContents.read(root).size(), "nothing was written after the recorded history");
    }

    private static void assertDamageAt(final JournalSurgery.Change change, final Path journal, final CorruptJournalException e) {
        assertEquals(change.file(), e.file(), e.getMessage());
        assertEquals(change.offset(), e.fileOffset(), e.getMessage());
        assertEquals(change.index(), e.index(), e.getMessage());
        assertTrue(e.getMessage().startsWith("journal " + journal.toAbsolutePath() + ", file " + change.file().getFileName()
                + ", excerpt index 0x" + Long.toHexString(change.index())), e.getMessage());
        assertTrue(e.getMessage().contains("byte offset " + change.offset() + ": checksum mismatch"), e.getMessage());
        assertTrue(change.file().getFileName().toString().matches("\\d{8}F\\.cq4"), change.file().toString());
        assertTrue(Files.exists(e.file()), "the file named exists: " + e.file());
    }

    /** A resting sell, a buy that trades with it, another resting sell: three commands of gateway 1. */
    private List<NewOrder> writeOrders() {
        final List<NewOrder> orders = List.of(order(1, "CLIENT1", Side.SELL, 101), order(2, "CLIENT2", Side.BUY, 101),
                order(3, "CLIENT1", Side.SELL, 102));
        try (ChronicleQueue queue = Journals.open(Journals.gatewayJournal(root, 1))) {
            final GatewayToEngine writer = queue.methodWriter(GatewayToEngine.class);
            orders.forEach(writer::newOrder);
        }
        return orders;
    }

    private void answerAll(final int count) throws InterruptedException {
        final EngineService first = EngineService.launch(TwoInstrumentMarket.config(root));
        final AgentThread thread = EngineServiceTest.start(first);
        EngineServiceTest.awaitTrue(() -> EngineJournalContents.read(root).size() == count, count + " answered commands");
        thread.close();
    }

    /** @return the first report of the {@code n}-th excerpt of the engine journal, exactly as recorded */
    private ExecutionReport firstReportOfExcerpt(final int n) {
        final List<ExecutionReport> reports = new ArrayList<>();
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.engineJournal(root))) {
            final MethodReader reader = queue.createTailer().methodReader(new NoOpEngineToGateway() {
                @Override
                public void executionReport(final ExecutionReport report) {
                    reports.add(copyOf(report));
                }
            });
            for (int i = 0; i < n; i++) {
                assertTrue(reader.readOne());
            }
        }
        // Excerpt 1 (the resting sell) holds one report, so excerpt 2's first report is the second read.
        return reports.get(1);
    }

    private static NewOrder order(final long eventId, final String session, final Side side, final long price) {
        final NewOrder order = new NewOrder();
        order.metaData().sourceId(1).eventId(eventId).fixReceived(1_000 + eventId).commandWriting(2_000 + eventId);
        order.session(ShortTextLongConverter.INSTANCE.parse(session)).clOrdId(eventId)
                .account(ShortTextLongConverter.INSTANCE.parse("ACC1")).symbol(VOD).side(side).ordType(OrdType.LIMIT)
                .timeInForce(TimeInForce.DAY).orderQty(100).price(Price.of(price));
        return order;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Marshallable> T copyOf(final T event) {
        return (T) event.deepCopy();
    }
}
