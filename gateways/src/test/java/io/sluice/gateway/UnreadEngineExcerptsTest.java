package io.sluice.gateway;

import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway's {@code sluice_gateway_engine_excerpts_unread} gauge: how many excerpts of a real journal a tailer has
 * not read, from nothing written, through reads within a cycle, to a reader left in an older cycle than the writer.
 */
class UnreadEngineExcerptsTest {
    @TempDir
    Path dir;

    @Test
    void countsTheExcerptsAtAndAfterTheTailersNextIndexWithinAndAcrossCycles() {
        final SetTimeProvider time = new SetTimeProvider(1_800_000_000_000L);
        try (ChronicleQueue journal = SingleChronicleQueueBuilder.binary(dir.toFile())
                .rollCycle(TestRollCycles.TEST_SECONDLY).timeProvider(time).build();
             ExcerptAppender appender = journal.createAppender();
             ExcerptTailer tailer = journal.createTailer()) {
            final UnreadEngineExcerpts unread = new UnreadEngineExcerpts(journal);
            assertEquals(0, unread.unread(tailer.index()), "nothing written");

            append(appender, 5);
            assertEquals(5, unread.unread(tailer.index()), "a tailer that has read nothing");
            read(tailer, 2);
            assertEquals(3, unread.unread(tailer.index()));
            read(tailer, 3);
            assertEquals(0, unread.unread(tailer.index()), "read to the end");
            assertTrue(!tailer.readingDocument().isPresent());

            final int cycleRead = journal.rollCycle().toCycle(tailer.index());
            time.advanceMillis(2_000);
            append(appender, 4);
            assertNotEquals(cycleRead, journal.rollCycle().toCycle(journal.lastIndex()), "the writer rolled on");
            assertEquals(4, unread.unread(tailer.index()), "the tailer is still in the older cycle");
            read(tailer, 1);
            assertEquals(3, unread.unread(tailer.index()), "the tailer has moved into the new cycle");
            read(tailer, 3);
            assertEquals(0, unread.unread(tailer.index()));
        }
    }

    private static void append(final ExcerptAppender appender, final int count) {
        for (int i = 0; i < count; i++) {
            try (DocumentContext dc = appender.writingDocument()) {
                dc.wire().bytes().writeLong(i);
            }
        }
    }

    private static void read(final ExcerptTailer tailer, final int count) {
        for (int i = 0; i < count; i++) {
            try (DocumentContext dc = tailer.readingDocument()) {
                assertTrue(dc.isPresent(), "excerpt " + i + " to read");
            }
        }
    }
}
