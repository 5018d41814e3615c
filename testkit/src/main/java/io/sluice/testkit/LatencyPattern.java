package io.sluice.testkit;

import io.sluice.contracts.latency.Hop;

/**
 * Known latencies for synthetic journals: the ticks each hop of each message takes. A pure function of (hop, gateway,
 * eventId, report index), so a test can compute the exact distribution it expects.
 * {@link Hop#END_TO_END} is never asked for: it is the sum of the others.
 */
@FunctionalInterface
public interface LatencyPattern {
    /**
     * @param report the index of the report among its input's reports, 0 for the first; ignored for the
     *               hops before the engine, which happen once per input
     * @return the hop's duration in 0.1 µs ticks, never negative
     */
    long ticks(Hop hop, int gatewayId, long eventId, int report);

    /**
     * A spread that looks like real latencies: each hop a few µs with a pseudo-random spread of up to five
     * times its base, and one message in 1024 taking an extra 300 µs.
     */
    static LatencyPattern realistic() {
        return (hop, gatewayId, eventId, report) -> {
            final long base = switch (hop) {
                case GATEWAY_IN -> 20;
                case JOURNAL_IN, JOURNAL_OUT -> 8;
                case ENGINE -> 12;
                case GATEWAY_OUT -> 25;
                case END_TO_END -> throw new IllegalArgumentException("end to end is the sum of the hops");
            };
            final long hash = mix(((long) gatewayId << 48) ^ (eventId << 4) ^ ((long) report << 3) ^ hop.ordinal());
            final long spread = Math.floorMod(hash, base * 5);
            final long spike = (hash >>> 54) == 0 ? 3_000 : 0;
            return base + spread + spike;
        };
    }

    /** SplitMix64's finaliser: a cheap, well-mixed hash. */
    private static long mix(final long value) {
        long z = value + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
