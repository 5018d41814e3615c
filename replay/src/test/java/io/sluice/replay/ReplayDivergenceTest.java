package io.sluice.replay;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

import java.nio.file.Path;
import java.util.List;

import static io.sluice.replay.ReplayAssertions.assertReplaysIdentically;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The comparison bites: replayed with one engine rule changed (VOD.L's maxOrderQty below the recording's
 * one jumbo order, gateway 1's event {@value RecordedSession#JUMBO_AT}), the replay stops at exactly the
 * report where that order's fate differs.
 */
final class ReplayDivergenceTest {
    @TempDir
    Path out;

    @Test
    void aLowerMaxOrderQtyDivergesAtTheJumboOrdersFirstReport() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final List<RecordedReports> recorded = RecordedReports.read(session.root());
        final int jumboReport = firstReportOf(recorded, 1, RecordedSession.JUMBO_AT);

        final ReplayResult result = new Replay(session.root(), session.configWithVodMaxOrderQty(200)).output(out).run();

        assertFalse(result.identical());
        final Divergence divergence = result.divergence();
        assertEquals(jumboReport, divergence.reportNumber());
        assertEquals(recorded.get(jumboReport).excerptIndex(), divergence.excerptIndex());
        assertEquals(0, divergence.reportInExcerpt());
        assertEquals(1, divergence.sourceId());
        assertEquals(RecordedSession.JUMBO_AT, divergence.eventId());
        assertTrue(divergence.input().contains("orderQty: " + RecordedSession.JUMBO_QTY), divergence.input());
        assertTrue(divergence.expected().contains("execType: NEW"), divergence.expected());
        assertTrue(divergence.actual().contains("execType: REJECTED"), divergence.actual());
        assertEquals(jumboReport, result.reports(), "every report before the jumbo order's was identical");
    }

    @Test
    void theAssertionFailsWithTheDivergenceAsItsMessage() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final int jumboReport = firstReportOf(RecordedReports.read(session.root()), 1, RecordedSession.JUMBO_AT);

        final AssertionFailedError failure = assertThrows(AssertionFailedError.class,
                () -> assertReplaysIdentically(session.root(), session.configWithVodMaxOrderQty(200)));

        assertTrue(failure.getMessage().contains("first divergence at report " + jumboReport + " of the engine journal"), failure.getMessage());
        assertTrue(failure.getMessage().contains("caused by input " + RecordedSession.JUMBO_AT + " of gateway 1"), failure.getMessage());
        assertTrue(failure.getExpected().getStringRepresentation().contains("execType: NEW"));
        assertTrue(failure.getActual().getStringRepresentation().contains("execType: REJECTED"));
    }

    @Test
    void aHigherLimitThatNoOrderReachesChangesNothing() throws Exception {
        final RecordedSession session = RecordedSession.shared();

        final ReplayResult result = new Replay(session.root(), session.configWithVodMaxOrderQty(RecordedSession.JUMBO_QTY))
                .output(out).run();

        assertTrue(result.identical(), result::summary);
    }

    private static int firstReportOf(final List<RecordedReports> recorded, final int sourceId, final long eventId) {
        for (int i = 0; i < recorded.size(); i++) {
            if (recorded.get(i).sourceId() == sourceId && recorded.get(i).eventId() == eventId) {
                return i;
            }
        }
        throw new AssertionError("no report of input " + eventId + " of gateway " + sourceId);
    }
}
