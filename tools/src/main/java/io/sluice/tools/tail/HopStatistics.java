package io.sluice.tools.tail;

import io.sluice.contracts.MetaData;
import io.sluice.contracts.latency.Hop;
import io.sluice.contracts.time.SluiceClock;
import org.HdrHistogram.Histogram;

/**
 * One hop's latencies: the current interval's histogram and the run's total, both in nanoseconds with
 * three significant digits. Recording is allocation-free once the histograms have grown to the range seen.
 * Hops with a missing (0) timestamp or a negative duration are not recorded but reported to {@link Findings}.
 */
public final class HopStatistics {
    private static final int SIGNIFICANT_DIGITS = 3;

    private final Hop hop;
    private final Findings findings;
    private final Histogram interval = new Histogram(SIGNIFICANT_DIGITS);
    private final Histogram total = new Histogram(SIGNIFICANT_DIGITS);

    HopStatistics(final Hop hop, final Findings findings) {
        this.hop = hop;
        this.findings = findings;
        interval.setTag(hop.tag());
        total.setTag(hop.tag());
    }

    public Hop hop() {
        return hop;
    }

    /** @return this interval's latencies in nanoseconds, tagged with {@link Hop#tag()}. */
    public Histogram interval() {
        return interval;
    }

    /** @return the latencies of every closed interval, in nanoseconds. */
    public Histogram total() {
        return total;
    }

    /** Records the hop from {@code start} to {@code end} (ticks) of the message {@code metaData} describes. */
    void record(final MetaData metaData, final long start, final long end) {
        if (start == 0 || end == 0) {
            findings.missingTimestamp(hop, metaData);
            return;
        }
        final long ticks = end - start;
        if (ticks < 0) {
            findings.negativeHop(hop, metaData, ticks);
            return;
        }
        interval.recordValue(ticks * SluiceClock.NANOS_PER_TICK);
    }

    /** Adds the interval to the total and empties it for the next. */
    void closeInterval() {
        total.add(interval);
        interval.reset();
        interval.setTag(hop.tag()); // reset() clears it
    }
}
