package io.sluice.replication;

import io.sluice.contracts.journal.ExcerptCount;
import io.sluice.contracts.time.SluiceClock;
import org.agrona.concurrent.NanoClock;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What the shipper lags behind its journals, in its counters and its lag line: per journal the excerpts Kafka has not
 * acknowledged yet (read or not) and how long the oldest of those read has waited, and whether the backlog shrinks: a
 * shipper that cannot keep up (the host gives it no CPU to spare) says so, instead of only showing a number that grows.
 * A round of the agent that took {@value #STOPPED_MILLIS} ms or more is named too, with the time it spent committing:
 * the shipper shipped nothing meanwhile, and a primary's lease lapses if that lasts. Called by the shipper's agent.
 */
final class ShipperLag {
    /** A round at least this long is named in the next lag line. */
    static final long STOPPED_MILLIS = 100;

    private final NanoClock clock;
    private long lastTotal = -1;
    private long lastReportNanos;
    private long longestRoundNanos;
    private long longestRoundCommitNanos;

    ShipperLag(final NanoClock clock) {
        this.clock = clock;
    }

    /** Brings every journal's lag counters up to date; {@code oldestTicks} is when the oldest unacknowledged frame began. */
    void updateCounters(final List<ShippedJournal> journals, final InFlightFrames inFlight) {
        final long now = SluiceClock.nowTicks();
        for (final ShippedJournal journal : journals) {
            if (journal.counters == null) {
                continue;
            }
            final long behind = journal.behind();
            if (behind != ExcerptCount.UNKNOWN) { // else the last figure stands until the next update
                journal.counters.lagMessages.setRelease(behind);
            }
            final long oldest = oldestUnacknowledgedTicks(journal, inFlight);
            journal.counters.lagMicros.setRelease(oldest == 0 ? 0 : (now - oldest) / SluiceClock.TICKS_PER_MICRO);
        }
    }

    /** The agent's round took {@code nanos}, {@code commitNanos} of them in the producer's commitTransaction(). */
    void round(final long nanos, final long commitNanos) {
        if (nanos > longestRoundNanos) {
            longestRoundNanos = nanos;
            longestRoundCommitNanos = commitNanos;
        }
    }

    private static long oldestUnacknowledgedTicks(final ShippedJournal journal, final InFlightFrames inFlight) {
        final long frame = inFlight.oldestTicks(journal);
        if (frame != 0) {
            return frame;
        }
        return journal.hasPending() ? journal.pendingReadTicks : 0;
    }

    /**
     * @return the lag line: {@code shipper: lag | engine 1502 behind (9120 acknowledged since start) held for gateway-1
     * event 9 | ... | backlog 1,502, shrinking 3,000/s | kafka up}
     */
    String line(final List<ShippedJournal> journals, final String held, final String link) {
        final StringBuilder line = new StringBuilder(Shipper.ROLE).append(": lag");
        long total = 0;
        boolean known = true;
        for (final ShippedJournal journal : journals) {
            final long behind = journal.behind();
            line.append(" | ").append(journal.name).append(' ')
                    .append(behind == ExcerptCount.UNKNOWN ? "?" : Long.toString(behind)).append(" behind (")
                    .append(journal.acknowledged).append(" acknowledged since start)");
            if (journal.state == ShippedJournal.State.RESUMING) {
                line.append(" resuming");
            }
            total += Math.max(0, behind);
            known &= behind != ExcerptCount.UNKNOWN;
        }
        if (held != null) {
            line.append(" | ").append(held);
        }
        final long now = clock.nanoTime();
        if (known && lastTotal >= 0) {
            final double seconds = (now - lastReportNanos) / 1e9;
            final long perSecond = Math.round((total - lastTotal) / Math.max(seconds, 1e-3));
            line.append(String.format(Locale.ROOT, " | backlog %,d", total));
            if (total > 0 && perSecond > 0) {
                line.append(String.format(Locale.ROOT, ", growing %,d/s: the writers outpace what this host "
                        + "lets the shipper ship (no CPU to spare?)", perSecond));
            } else if (perSecond < 0) {
                line.append(String.format(Locale.ROOT, ", shrinking %,d/s", -perSecond));
            }
        }
        if (known) {
            lastTotal = total;
            lastReportNanos = now;
        }
        if (longestRoundNanos >= TimeUnit.MILLISECONDS.toNanos(STOPPED_MILLIS)) {
            line.append(String.format(Locale.ROOT, " | stopped: a round took %,d ms, %,d of them committing, and"
                    + " shipped nothing meanwhile", TimeUnit.NANOSECONDS.toMillis(longestRoundNanos),
                    TimeUnit.NANOSECONDS.toMillis(longestRoundCommitNanos)));
        }
        longestRoundNanos = 0;
        longestRoundCommitNanos = 0;
        return line.append(" | ").append(link).toString();
    }
}
