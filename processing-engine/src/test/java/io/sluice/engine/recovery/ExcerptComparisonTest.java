package io.sluice.engine.recovery;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.CxlRejResponseTo;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.Report;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.JournalOutput;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a replay compares, on real journals written as the engine writes them: every byte of every report,
 * but for the timestamps a run stamps itself (and, for replays of some gateways, OrderID and ExecID).
 */
final class ExcerptComparisonTest {
    @TempDir
    Path dir;

    private ChronicleQueue recorded;
    private ChronicleQueue fresh;

    @BeforeEach
    void openJournals() {
        recorded = Journals.open(dir.resolve("recorded"));
        fresh = Journals.open(dir.resolve("fresh"));
    }

    @AfterEach
    void closeJournals() {
        recorded.close();
        fresh.close();
    }

    @Test
    void reportsDifferingOnlyInTheRunsTimestampsMatch() {
        final ExecutionReport recordedReport = trade(1, 100);
        recordedReport.metaData().sourceId(1).eventId(2).commandWriting(1_000).engineRead(1_005).gatewayRead(1_007).fixSent(1_008);
        final ExecutionReport freshReport = trade(1, 100);
        freshReport.metaData().sourceId(1).eventId(2).commandWriting(1_000).engineRead(9_050);

        assertTrue(compare(false, List.of(recordedReport, reject()), List.of(freshReport, reject())));
    }

    @Test
    void theInputsOwnTimestampsAreCompared() {
        final ExecutionReport recordedReport = trade(1, 100);
        recordedReport.metaData().commandWriting(1_000);
        final ExecutionReport freshReport = trade(1, 100);
        freshReport.metaData().commandWriting(1_001);

        assertFalse(compare(false, List.of(recordedReport), List.of(freshReport)));
    }

    @Test
    void anyFieldOfAnyReportIsCompared() {
        assertFalse(compare(false, List.of(trade(1, 100), trade(2, 100)), List.of(trade(1, 100), trade(2, 90))));
        assertFalse(compare(false, List.of(trade(1, 100), reject()), List.of(trade(1, 100),
                reject().responseTo(CxlRejResponseTo.ORDER_CANCEL_REPLACE_REQUEST))));
    }

    @Test
    void aMissingOrExtraOrDifferentKindOfReportDiverges() {
        assertFalse(compare(false, List.of(trade(1, 100), trade(2, 100)), List.of(trade(1, 100))));
        assertFalse(compare(false, List.of(trade(1, 100)), List.of(trade(1, 100), reject())));
        assertFalse(compare(false, List.of(reject()), List.of(trade(1, 100))));
    }

    @Test
    void engineIdsAreComparedUnlessReplayingSomeGatewaysOnly() {
        final List<Report> recordedReports = List.of((ExecutionReport) trade(7, 100).orderId(70), (CancelReject) reject().orderId(70));
        final List<Report> freshReports = List.of((ExecutionReport) trade(3, 100).orderId(30), (CancelReject) reject().orderId(30));

        assertFalse(compare(false, recordedReports, freshReports));
        assertTrue(compare(true, recordedReports, freshReports));
    }

    @Test
    void theDivergentReportIsShownWithoutTheRunsTimestamps() {
        final ExecutionReport recordedReport = trade(1, 100);
        recordedReport.metaData().engineRead(1_005);
        write(recorded, List.of(recordedReport, trade(2, 100)));
        write(fresh, List.of(trade(1, 100), trade(2, 90)));

        final List<String> expected = ExcerptText.reports(recorded, recorded.lastIndex(), false);
        final List<String> actual = ExcerptText.reports(fresh, fresh.lastIndex(), false);

        assertEquals(1, ExcerptText.firstDifference(expected, actual));
        assertTrue(expected.get(1).contains("cumQty: 100"), expected.get(1));
        assertTrue(actual.get(1).contains("cumQty: 90"), actual.get(1));
        assertTrue(expected.get(0).contains("engineRead: 0,") && expected.get(0).contains("reportWriting: 0,"), expected.get(0));
        assertEquals("(no report)", ExcerptText.at(actual, 2));
    }

    /**
     * Writes each list as one excerpt, as the engine does (every report names input 2 of gateway 1), and compares
     * them, the recorded one as {@link ConsumptionOrder} holds it, the fresh one in memory as the replay's engine
     * shows it; also checks the report count.
     */
    private boolean compare(final boolean ignoreEngineIds, final List<? extends Report> recordedReports,
                            final List<? extends Report> freshReports) {
        write(recorded, recordedReports);
        write(fresh, freshReports);
        final ExcerptComparison comparison = new ExcerptComparison(ignoreEngineIds);
        try (ConsumptionOrder order = new ConsumptionOrder(recorded);
             ExcerptTailer freshTailer = fresh.createTailer()) {
            boolean found;
            do {
                found = order.next();
            } while (found && order.index() != recorded.lastIndex());
            assertTrue(found, "the recorded excerpt just written");
            assertTrue(freshTailer.moveToIndex(fresh.lastIndex()));
            comparison.expect(order);
            try (DocumentContext dc = freshTailer.readingDocument()) {
                final Bytes<?> bytes = dc.wire().bytes();
                final long length = bytes.readRemaining();
                comparison.inspect(bytes.addressForRead(bytes.readPosition(), (int) length), length);
            }
            final boolean matches = comparison.matched();
            if (matches) {
                assertEquals(freshReports.size(), comparison.reports());
            }
            return matches;
        }
    }

    @Test
    void nothingMatchesUntilTheFreshEngineCommitsAnExcerpt() {
        write(recorded, List.of(trade(1, 100)));
        final ExcerptComparison comparison = new ExcerptComparison(false);
        try (ConsumptionOrder order = new ConsumptionOrder(recorded)) {
            assertTrue(order.next());
            comparison.expect(order);
            assertFalse(comparison.matched());
        }
    }

    /** One excerpt through the engine's own {@link JournalOutput}, which stamps reportWriting. */
    private static void write(final ChronicleQueue journal, final List<? extends Report> reports) {
        final ExcerptAppender appender = journal.createAppender();
        final JournalOutput output = new JournalOutput();
        output.goLive(appender);
        try (DocumentContext dc = appender.writingDocument()) {
            for (final Report report : reports) {
                if (report instanceof ExecutionReport execution) {
                    output.executionReport(execution);
                } else {
                    output.cancelReject((CancelReject) report);
                }
            }
        }
    }

    private static ExecutionReport trade(final long execId, final long cumQty) {
        final ExecutionReport report = new ExecutionReport();
        report.metaData().sourceId(1).eventId(2);
        report.gatewayId(1).session(11).orderId(1).clOrdId(2).ordStatus(OrdStatus.PARTIALLY_FILLED).rejectReason(RejectReason.NONE);
        return report.execId(execId).execType(ExecType.TRADE).account(11).symbol(12).side(Side.BUY).ordType(OrdType.LIMIT)
                .timeInForce(TimeInForce.DAY).orderQty(200).price(Price.of(100)).lastQty(cumQty).lastPx(Price.of(100))
                .cumQty(cumQty).leavesQty(200 - cumQty).avgPx(Price.of(100));
    }

    private static CancelReject reject() {
        final CancelReject reject = new CancelReject().responseTo(CxlRejResponseTo.ORDER_CANCEL_REQUEST);
        reject.metaData().sourceId(1).eventId(2);
        reject.gatewayId(1).session(11).clOrdId(3).origClOrdId(2).ordStatus(OrdStatus.REJECTED).rejectReason(RejectReason.UNKNOWN_ORDER);
        return reject;
    }
}
