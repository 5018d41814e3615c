package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.Price;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.engine.process.EngineJournalContents;
import io.sluice.engine.process.GatewayJournalWriter;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.InputSources;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.WireType;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshots on real journals, in one process: the snapshotter ({@link SnapshotMain#run}) re-runs what an engine
 * recorded and writes snapshots; an engine restarting loads the newest valid one, re-runs only the inputs after it,
 * and goes on writing exactly what an uninterrupted engine writes; a damaged newest snapshot is reported and the
 * older one used; a snapshot of another instrument config or idKey is refused with its reason, and an engine under
 * another idKey does not go live on the journals at all.
 */
final class SnapshotRestartTest {
    @TempDir
    Path root;

    @Test
    void aRestartFromTheNewestSnapshotReRunsOnlyTheInputsAfterItAndWritesWhatAnUninterruptedEngineWrites() {
        final EngineConfig config = config(root);
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1);
             GatewayJournalWriter gateway2 = new GatewayJournalWriter(root, 2, 2)) {
            gateway1.write(1_700);
            gateway2.write(1_300);
            runEngine(config, 3_000);

            final SnapshotMain.Summary first = SnapshotMain.run(config, root, 1_000, false);
            assertEquals(3, first.written(), first.describe());
            assertEquals(3_000, first.rerun());
            gateway1.write(600);
            gateway2.write(400);
            final Run restart = runEngine(config, 1_000);
            assertNotNull(restart.from, "restarted from a snapshot");
            assertEquals(3_000, restart.from.inputs());
            assertEquals(0, restart.recovered, "nothing re-run: the snapshot is at the journal's end");

            final SnapshotMain.Summary second = SnapshotMain.run(config, root, 1_000, true);
            assertEquals(3_000, second.from().inputs(), "the snapshotter goes on from its newest snapshot");
            assertEquals(1_000, second.rerun());
            assertEquals(1, second.written(), "after input 4,000, which is also the end");
            gateway1.write(300);
            final Run third = runEngine(config, 300);
            assertEquals(4_000, third.from.inputs());
        }
        final List<EngineJournalContents.Excerpt> written = EngineJournalContents.read(root);
        assertEquals(4_300, written.size());
        assertEquals(EngineJournalContents.freshRun(config, root), written);
    }

    @Test
    void aDamagedNewestSnapshotIsReportedAndTheOlderOneUsed() throws Exception {
        final EngineConfig config = config(root);
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1);
             GatewayJournalWriter gateway2 = new GatewayJournalWriter(root, 2, 2)) {
            gateway1.write(1_200);
            gateway2.write(800);
            runEngine(config, 2_000);
        }
        assertEquals(2, SnapshotMain.run(config, root, 1_000, false).written());
        final long newest = damageOrderExcerptOfNewestSnapshot(root);

        final List<String> reported = new ArrayList<>();
        final SnapshotRestore.Restored restored = restore(config, reported);
        assertNotNull(restored);
        assertEquals(1_000, restored.inputs(), "the older snapshot");
        assertEquals(1, reported.size(), reported.toString());
        assertTrue(reported.get(0).contains("index 0x" + Long.toHexString(newest)) && reported.get(0).contains("damaged"),
                reported.get(0));
        assertTrue(reported.get(0).contains(Journals.snapshotJournal(root).toString()), reported.get(0));

        final Run restart = runEngine(config, 0);
        assertEquals(1_000, restart.from.inputs());
        assertEquals(1_000, restart.recovered, "the inputs after the older snapshot, re-run and compared");
        assertEquals(EngineJournalContents.freshRun(config, root), EngineJournalContents.read(root));
    }

    @Test
    void aSnapshotOfAnotherInstrumentConfigIsRefusedWithTheReason() {
        final EngineConfig config = config(root);
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1)) {
            gateway1.write(500);
            runEngine(config, 500);
        }
        assertEquals(1, SnapshotMain.run(config, root, 0, true).written());
        final EngineConfig changed = config(root);
        changed.instruments().get(1).priceHigh(Price.of(11));
        final List<String> reported = new ArrayList<>();
        assertNull(restore(changed, reported));
        assertEquals(1, reported.size(), reported.toString());
        assertTrue(reported.get(0).contains("taken under another engine config: instruments differ"), reported.get(0));
        assertTrue(reported.get(0).contains("priceHigh: 10") && reported.get(0).contains("priceHigh: 11"), reported.get(0));
    }

    @Test
    void journalsKeepTheIdKeyTheyWereWrittenUnder() {
        final EngineConfig config = config(root).idKey("the first key");
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1)) {
            gateway1.write(500);
            runEngine(config, 500);
        }
        assertEquals(1, SnapshotMain.run(config, root, 0, true).written());
        final EngineConfig rekeyed = config(root).idKey("another key");
        final List<String> reported = new ArrayList<>();
        assertNull(restore(rekeyed, reported));
        assertEquals(1, reported.size(), reported.toString());
        assertTrue(reported.get(0).contains("taken under another engine config: another idKey"), reported.get(0));

        final CorruptJournalException refused = assertThrows(CorruptJournalException.class, () -> runEngine(rekeyed, 0));
        assertTrue(refused.getMessage().contains("only their OrderIDs and ExecIDs differ, so the journals were written"
                + " under another idKey"), refused.getMessage());
        assertNotNull(runEngine(config, 0).from, "under its own key the engine restarts from its snapshot");
    }

    /** The tests' market as the snapshots here were taken under: no pretouching, 500 completed orders remembered. */
    static EngineConfig config(final Path root) {
        return TwoInstrumentMarket.config(root).pretouch(false).completedOrderMemory(500);
    }

    private record Run(long recovered, SnapshotRestore.Restored from) {
    }

    /** Recovers an engine on the journals and has it process {@code live} more inputs. */
    private static Run runEngine(final EngineConfig config, final long live) {
        try (EngineService service = EngineService.launch(config)) {
            final long recovered = service.recovered();
            while (service.processed() < live) {
                service.poll();
            }
            return new Run(recovered, service.restoredFrom());
        }
    }

    private static SnapshotRestore.Restored restore(final EngineConfig config, final List<String> reported) {
        try (ChronicleQueue engineJournal = Journals.openReadOnly(Journals.engineJournal(config.journalRoot()));
             InputSources sources = new InputSources(config.journalRoot(), true, config.gatewayIds());
             ConsumptionOrder order = new ConsumptionOrder(engineJournal)) {
            final Engine engine = new Engine(config, WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap(64))
                    .methodWriter(EngineToGateway.class));
            return SnapshotRestore.restore(config.journalRoot(), config, engine, order, sources, SnapshotRestore.LATEST,
                    SystemNanoClock.INSTANCE, reported::add);
        }
    }

    /** Flips a byte in the middle of the second excerpt of the newest snapshot (its orders). @return its begin index */
    private static long damageOrderExcerptOfNewestSnapshot(final Path root) throws Exception {
        final Path dir = Journals.snapshotJournal(root);
        try (ChronicleQueue snapshots = Journals.openReadOnly(dir)) {
            final List<SnapshotCatalog.Entry> entries = SnapshotCatalog.read(snapshots);
            final SnapshotCatalog.Entry newest = entries.get(entries.size() - 1);
            final long orders;
            try (ExcerptTailer tailer = snapshots.createTailer()) {
                tailer.moveToIndex(newest.beginIndex);
                tailer.readingDocument().close();
                orders = tailer.index();
            }
            final long offset = Journals.excerptOffset(snapshots, orders) + 60;
            final Path file = Journals.cycleFile(snapshots, snapshots.rollCycle().toCycle(orders));
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(offset);
                final int b = raf.read();
                raf.seek(offset);
                raf.write(b ^ 0x5A);
            }
            return newest.beginIndex;
        }
    }
}
