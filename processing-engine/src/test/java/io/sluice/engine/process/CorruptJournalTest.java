package io.sluice.engine.process;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.JournalSurgery;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A journal the engine cannot read on stops it, with a message naming the journal, its file and the
 * excerpt, and (as a process) a non-zero exit: it never skips data silently. A damaged excerpt header, which a tailer
 * takes for the journal's end, stops its start (exit code 3) naming the gateway journal's header, whether the engine
 * had consumed the excerpt or not yet. SIGTERM stops it with exit code 0.
 */
final class CorruptJournalTest {
    @TempDir
    Path root;

    @Test
    void garbageInAGatewayJournalStopsTheEngineAtThatExcerpt() throws Exception {
        writeOrders(5);
        final long corruptIndex = overwriteExcerpt(Journals.gatewayJournal(root, 1), 3);
        final EngineService service = EngineService.launch(TwoInstrumentMarket.config(root));
        final CorruptJournalException e = assertInstanceOf(CorruptJournalException.class, EngineServiceTest.failureOf(service));
        assertTrue(e.getMessage().contains(Journals.gatewayJournal(root, 1).toAbsolutePath().toString()), e.getMessage());
        assertTrue(e.getMessage().contains(".cq4"), e.getMessage());
        assertTrue(e.getMessage().contains("excerpt index 0x" + Long.toHexString(corruptIndex)), e.getMessage());
        assertEquals(2, EngineJournalContents.read(root).size(), "the two commands before it were answered");
    }

    @Test
    void aGatewayJournalShorterThanTheEngineRecordedStopsRecoveryNamingTheMissingEvent() throws Exception {
        writeOrders(3);
        final EngineService first = EngineService.launch(TwoInstrumentMarket.config(root));
        final AgentThread thread = EngineServiceTest.start(first);
        EngineServiceTest.awaitTrue(() -> EngineJournalContents.read(root).size() == 3, "3 answered commands");
        thread.close();
        // Replace gateway 1's journal by one holding only its first two commands.
        deleteJournal(Journals.gatewayJournal(root, 1));
        writeOrders(2);

        final CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> EngineService.launch(TwoInstrumentMarket.config(root)));
        assertTrue(e.getMessage().contains("records event 3 of gateway 1 as consumed"), e.getMessage());
        assertTrue(e.getMessage().contains("ends after event 2"), e.getMessage());
        assertTrue(e.getMessage().contains(Journals.engineJournal(root).toAbsolutePath().toString()), e.getMessage());
    }

    @Test
    void theEngineProcessExitsWithCodeThreeAndSaysWhereTheJournalIsCorrupt() throws Exception {
        writeOrders(3);
        final long corruptIndex = overwriteExcerpt(Journals.gatewayJournal(root, 1), 2);
        final EngineConfig config = TwoInstrumentMarket.config(root);
        final Path configFile = root.resolve("engine.yaml");
        Files.writeString(configFile, config.toString());
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("engine.log"),
                List.of("-XX:TieredStopAtLevel=1"), EngineMain.class, "--config", configFile.toString())) {
            assertEquals(EngineMain.EXIT_CORRUPT_JOURNAL, engine.waitFor(60), engine.logText());
            assertTrue(engine.logText().contains("engine: stopped on a corrupt journal: journal "
                    + Journals.gatewayJournal(root, 1).toAbsolutePath()), engine.logText());
            assertTrue(engine.logText().contains("excerpt index 0x" + Long.toHexString(corruptIndex)), engine.logText());
        }
    }

    @Test
    void aDamagedExcerptHeaderInAGatewayJournalStopsTheRestartNamingTheGatewayJournal() throws Exception {
        writeOrders(5);
        try (EngineService service = EngineService.launch(TwoInstrumentMarket.config(root))) { // the history, answered
            while (service.processed() < 5) {
                service.poll();
            }
        }
        final Path journal = Journals.gatewayJournal(root, 1);
        final JournalSurgery.Change damaged = JournalSurgery.damageHeader(journal, 3);
        assertEngineStopsOnDamagedHeader(journal, damaged);
    }

    @Test
    void aDamagedExcerptHeaderAheadOfTheEngineStopsItsStartNamingTheGatewayJournal() throws Exception {
        writeOrders(5);
        final Path journal = Journals.gatewayJournal(root, 1);
        final JournalSurgery.Change damaged = JournalSurgery.damageHeader(journal, 3);
        assertEngineStopsOnDamagedHeader(journal, damaged);
        assertEquals(0, EngineJournalContents.read(root).size(), "nothing went live");
    }

    /** Starts the engine process: it must stop with exit code 3, naming the damaged header, and never go live. */
    private void assertEngineStopsOnDamagedHeader(final Path journal, final JournalSurgery.Change damaged) throws Exception {
        final long lastIndex;
        try (ChronicleQueue queue = Journals.openReadOnly(journal)) {
            lastIndex = queue.lastIndex();
        }
        final Path configFile = Files.writeString(root.resolve("engine.yaml"), TwoInstrumentMarket.config(root).toString());
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("engine.log"),
                List.of("-XX:TieredStopAtLevel=1"), EngineMain.class, "--config", configFile.toString())) {
            EngineProcesses.awaitEndOr(engine, "engine: recovered");
            assertEquals(EngineMain.EXIT_CORRUPT_JOURNAL, engine.waitFor(30), engine.logText());
            final String log = engine.logText();
            assertTrue(log.contains("engine: stopped on a corrupt journal: journal " + journal.toAbsolutePath() + ", file "
                    + damaged.file().getFileName() + ", excerpt index 0x" + Long.toHexString(damaged.index())
                    + " (sequence 2 of cycle "), log);
            assertTrue(log.contains("byte offset " + damaged.offset() + ": the excerpt cannot be read (its header is"
                    + " damaged), though the journal holds excerpts up to index 0x" + Long.toHexString(lastIndex)), log);
            assertFalse(log.contains("engine: recovered"), log);
        }
    }

    @Test
    void sigtermStopsTheEngineProcessCleanly() throws Exception {
        writeOrders(3);
        final Path configFile = root.resolve("engine.yaml");
        Files.writeString(configFile, TwoInstrumentMarket.config(root).toString());
        try (JavaProcess engine = JavaProcess.start("engine", root.resolve("engine.log"),
                List.of("-XX:TieredStopAtLevel=1"), EngineMain.class, "--config", configFile.toString())) {
            EngineServiceTest.awaitTrue(() -> EngineJournalContents.read(root).size() == 3, "3 answered commands");
            assertEquals(0, engine.stop(30), engine.logText()); // the exit-code table's clean stop, not the JVM's 143
            assertTrue(engine.logText().contains("engine: stopped"), engine.logText());
        }
    }

    private void writeOrders(final int count) {
        try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1)) {
            gateway.write(count);
        }
    }

    /** Overwrites the start of the {@code n}-th excerpt's payload (n from 1) with 0xFF bytes; @return its index. */
    private static long overwriteExcerpt(final Path journal, final int n) throws IOException {
        final long index;
        final long position;
        final Path file;
        try (ChronicleQueue queue = Journals.open(journal)) {
            final ExcerptTailer tailer = queue.createTailer();
            for (int i = 1; i < n; i++) {
                try (DocumentContext ignored = tailer.readingDocument()) {
                    // skip
                }
            }
            try (DocumentContext dc = tailer.readingDocument()) {
                assertTrue(dc.isPresent());
                index = dc.index();
                position = dc.wire().bytes().readPosition();
            }
            file = Path.of(queue.fileAbsolutePath());
        }
        final Path cycleFile;
        try (Stream<Path> files = Files.list(file)) {
            cycleFile = files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            raf.seek(position);
            raf.write(new byte[]{(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        }
        return index;
    }

    private static void deleteJournal(final Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (final Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }
}
