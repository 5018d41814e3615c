package io.sluice.runtime.journal;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.agent.AgentThread;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pretoucher keeps the pages ahead of an appender touched, within the cycle file, and never changes a
 * byte the appender wrote, even when it touches pages behind the appender's real position.
 */
final class JournalPretoucherTest {
    private static final long AHEAD = 1L << 20;
    private static final long PAGE = 4096;

    @TempDir
    Path root;

    @Test
    void touchesThePagesAheadOfTheAppendersPosition() throws IOException {
        try (ChronicleQueue journal = Journals.open(root.resolve("engine"));
             JournalPretoucher pretoucher = new JournalPretoucher("test pretoucher", AHEAD)) {
            final ExcerptAppender appender = journal.createAppender();
            append(appender, 1, 1_000);
            pretoucher.follow(appender);
            final long position = appender.wire().bytes().writePosition();

            final long pages = pretoucher.touchAhead();

            final long touchedUpTo = pretoucher.touchedUpTo();
            assertTrue(touchedUpTo >= position + AHEAD && touchedUpTo < position + AHEAD + PAGE,
                    "touched from the appender's page to the page holding " + AHEAD + " bytes beyond it: " + touchedUpTo);
            assertEquals((touchedUpTo - (position & -PAGE)) / PAGE, pages, "one touch a page");
            assertEquals(0, pretoucher.touchAhead(), "nothing more until the appender moves on");
        }
    }

    @Test
    void neverChangesWhatTheAppenderWroteEvenBehindIt() throws IOException {
        try (ChronicleQueue journal = Journals.open(root.resolve("engine"));
             JournalPretoucher pretoucher = new JournalPretoucher("test pretoucher", AHEAD)) {
            final ExcerptAppender appender = journal.createAppender();
            append(appender, 1, 1);
            pretoucher.follow(appender); // published now, then left stale while 20,000 more excerpts are written
            append(appender, 2, 20_000);
            assertTrue(pretoucher.touchAhead() > 0);
            pretoucher.follow(appender);
            pretoucher.touchAhead();
            append(appender, 20_001, 30_000);

            assertEventIds(journal, 30_000);
        }
    }

    @Test
    void itsThreadFollowsAnAppenderWithoutDisturbingIt() {
        final long pages;
        try (ChronicleQueue journal = Journals.open(root.resolve("engine"))) {
            final ExcerptAppender appender = journal.createAppender();
            final JournalPretoucher pretoucher = new JournalPretoucher("test pretoucher", AHEAD);
            try (AgentThread thread = AgentThread.startBackground(pretoucher)) {
                for (long id = 1; id <= 100_000; id += 100) {
                    append(appender, id, id + 99);
                    pretoucher.follow(appender);
                }
                thread.close();
                pages = pretoucher.pagesTouched();
            }
            assertEventIds(journal, 100_000);
        }
        assertTrue(pages >= AHEAD / PAGE, "pages touched: " + pages);
    }

    private static void append(final ExcerptAppender appender, final long fromEventId, final long toEventId) {
        final EngineToGateway writer = Journals.methodWriter(appender, EngineToGateway.class);
        final ExecutionReport report = EventFixtures.executionReport();
        for (long id = fromEventId; id <= toEventId; id++) {
            report.metaData().eventId(id);
            writer.executionReport(report);
        }
    }

    private static void assertEventIds(final ChronicleQueue journal, final long last) {
        final long[] expected = {1};
        try (ExcerptTailer tailer = journal.createTailer()) {
            final MethodReader reader = tailer.methodReader(new EngineToGateway() {
                @Override
                public void executionReport(final ExecutionReport report) {
                    assertEquals(expected[0]++, report.metaData().eventId());
                }

                @Override
                public void cancelReject(final CancelReject reject) {
                    throw new AssertionError("no cancel reject was written");
                }

                @Override
                public void massCancelReport(final MassCancelReport report) {
                    throw new AssertionError("no mass cancel report was written");
                }

                @Override
                public void adminOutcome(final AdminOutcome outcome) {
                    throw new AssertionError("no admin outcome was written");
                }
            });
            while (reader.readOne()) {
                // each report checks its eventId
            }
        }
        assertEquals(last + 1, expected[0], "every report read back, in order");
    }
}
