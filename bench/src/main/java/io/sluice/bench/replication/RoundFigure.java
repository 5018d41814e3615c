package io.sluice.bench.replication;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * One moment over the rounds of a failover scenario: its p50 (the lower median) and its max, in ms.
 *
 * @param p50 the lower median of the rounds' values
 * @param max the largest
 */
record RoundFigure(long p50, long max) {
    /** @return {@code moment}'s p50 and max over {@code rounds}, at least one */
    static <T> RoundFigure of(final List<T> rounds, final ToLongFunction<T> moment) {
        final long[] sorted = rounds.stream().mapToLong(moment).sorted().toArray();
        return new RoundFigure(sorted[(sorted.length - 1) / 2], sorted[sorted.length - 1]);
    }
}
