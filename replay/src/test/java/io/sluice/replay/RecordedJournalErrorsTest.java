package io.sluice.replay;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Journals that cannot be replayed (missing, partial, corrupt, from another journal format, or not fitting
 * the config) and unusable output directories stop a replay with a message naming the file, before or at
 * the point of the problem. Each test damages its own copy of the recorded session.
 */
final class RecordedJournalErrorsTest {
    @TempDir
    Path dir;

    private RecordedSession copy;
    private Path out;

    @BeforeEach
    void copyTheRecording() throws Exception {
        copy = RecordedSession.shared().copyTo(dir.resolve("recorded"));
        out = dir.resolve("out");
    }

    @Test
    void aMissingEngineJournalIsNamed() throws IOException {
        ReplayAssertions.deleteTree(Journals.engineJournal(copy.root()));

        assertFailsNaming(ReplayException.class, Journals.engineJournal(copy.root()), "missing");
    }

    @Test
    void anEngineJournalWithoutItsCycleFilesIsNamed() throws IOException {
        for (final Path file : cycleFiles(Journals.engineJournal(copy.root()))) {
            Files.delete(file);
        }

        assertFailsNaming(ReplayException.class, Journals.engineJournal(copy.root()), "holds no reports");
    }

    @Test
    void aMissingGatewayJournalIsNamed() {
        ReplayAssertions.deleteTree(Journals.gatewayJournal(copy.root(), 2));

        assertFailsNaming(ReplayException.class, Journals.gatewayJournal(copy.root(), 2), "gateway 2's journal is missing");
    }

    @Test
    void aGatewayJournalEndingBeforeTheInputsTheEngineConsumedIsNamed() throws IOException {
        final Path gateway = Journals.gatewayJournal(copy.root(), 2);
        final Path truncated = dir.resolve("truncated");
        try (ExcerptCopier firstFifty = new ExcerptCopier(gateway, Journals.gatewayJournal(truncated, 2))) {
            firstFifty.copy(50);
        }
        ReplayAssertions.deleteTree(gateway);
        try (Stream<Path> files = Files.list(Journals.gatewayJournal(truncated, 2))) {
            Files.createDirectories(gateway);
            for (final Path file : files.toList()) {
                Files.copy(file, gateway.resolve(file.getFileName()));
            }
        }

        assertFailsNaming(CorruptJournalException.class, Journals.gatewayJournal(copy.root(), 2), "ends after event 50");
    }

    @Test
    void aCorruptExcerptInTheEngineJournalIsNamedWithItsFileAndIndex() throws IOException {
        final Path engine = Journals.engineJournal(copy.root());
        overwriteExcerpt(engine, 10);

        final Throwable e = assertFailsNaming(CorruptJournalException.class, engine, ".cq4, excerpt index 0x");
        assertTrue(e.getMessage().contains("sequence 10 "), e.getMessage());
    }

    @Test
    void aCorruptExcerptInAGatewayJournalIsNamedWithItsFileAndIndex() throws IOException {
        final Path gateway = Journals.gatewayJournal(copy.root(), 2);
        overwriteExcerpt(gateway, 20);

        assertFailsNaming(CorruptJournalException.class, gateway, ".cq4, excerpt index 0x");
    }

    @Test
    void aJournalFromAnotherJournalFormatIsNamed() {
        final Path gateway = Journals.gatewayJournal(copy.root(), 1);
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(gateway).rollCycle(RollCycles.FAST_DAILY).build()) {
            queue.tableStorePut(Journals.FORMAT_KEY, Journals.FORMAT_VERSION + 1);
        }

        assertFailsNaming(ReplayException.class, gateway.resolve("metadata.cq4t"),
                "journal format " + (Journals.FORMAT_VERSION + 1) + "; this Sluice reads format " + Journals.FORMAT_VERSION);
    }

    @Test
    void aJournalRecordingNoFormatIsNamed() {
        final Path gateway = Journals.gatewayJournal(copy.root(), 2);
        ReplayAssertions.deleteTree(gateway);
        try (ChronicleQueue queue = SingleChronicleQueueBuilder.binary(gateway).rollCycle(RollCycles.FAST_DAILY).build()) {
            queue.createAppender().writeText("not written by Sluice");
        }

        assertFailsNaming(ReplayException.class, gateway.resolve("metadata.cq4t"), "records no Sluice journal format");
    }

    @Test
    void aConfigWithoutAGatewayTheRecordingConsumedIsRefusedNamingTheEngineJournal() {
        final Replay replay = new Replay(copy.root(), copy.config().gatewayIds(1)).output(out);

        final CorruptJournalException e = assertThrows(CorruptJournalException.class, replay::run);
        assertTrue(e.getMessage().contains(Journals.engineJournal(copy.root()).toAbsolutePath().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("input from gateway 2, which is not among the configured gateway journals"), e.getMessage());
    }

    @Test
    void sourcesTheConfigDoesNotNameAreRefused() {
        final Replay replay = new Replay(copy.root(), copy.config()).output(out).sources(1, 4);

        final ReplayException e = assertThrows(ReplayException.class, replay::run);
        assertTrue(e.getMessage().contains("gateway 4 is not among the engine config's gatewayIds [1, 2]"), e.getMessage());
    }

    @Test
    void theRecordedDirectoryIsNeverTheOutput() {
        final Replay replay = new Replay(copy.root(), copy.config()).output(copy.root());

        final ReplayException e = assertThrows(ReplayException.class, replay::run);
        assertTrue(e.getMessage().contains("is the recorded directory"), e.getMessage());
    }

    @Test
    void anOutputHoldingAnEngineJournalIsRefused() {
        new Replay(copy.root(), copy.config()).output(out).stopAt(5).run();

        final ReplayException e = assertThrows(ReplayException.class, new Replay(copy.root(), copy.config()).output(out)::run);
        assertTrue(e.getMessage().contains(Journals.engineJournal(out).toAbsolutePath().toString()), e.getMessage());
    }

    private Throwable assertFailsNaming(final Class<? extends RuntimeException> type, final Path file, final String problem) {
        final Executable replay = new Replay(copy.root(), copy.config()).output(out)::run;
        final Throwable e = assertThrows(type, replay);
        assertTrue(e.getMessage().contains(file.toAbsolutePath().toString()), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
        return e;
    }

    /** Overwrites the start of the {@code sequence}-th excerpt's content (its method id) with bytes no reader knows. */
    private static void overwriteExcerpt(final Path journal, final long sequence) throws IOException {
        final long position;
        try (ChronicleQueue queue = Journals.openReadOnly(journal)) {
            final ExcerptTailer tailer = queue.createTailer();
            tailer.moveToIndex(queue.rollCycle().toIndex(queue.rollCycle().toCycle(queue.firstIndex()), sequence));
            try (DocumentContext dc = tailer.readingDocument()) {
                assertTrue(dc.isPresent(), "excerpt " + sequence + " of " + journal);
                position = dc.wire().bytes().readPosition();
            }
        }
        final Path file = cycleFiles(journal)[0];
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[]{(byte) 0xBA, (byte) 0xAD, (byte) 0xF0, (byte) 0x0D}), position);
        }
    }

    private static Path[] cycleFiles(final Path journal) throws IOException {
        try (Stream<Path> files = Files.list(journal)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".cq4")).toArray(Path[]::new);
        }
    }
}
