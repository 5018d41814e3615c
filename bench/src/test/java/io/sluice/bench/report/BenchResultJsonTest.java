package io.sluice.bench.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What BenchResult writes can be read back: figures, the whole histogram and series. */
class BenchResultJsonTest {
    @Test
    void aLatencySectionCarriesTheWholeHistogramWhichDecodesToTheSameDistributionAtOnePercent() {
        final Histogram histogram = new Histogram(3);
        for (int i = 1; i <= 100_000; i++) {
            histogram.recordValue(i * 37L);
        }

        final Map<?, ?> json = (Map<?, ?>) JsonParser.parse(BenchResult.of("h").putLatencyNanos("latency", histogram).toJson());
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
        final Map<?, ?> json = (Map<?, ?>) JsonParser.parse(
                BenchResult.of("s").putSeries("orders", 0.5, new double[] {1.5, 2, 3}).toJson());

        final Map<?, ?> series = (Map<?, ?>) json.get("orders");
        assertEquals(0.5, series.get("intervalSeconds"));
        assertEquals(List.of(1.5, 2.0, 3.0), series.get(BenchResult.SERIES_KEY));
    }

    @Test
    void textsNumbersAndNestingSurviveTheRoundTrip() {
        final String json = BenchResult.of("t").put("quote", "a \"b\"\n\tc\\d").put("flag", true).put("none", null)
                .put("list", List.of(1, 2.25)).put("nested", BenchResult.section().put("x", 3)).toJson();

        final Map<?, ?> parsed = (Map<?, ?>) JsonParser.parse(json);

        assertEquals("a \"b\"\n\tc\\d", parsed.get("quote"));
        assertEquals(true, parsed.get("flag"));
        assertTrue(parsed.containsKey("none"));
        assertEquals(List.of(1.0, 2.25), parsed.get("list"));
        assertEquals(3.0, ((Map<?, ?>) parsed.get("nested")).get("x"));
    }

    @Test
    void brokenJsonIsRejectedNamingTheOffset() {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> JsonParser.parse("{\"a\": 1,, }"));
        assertTrue(error.getMessage().contains("offset 8"), error.getMessage());
    }

    @Test
    void spreadIsMedianWithMinAndMaxAndSkipsMissingRuns() {
        assertEquals(new Spread(1, 2.5, 4, 4), Spread.of(java.util.Arrays.asList(4.0, 1.0, null, 3.0, 2.0)));
        assertEquals("2.50 (1.00 – 4.00)", Spread.of(List.of(4.0, 1.0, 3.0, 2.0)).text());
        assertEquals("—", Spread.of(List.of()).text());
    }
}
