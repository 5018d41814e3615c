package io.sluice.tools.tail;

import io.sluice.contracts.MetaData;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.latency.Hop;
import io.sluice.testkit.JournalSetWriter;
import io.sluice.testkit.JournalSurgery;
import io.sluice.testkit.SyntheticJournals;
import net.openhft.chronicle.bytes.MethodId;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Honest numbers: whatever in the journals makes latency figures doubtful (eventId gaps, clocks going
 * backwards, reports without commands, deliveries without reports, missing timestamps, inputs too old to
 * check) is counted and said in the output, and the bad hops are left out of the figures.
 */
class TailFindingsTest {
    private static final long CLIENT = SyntheticJournals.session(1);
    private static final long T0 = SyntheticJournals.START_TICKS;

    @TempDir
    Path root;

    /** A gateway's private record type, which readers of deliveries must skip. */
    interface SessionState {
        @MethodId(99)
        void sessionState(long nextSequence);
    }

    @Test
    void gapsNegativeHopsAndUnmatchedRecordsAreCountedAndShown() {
        try (JournalSetWriter writer = new JournalSetWriter(root)) {
            writer.newOrder(1, CLIENT, times(1));
            writer.newOrder(1, CLIENT, times(2).commandWriting(T0 + 20 * 1_000 - 5)); // written before received
            writer.newOrder(1, CLIENT, times(3));
            writer.newOrder(1, CLIENT, times(6)); // 4 and 5 missing
            writer.newOrder(1, CLIENT, times(6)); // repeated
            writer.newOrder(1, CLIENT, times(7)); // never answered

            writer.executionReport(1, CLIENT, 1, times(1));
            writer.executionReport(1, CLIENT, 2, times(2).commandWriting(T0 + 20 * 1_000 - 5));
            writer.executionReport(1, CLIENT, 3, times(3).reportWriting(T0 + 30 * 1_000 + 2)); // before engine read
            writer.executionReport(1, CLIENT, 6, times(6));
            writer.executionReport(1, CLIENT, 9, times(9)); // command 7 skipped (8 never was one); no command 9

            final Path out = Journals.gatewayDeliveries(root, 1);
            final SessionState sessionState = writer.writer(out, SessionState.class);
            sessionState.sessionState(1);
            writer.delivery(1, CLIENT, 1, times(1));
            writer.delivery(1, CLIENT, 2, times(2).commandWriting(T0 + 20 * 1_000 - 5));
            try (DocumentContext ignored = writer.excerpt(out)) { // a private record and a delivery in one excerpt
                sessionState.sessionState(3);
                writer.delivery(1, CLIENT, 3, times(3).reportWriting(T0 + 30 * 1_000 + 2));
            }
            writer.delivery(1, CLIENT, 5, times(5)); // no report for 5
            writer.delivery(1, CLIENT, 6, times(6).gatewayRead(0)); // gateway read not stamped
            writer.delivery(1, CLIENT, 1, times(1).fixSent(0)); // a second report of 1, stored for an offline client
        }

        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final Tail tail = runOffline(new TailOptions(), output);

        final Map<Finding, Long> expected = new EnumMap<>(Finding.class);
        expected.put(Finding.MISSING_EVENT_IDS, 2L);
        expected.put(Finding.REPEATED_EVENT_IDS, 1L);
        expected.put(Finding.SKIPPED_INPUTS, 1L);
        expected.put(Finding.NEGATIVE_HOPS, 2L);
        expected.put(Finding.MISSING_TIMESTAMPS, 2L);
        expected.put(Finding.REPORTS_WITHOUT_COMMAND, 1L);
        expected.put(Finding.DELIVERIES_WITHOUT_REPORT, 1L);
        expected.put(Finding.UNSENT_DELIVERIES, 1L);
        assertFindings(expected, tail);

        assertEquals(5, tail.statistics(Hop.GATEWAY_IN).total().getTotalCount(), "6 commands, one negative");
        assertEquals(4, tail.statistics(Hop.ENGINE).total().getTotalCount(), "5 reports, one negative");
        assertEquals(5, tail.statistics(Hop.JOURNAL_OUT).total().getTotalCount(), "6 deliveries, one not stamped");
        assertEquals(4, tail.statistics(Hop.GATEWAY_OUT).total().getTotalCount(), "one not stamped, one not sent");
        assertEquals(5, tail.statistics(Hop.END_TO_END).total().getTotalCount(), "the one not sent is not timed");
        assertEquals(7, excerpts(Journals.gatewayDeliveries(root, 1)), "6 deliveries and 2 private records, 2 in one excerpt");
        assertEquals(6, tail.join().deliveriesRead(), "the private records are skipped");
        assertEquals(2, tail.join().commandsWithoutReport(), "the repeated command 6 and command 7");

        final String text = output.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("! 2 eventIds missing from gateway journals"), text);
        assertTrue(text.contains("gateway-1: eventId 6 follows 3 (2 missing)"), text);
        assertTrue(tail.findings().examples().contains("gateway-1: eventId 6 follows 3 (2 missing)"));
        assertTrue(text.contains("! 2 negative hops (a clock went backwards)"), text);
        assertTrue(text.contains("! 1 reports without a command"), text);
        assertTrue(text.contains("! 1 deliveries without a report"), text);
        assertTrue(text.contains("! 1 commands skipped by the engine journal"), text);
        assertTrue(text.contains("! 2 commands without a report"), text);
        assertTrue(text.contains("! 1 deliveries not sent to a socket"), text);
        assertTrue(text.contains("  gateway out  gateway has read the report -> FIX encoded, stored, queued, flushed"), text);
    }

    @Test
    void inputsOlderThanTheJoinWindowAreSaidToBeUnchecked() {
        try (JournalSetWriter writer = new JournalSetWriter(root)) {
            for (long eventId = 1; eventId <= 20; eventId++) {
                writer.newOrder(1, CLIENT, times(eventId));
            }
            writer.newOrder(2, CLIENT, times(21)); // names gateway 1 in gateway 2's journal
            writer.executionReport(1, CLIENT, 20, times(20));
            writer.executionReport(1, CLIENT, 1, times(1)); // out of order, and 19 inputs back
        }
        final Tail tail = runOffline(new TailOptions().joinWindow(4), new ByteArrayOutputStream());

        final Map<Finding, Long> expected = new EnumMap<>(Finding.class);
        expected.put(Finding.UNCHECKED_JOINS, 1L);
        expected.put(Finding.REORDERED_INPUTS, 1L);
        expected.put(Finding.FOREIGN_SOURCE_IDS, 1L);
        assertFindings(expected, tail);
        assertEquals(2, tail.statistics(Hop.ENGINE).total().getTotalCount(), "unchecked reports still count");
    }

    @Test
    void aDamagedRecordIsSkippedAndNamedByFileAndOffset() throws IOException {
        try (JournalSetWriter writer = new JournalSetWriter(root)) {
            writer.newOrder(1, CLIENT, times(1));
            writer.newOrder(1, CLIENT, times(2));
            writer.executionReport(1, CLIENT, 1, times(1));
            writer.executionReport(1, CLIENT, 2, times(2));
        }
        final JournalSurgery.Change excerpt = JournalSurgery.excerpt(Journals.engineJournal(root), 2);
        JournalSurgery.flip(excerpt, 40);
        final Tail tail = runOffline(new TailOptions(), new ByteArrayOutputStream());

        assertEquals(1L, tail.findings().total(Finding.DAMAGED_RECORDS));
        assertEquals(1, tail.statistics(Hop.ENGINE).total().getTotalCount(), "the damaged report is left out");
        final String example = String.join("\n", tail.findings().examples());
        assertTrue(example.contains("engine: file " + JournalSurgery.excerpt(Journals.engineJournal(root), 2).file().getFileName()
                + ", excerpt index 0x" + Long.toHexString(excerpt.index()) + ", byte offset "), example);
    }

    @Test
    void cleanJournalsSayNothingLooksWrong() {
        try (JournalSetWriter writer = new JournalSetWriter(root)) {
            writer.newOrder(1, CLIENT, times(1));
            writer.executionReport(1, CLIENT, 1, times(1));
            writer.delivery(1, CLIENT, 1, times(1));
        }
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final Tail tail = runOffline(new TailOptions(), output);
        assertFindings(Map.of(), tail);
        final String text = output.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("no eventId gaps, negative hops, missing timestamps or unmatched reports and deliveries"), text);
        assertTrue(!text.contains("!"), text);
    }

    /**
     * Input n of gateway 1: received at T0 + n ms, then each stage 1 µs after the previous one, except the
     * engine (2 µs) and the last (3 µs).
     */
    private static MetaData times(final long eventId) {
        final long received = T0 + eventId * 10 * 1_000;
        return new MetaData().sourceId(1).eventId(eventId).fixReceived(received).commandWriting(received + 10)
                .engineRead(received + 20).reportWriting(received + 40).gatewayRead(received + 50)
                .fixSent(received + 80);
    }

    private static long excerpts(final Path dir) {
        try (ChronicleQueue queue = Journals.openReadOnly(dir)) {
            final ExcerptTailer tailer = queue.createTailer();
            long count = 0;
            while (true) {
                try (DocumentContext excerpt = tailer.readingDocument()) {
                    if (!excerpt.isPresent()) {
                        return count;
                    }
                    count++;
                }
            }
        }
    }

    private Tail runOffline(final TailOptions options, final ByteArrayOutputStream output) {
        final Tail tail = new Tail(options.root(root).offline(true), new PrintStream(output, true, StandardCharsets.UTF_8));
        tail.run();
        return tail;
    }

    private static void assertFindings(final Map<Finding, Long> expected, final Tail tail) {
        for (final Finding finding : Finding.values()) {
            assertEquals(expected.getOrDefault(finding, 0L), tail.findings().total(finding), finding.description());
        }
    }
}
