package io.sluice.contracts.journal;

import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Counting the excerpts of a journal that another thread or process may be creating or appending to. */
final class ExcerptCountTest {
    private static final long DAY_MILLIS = TimeUnit.DAYS.toMillis(1);

    @TempDir
    Path dir;

    @Test
    void countsEveryExcerptOfEveryCycleAndBetweenTwoIndexes() {
        final SetTimeProvider clock = new SetTimeProvider(20_000 * DAY_MILLIS);
        final List<Long> indexes = new ArrayList<>();
        try (ChronicleQueue journal = Journals.open(dir, clock); ExcerptAppender appender = journal.createAppender()) {
            assertEquals(0, ExcerptCount.of(journal), "an empty journal");
            for (int day = 0; day < 3; day++) {
                for (int i = 0; i < 4; i++) {
                    appender.writeText("day " + day + " excerpt " + i);
                    indexes.add(appender.lastIndexAppended());
                }
                clock.advanceMillis(DAY_MILLIS);
            }
            assertEquals(12, ExcerptCount.of(journal));
            assertEquals(6, ExcerptCount.after(journal, indexes.get(5)), "after an index, across cycles");
            assertEquals(0, ExcerptCount.after(journal, indexes.getLast()));
            assertEquals(3, ExcerptCount.between(journal, indexes.get(1), indexes.get(4)), "within a cycle");
            assertEquals(9, ExcerptCount.between(journal, indexes.get(2), indexes.get(11)), "across cycles");
            assertEquals(0, ExcerptCount.between(journal, indexes.get(5), indexes.get(5)));
            assertEquals(indexes.getFirst(), ExcerptCount.firstIndex(journal, indexes.getLast()));
        }
    }

    @Test
    void aJournalWhoseListingShowsNoCycleYetIsCountedFromTheKnownIndexsCycle() {
        try (ChronicleQueue journal = Journals.open(dir)) {
            final RollCycle rollCycle = journal.rollCycle();
            final long known = rollCycle.toIndex(20_000, 7); // read from the journal "just before" its listing caught up
            assertEquals(Long.MAX_VALUE, journal.firstIndex(), "no cycle listed");
            assertEquals(rollCycle.toIndex(20_000, 0), ExcerptCount.firstIndex(journal, known));
        }
    }

    @Test
    void aTailerOfAJournalWithNoCycleYetStaysWhereItIsAndFindsTheFirstExcerptOnceWritten() {
        try (ChronicleQueue journal = Journals.open(dir); ExcerptTailer tailer = journal.createTailer()) {
            assertEquals(0, ExcerptCount.toEnd(journal, tailer), "nothing to pass over");
            try (ExcerptAppender appender = journal.createAppender()) {
                appender.writeText("first");
            }
            assertEquals("first", tailer.readText());
        }
    }

    /**
     * The race that made {@code SingleChronicleQueue.entryCount()} throw "NOT_REACHED index: 7fffffff00000000" in a
     * CI run: a reader counting a journal while its writer creates the first cycle file. Counting never throws, and
     * once the writer is done the count is exact.
     */
    @Test
    void countingAJournalWhileItsWriterCreatesItNeverThrowsAndEndsExact() throws Exception {
        final int excerpts = 50;
        for (int i = 0; i < 100; i++) {
            final Path journalDir = dir.resolve("journal-" + i);
            final Thread writer = new Thread(() -> {
                try (ChronicleQueue journal = Journals.open(journalDir); ExcerptAppender appender = journal.createAppender()) {
                    for (int k = 0; k < excerpts; k++) {
                        appender.writeText("excerpt " + k);
                    }
                }
            });
            writer.start();
            ChronicleQueue reader = null;
            while (reader == null && writer.isAlive()) {
                if (Files.exists(journalDir.resolve("metadata.cq4t"))) {
                    reader = openWhenComplete(journalDir);
                }
            }
            if (reader == null) {
                writer.join();
                continue; // the writer was done before the reader saw the journal: nothing raced
            }
            try (ChronicleQueue counted = reader; ExcerptTailer end = counted.createTailer()) {
                while (writer.isAlive()) {
                    final long count = ExcerptCount.of(counted); // UNKNOWN while the cycle file is being created
                    assertTrue(count == ExcerptCount.UNKNOWN || count >= 0 && count <= excerpts, "count " + count);
                    ExcerptCount.toEnd(counted, end);
                }
                writer.join();
                assertEquals(excerpts, ExcerptCount.of(counted));
                assertEquals(counted.lastIndex() + 1, ExcerptCount.toEnd(counted, end));
            }
        }
    }

    private static ChronicleQueue openWhenComplete(final Path journalDir) {
        try {
            return Journals.openReadOnly(journalDir);
        } catch (final IllegalStateException tableStoreNotComplete) {
            return null;
        }
    }
}
