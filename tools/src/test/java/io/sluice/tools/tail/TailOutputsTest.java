package io.sluice.tools.tail;

import io.sluice.contracts.latency.Hop;
import io.sluice.testkit.LatencyPattern;
import io.sluice.testkit.SyntheticJournals;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tail's interval log reads back with HdrHistogram's own reader. */
class TailOutputsTest {
    private static final long TEN_MILLIS_TICKS = 100_000;
    private static final long INPUTS = 20_000; // 100 ms of inputs at 5 µs spacing

    @TempDir
    static Path dir;
    private static Tail tail;

    @BeforeAll
    static void runTail() {
        final Path root = dir.resolve("journals");
        new SyntheticJournals(2, LatencyPattern.realistic()).write(root, 1, INPUTS);
        tail = new Tail(new TailOptions().root(root).offline(true).intervalTicks(TEN_MILLIS_TICKS)
                .hlog(dir.resolve("tail.hlog")),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        tail.run();
    }

    @Test
    void theIntervalLogHasEveryHopInEveryIntervalAddingUpToTheTotals() throws IOException {
        final Map<String, Histogram> merged = new HashMap<>();
        final Map<String, Integer> intervals = new HashMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(dir.resolve("tail.hlog").toFile())) {
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                merged.computeIfAbsent(interval.getTag(), tag -> new Histogram(3)).add((Histogram) interval);
                intervals.merge(interval.getTag(), 1, Integer::sum);
            }
        }
        assertEquals(Arrays.stream(Hop.values()).map(Hop::tag).collect(Collectors.toSet()), merged.keySet());
        for (final Hop hop : Hop.values()) {
            final Histogram total = tail.statistics(hop).total();
            final Histogram logged = merged.get(hop.tag());
            assertEquals(total.getTotalCount(), logged.getTotalCount(), hop.tag());
            assertEquals(total.getValueAtPercentile(99.9), logged.getValueAtPercentile(99.9), hop.tag());
            assertEquals(total.getMaxValue(), logged.getMaxValue(), hop.tag());
            assertTrue(intervals.get(hop.tag()) >= 10, hop.tag() + " in " + intervals.get(hop.tag()) + " intervals");
            assertEquals(intervals.get(Hop.GATEWAY_IN.tag()), intervals.get(hop.tag()), "every hop in every interval");
        }
    }
}
