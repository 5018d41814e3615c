package io.sluice.bench.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What BenchResult writes can be read back by ResultJson: figures, texts, the whole histogram and series. */
class BenchResultJsonTest {
    @Test
    void aLatencySectionCarriesTheWholeHistogramWhichDecodesToTheSameDistributionAtOnePercent() {
        final Histogram histogram = new Histogram(3);
        for (int i = 1; i <= 100_000; i++) {
            histogram.recordValue(i * 37L);
        }

        final Map<?, ?> json = ResultJson.parse(BenchResult.of("h").putLatencyNanos("latency", histogram).toJson(), "h.json");
        final Map<?, ?> latency = (Map<?, ?>) json.get("latency");
        final Histogram decoded = BenchResult.decode((String) latency.get(BenchResult.HISTOGRAM_KEY));

        assertEquals(histogram.getTotalCount(), decoded.getTotalCount());
        for (final double percentile : new double[] {50, 99, 99.9, 100}) {
            final double exact = histogram.getValueAtPercentile(percentile);
            assertEquals(exact, decoded.getValueAtPercentile(percentile), exact * 0.01, "p" + percentile);
        }
        assertEquals(histogram.getValueAtPercentile(50) / 1_000.0, (Double) latency.get("p50Us"), 0.001);
    }

    @Test
    void aSeriesIsItsIntervalAndOneRatePerInterval() {
        final Map<?, ?> json = ResultJson.parse(
                BenchResult.of("s").putSeries("orders", 0.5, new double[] {1.5, 2, 3}).toJson(), "s.json");

        final Map<?, ?> series = (Map<?, ?>) json.get("orders");
        assertEquals(0.5, series.get("intervalSeconds"));
        assertEquals(List.of(1.5, 2.0, 3.0), series.get(BenchResult.SERIES_KEY));
    }

    @Test
    void textsNumbersAndNestingSurviveTheRoundTripWithEveryNumberADouble() {
        final String json = BenchResult.of("t").put("quote", "a \"b\"\n\tc\\d\u0001 µs – ✓").put("digits", "0123")
                .put("flag", true).put("off", false).put("none", null).put("count", 12_345_678_901L)
                .put("list", List.of(1, 2.25, -3)).put("empty", List.of())
                .put("nested", BenchResult.section().put("x", 3).put("Ours TCP", "s")).toJson();

        final Map<?, ?> parsed = ResultJson.parse(json, "t.json");

        assertEquals("a \"b\"\n\tc\\d\u0001 µs – ✓", parsed.get("quote"));
        assertEquals("0123", parsed.get("digits"), "a quoted number stays text");
        assertEquals(true, parsed.get("flag"));
        assertEquals(false, parsed.get("off"));
        assertTrue(parsed.containsKey("none"));
        assertNull(parsed.get("none"));
        assertEquals(12_345_678_901.0, parsed.get("count"));
        assertEquals(List.of(1.0, 2.25, -3.0), parsed.get("list"));
        assertEquals(List.of(), parsed.get("empty"));
        assertEquals(Map.of("x", 3.0, "Ours TCP", "s"), parsed.get("nested"));
    }

    @Test
    void brokenJsonIsRejectedNamingTheFile(@TempDir final Path dir) throws IOException {
        final Path file = Files.writeString(dir.resolve("broken.json"), "{\"a\": 1,, }");

        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ResultJson.read(file));

        assertTrue(error.getMessage().startsWith(file + " is not valid JSON"), error.getMessage());
    }

    @Test
    void onlyOneJsonObjectIsAResult() {
        assertThrows(IllegalArgumentException.class, () -> ResultJson.parse("[1, 2]", "list.json"));
        assertThrows(IllegalArgumentException.class, () -> ResultJson.parse("{\"a\": 1} {\"b\": 2}", "two.json"));
    }

    @Test
    void spreadIsMedianWithMinAndMaxAndSkipsMissingRuns() {
        assertEquals(new Spread(1, 2.5, 4, 4), Spread.of(Arrays.asList(4.0, 1.0, null, 3.0, 2.0)));
        assertEquals("2.50 (1.00 – 4.00)", Spread.of(List.of(4.0, 1.0, 3.0, 2.0)).text());
        assertEquals("—", Spread.of(List.of()).text());
    }
}
