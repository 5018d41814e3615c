package io.sluice.tools.tail;

import io.sluice.contracts.latency.Hop;
import io.sluice.testkit.LatencyPattern;
import io.sluice.testkit.SyntheticJournals;
import io.sluice.tools.report.LatencyTable;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tail reads a synthetic journal set with known latencies and reports, for every hop, the count and
 * the percentiles an independent nearest-rank computation gives, within HdrHistogram's stated precision
 * (three significant digits: a reported value is at most 1/1000 above the exact one, never below).
 */
class TailPercentilesTest {
    private static final int GATEWAYS = 2;
    private static final long INPUTS = 40_000;
    private static final LatencyPattern PATTERN = LatencyPattern.realistic();

    @TempDir
    static Path root;

    @BeforeAll
    static void writeJournals() {
        new SyntheticJournals(GATEWAYS, PATTERN).write(root, 1, INPUTS);
    }

    @Test
    void everyHopMatchesTheKnownDistribution() {
        final Tail tail = runOffline(new TailOptions());
        assertMatches(new KnownLatencies(PATTERN, GATEWAYS, 1, INPUTS, (gateway, eventId) -> true), tail);
        assertEquals(GATEWAYS * INPUTS, tail.join().commandsRead());
        for (final Finding finding : Finding.values()) {
            assertEquals(0, tail.findings().total(finding), finding.description());
        }
    }

    @Test
    void aGatewayFilterKeepsOnlyThatGatewaysMessages() {
        final Tail tail = runOffline(new TailOptions().gateways(2));
        assertMatches(new KnownLatencies(PATTERN, GATEWAYS, 1, INPUTS, (gateway, eventId) -> gateway == 2), tail);
    }

    @Test
    void aSessionFilterKeepsOnlyThatSessionsMessages() {
        final Tail tail = runOffline(new TailOptions().sessions(ShortTextLongConverter.INSTANCE.parse("CLIENT1")));
        assertMatches(new KnownLatencies(PATTERN, GATEWAYS, 1, INPUTS, (gateway, eventId) -> gateway == 1), tail);
    }

    @Test
    void aTimeWindowKeepsTheMessagesReceivedInIt() {
        final long since = 10_001;
        final long until = 30_000;
        final Tail tail = runOffline(new TailOptions()
                .sinceTicks(SyntheticJournals.START_TICKS + since * SyntheticJournals.SPACING_TICKS)
                .untilTicks(SyntheticJournals.START_TICKS + until * SyntheticJournals.SPACING_TICKS));
        // Input n of gateway g arrives at START + n * SPACING + g: inside for since <= n < until.
        assertMatches(new KnownLatencies(PATTERN, GATEWAYS, since, until - 1, (gateway, eventId) -> true), tail);
    }

    @Test
    void theSummaryShowsEveryHopAndSaysNothingLooksWrong() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new Tail(new TailOptions().root(root).offline(true), new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
        final String output = bytes.toString(StandardCharsets.UTF_8);
        final String summary = output.substring(output.indexOf("== summary"));
        for (final Hop hop : Hop.values()) {
            assertTrue(summary.contains(hop.label()), hop.label() + " in\n" + summary);
        }
        assertTrue(summary.contains("no eventId gaps"), summary);
        assertTrue(output.indexOf("p99.99") < output.indexOf("== summary"), "interval tables before the summary");
    }

    private static Tail runOffline(final TailOptions options) {
        final Tail tail = new Tail(options.root(root).offline(true),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        tail.run();
        return tail;
    }

    private static void assertMatches(final KnownLatencies known, final Tail tail) {
        for (final Hop hop : Hop.values()) {
            final Histogram measured = tail.statistics(hop).total();
            assertEquals(known.count(hop), measured.getTotalCount(), hop.label() + " count");
            for (final double percentile : LatencyTable.PERCENTILES) {
                assertWithinPrecision(known.percentileNanos(hop, percentile), measured.getValueAtPercentile(percentile),
                        hop.label() + " p" + percentile);
            }
            assertWithinPrecision(known.maxNanos(hop), measured.getMaxValue(), hop.label() + " max");
        }
    }

    private static void assertWithinPrecision(final long exact, final long reported, final String what) {
        assertTrue(reported >= exact && reported - exact <= exact / 1_000,
                what + ": exact " + exact + " ns, reported " + reported + " ns");
    }
}
