package io.sluice.bench.runtime;

import io.sluice.bench.report.BenchResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A child benchmark's figures are read back from the JSON BenchResult wrote, section by section. */
final class ResultFieldsTest {
    @Test
    void topLevelAndSectionNumbersAreReadFromWhatBenchResultWrites() {
        final Histogram total = new Histogram(3);
        total.recordValueWithCount(10_000, 99);
        total.recordValue(2_000_000);
        final Histogram in = new Histogram(3);
        in.recordValue(1_000);
        final String json = BenchResult.of("journal-round-trip").put("roundTripsPerSecond", 123_456.789)
                .putLatencyNanos("in", in).putLatencyNanos("roundTrip", total).toJson();

        assertEquals(123_456.789, ResultFields.number(json, "roundTripsPerSecond"));
        assertEquals(10.0, ResultFields.number(json, "roundTrip", "p50Us"), 0.01);
        assertEquals(10.0, ResultFields.number(json, "roundTrip", "p99Us"), 0.01);
        assertEquals(2_000, ResultFields.number(json, "roundTrip", "p99_9Us"), 2);
        assertEquals(1.0, ResultFields.number(json, "in", "p99_9Us"), 0.01);
    }

    @Test
    void aMissingFigureIsAnErrorNamingIt() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ResultFields.number("{ \"a\": 1 }", "roundTrip", "p99Us"));
        assertEquals(true, e.getMessage().contains("roundTrip"));
    }
}
