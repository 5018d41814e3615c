package io.sluice.replay;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.CxlRejResponseTo;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the replay compares: whole reports, but for the timestamps a run stamps itself. */
final class ExcerptReportsTest {
    private final ExcerptReports recorded = new ExcerptReports();
    private final ExcerptReports replayed = new ExcerptReports();

    @Test
    void reportsDifferingOnlyInTheRunsTimestampsAreTheSame() {
        final ExecutionReport recordedReport = report(1, 100);
        recordedReport.metaData().sourceId(1).eventId(2).commandWritten(1_000).engineRead(1_005).reportWritten(1_006).gatewayRead(1_007).fixSent(1_008);
        final ExecutionReport replayedReport = report(1, 100);
        replayedReport.metaData().sourceId(1).eventId(2).commandWritten(1_000).engineRead(9_050).reportWritten(9_060);
        recorded.executionReport(recordedReport);
        replayed.executionReport(replayedReport);

        assertTrue(recorded.sameAs(replayed));
    }

    @Test
    void theInputsOwnTimestampsAreCompared() {
        final ExecutionReport recordedReport = report(1, 100);
        recordedReport.metaData().commandWritten(1_000);
        final ExecutionReport replayedReport = report(1, 100);
        replayedReport.metaData().commandWritten(1_001);
        recorded.executionReport(recordedReport);
        replayed.executionReport(replayedReport);

        assertFalse(recorded.sameAs(replayed));
    }

    @Test
    void theFirstDifferentReportIsFound() {
        recorded.executionReport(report(1, 100));
        recorded.executionReport(report(2, 100));
        recorded.cancelReject(reject());
        replayed.executionReport(report(1, 100));
        replayed.executionReport(report(2, 90));
        replayed.cancelReject(reject());

        assertFalse(recorded.sameAs(replayed));
        assertEquals(1, recorded.firstDifference(replayed));
        assertTrue(recorded.yaml(1).contains("cumQty: 100"), recorded.yaml(1));
        assertTrue(replayed.yaml(1).contains("cumQty: 90"), replayed.yaml(1));
        assertTrue(recorded.yaml(2).contains("responseTo: ORDER_CANCEL_REQUEST"), recorded.yaml(2));
    }

    @Test
    void aMissingReportIsTheDifference() {
        recorded.executionReport(report(1, 100));
        recorded.executionReport(report(2, 100));
        replayed.executionReport(report(1, 100));

        assertFalse(recorded.sameAs(replayed));
        assertEquals(1, recorded.firstDifference(replayed));
        assertEquals("(no report)", replayed.yaml(1));
    }

    @Test
    void ignoringEngineIdsComparesEverythingElse() {
        final ExcerptReports subset = new ExcerptReports(true);
        final ExcerptReports otherSubset = new ExcerptReports(true);
        subset.executionReport((ExecutionReport) report(1, 100).orderId(7));
        otherSubset.executionReport((ExecutionReport) report(9, 100).orderId(3));

        assertTrue(subset.sameAs(otherSubset));
    }

    @Test
    void clearingStartsTheNextExcerpt() {
        recorded.executionReport(report(1, 100));
        recorded.clear();

        assertEquals(0, recorded.count());
        assertTrue(recorded.sameAs(replayed));
    }

    private static ExecutionReport report(final long execId, final long cumQty) {
        final ExecutionReport report = new ExecutionReport();
        report.gatewayId(1).session(11).orderId(1).clOrdId(2).ordStatus(OrdStatus.PARTIALLY_FILLED).rejectReason(RejectReason.NONE);
        return report.execId(execId).execType(ExecType.TRADE).account(11).symbol(12).side(Side.BUY).ordType(OrdType.LIMIT)
                .timeInForce(TimeInForce.DAY).orderQty(200).price(Price.of(100)).lastQty(cumQty).lastPx(Price.of(100))
                .cumQty(cumQty).leavesQty(200 - cumQty).avgPx(Price.of(100));
    }

    private static CancelReject reject() {
        final CancelReject reject = new CancelReject().responseTo(CxlRejResponseTo.ORDER_CANCEL_REQUEST);
        reject.gatewayId(1).session(11).clOrdId(3).origClOrdId(2).ordStatus(OrdStatus.REJECTED).rejectReason(RejectReason.UNKNOWN_ORDER);
        return reject;
    }
}
