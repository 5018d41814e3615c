package io.sluice.bench.runtime;

import org.HdrHistogram.Histogram;

/**
 * The figures one runtime-configuration run of a round trip benchmark yields: throughput and latency
 * percentiles in µs.
 */
record RoundTripFigures(double perSecond, double p50Us, double p99Us, double p999Us) {
    /** @return the figures of {@code roundTrips} (nanoseconds), completed over {@code nanos}. */
    static RoundTripFigures of(final Histogram roundTrips, final long nanos) {
        return new RoundTripFigures(roundTrips.getTotalCount() * 1e9 / nanos,
                roundTrips.getValueAtPercentile(50) / 1e3, roundTrips.getValueAtPercentile(99) / 1e3,
                roundTrips.getValueAtPercentile(99.9) / 1e3);
    }
}
