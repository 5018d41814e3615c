package io.sluice.tools.tail;

import io.sluice.contracts.latency.Hop;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.testkit.LatencyPattern;
import io.sluice.testkit.SyntheticJournals;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * The latencies a {@link SyntheticJournals} set holds, computed straight from its {@link LatencyPattern}
 * (not from any journal), sorted, in nanoseconds, with nearest-rank percentiles: the independent answer the
 * tail's HdrHistogram figures are checked against.
 */
final class KnownLatencies {
    private final Map<Hop, long[]> sorted = new EnumMap<>(Hop.class);

    /** Inputs {@code first..last} of gateways {@code 1..gateways}, keeping only those {@code include} accepts. */
    KnownLatencies(final LatencyPattern pattern, final int gateways, final long first, final long last,
                   final Inclusion include) {
        final Map<Hop, long[]> values = new EnumMap<>(Hop.class);
        final int[] sizes = new int[Hop.values().length];
        final int capacity = (int) ((last - first + 1) * gateways * 2);
        for (final Hop hop : Hop.values()) {
            values.put(hop, new long[capacity]);
        }
        for (int gateway = 1; gateway <= gateways; gateway++) {
            for (long eventId = first; eventId <= last; eventId++) {
                if (!include.accepts(gateway, eventId)) {
                    continue;
                }
                add(values, sizes, Hop.GATEWAY_IN, pattern.ticks(Hop.GATEWAY_IN, gateway, eventId, 0));
                add(values, sizes, Hop.JOURNAL_IN, pattern.ticks(Hop.JOURNAL_IN, gateway, eventId, 0));
                for (int report = 0; report < SyntheticJournals.reportsFor(eventId); report++) {
                    final long engine = pattern.ticks(Hop.ENGINE, gateway, eventId, report);
                    final long journalOut = pattern.ticks(Hop.JOURNAL_OUT, gateway, eventId, report);
                    final long gatewayOut = pattern.ticks(Hop.GATEWAY_OUT, gateway, eventId, report);
                    add(values, sizes, Hop.ENGINE, engine);
                    add(values, sizes, Hop.JOURNAL_OUT, journalOut);
                    add(values, sizes, Hop.GATEWAY_OUT, gatewayOut);
                    add(values, sizes, Hop.END_TO_END, pattern.ticks(Hop.GATEWAY_IN, gateway, eventId, 0)
                            + pattern.ticks(Hop.JOURNAL_IN, gateway, eventId, 0) + engine + journalOut + gatewayOut);
                }
            }
        }
        for (final Hop hop : Hop.values()) {
            final long[] hopValues = Arrays.copyOf(values.get(hop), sizes[hop.ordinal()]);
            Arrays.sort(hopValues);
            sorted.put(hop, hopValues);
        }
    }

    /** Which inputs a run covers. */
    @FunctionalInterface
    interface Inclusion {
        boolean accepts(int gateway, long eventId);
    }

    long count(final Hop hop) {
        return sorted.get(hop).length;
    }

    /** @return the nearest-rank percentile: the smallest value with at least {@code percentile} % at or below it. */
    long percentileNanos(final Hop hop, final double percentile) {
        final long[] values = sorted.get(hop);
        final long hundredths = Math.round(percentile * 100);
        final long rank = Math.max(1, Math.ceilDiv(hundredths * values.length, 100 * 100L));
        return values[(int) rank - 1];
    }

    long maxNanos(final Hop hop) {
        final long[] values = sorted.get(hop);
        return values[values.length - 1];
    }

    private static void add(final Map<Hop, long[]> values, final int[] sizes, final Hop hop, final long ticks) {
        values.get(hop)[sizes[hop.ordinal()]++] = ticks * SluiceClock.NANOS_PER_TICK;
    }
}
