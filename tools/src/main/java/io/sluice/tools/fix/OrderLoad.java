package io.sluice.tools.fix;

import io.sluice.gateway.codec.FixMessage;
import org.HdrHistogram.Recorder;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives one logged-on session with buy orders and records each order's round trip, in nanoseconds. The round trip runs
 * from sending the NewOrderSingle to receiving the execution report that finishes it (the fill, against pre-seeded
 * liquidity). At most {@code window} orders are outstanding: a window of 1 is the classic
 * ping-pong round trip (send, wait for ack and fill, send the next); a larger window is pipelined load.
 * Optionally paced to a rate, in which case latency is measured from each order's intended send time, so a
 * stalled system is not flattered (no coordinated omission). Allocation-free while running.
 */
public final class OrderLoad implements FixClientSession.ReportListener {
    private static final long MAX_ROUND_TRIP_NANOS = 3_600_000_000_000L;

    private final FixClientSession session;
    /** The session's clock: round trips are measured on the clock that stamps each report's arrival. */
    private final NanoClock clock;
    private final OrderTerms terms;
    private final int window;
    private final long[] sentNanos;
    private final long[] outstandingClOrdIds;
    private final Recorder latencies;
    private final long firstClOrdId;
    private LatencySamples samples;
    private long intervalNanos;
    private long sent;
    private long completed;
    private long filled;
    private long reports;
    private long rejected;
    private String firstRejectText;

    /**
     * @param firstClOrdId the first ClOrdID; later orders count up from it, so it must be unique per session
     * @param latencies    receives each order's round trip in nanoseconds (may be shared between loads)
     */
    public OrderLoad(final FixClientSession session, final OrderTerms terms, final int window,
                     final long firstClOrdId, final Recorder latencies) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + window);
        }
        this.session = session;
        this.clock = session.nanoClock();
        this.terms = terms;
        this.window = window;
        this.sentNanos = new long[window];
        this.outstandingClOrdIds = new long[window];
        Arrays.fill(outstandingClOrdIds, -1);
        this.firstClOrdId = firstClOrdId;
        this.latencies = latencies;
    }

    /**
     * @return a recorder for round trips that never resizes (and so never allocates) while recording: 1 ns to
     *         1 hour at 3 significant digits
     */
    public static Recorder newRecorder() {
        return new Recorder(1, MAX_ROUND_TRIP_NANOS, 3);
    }

    /** Also keeps every round trip raw in {@code samples} (for a bootstrap interval of the mean). */
    public OrderLoad samples(final LatencySamples samples) {
        this.samples = samples;
        return this;
    }

    /** Paces sending to {@code ordersPerSecond} (0: as fast as the window allows). */
    public OrderLoad pace(final long ordersPerSecond) {
        intervalNanos = ordersPerSecond <= 0 ? 0 : 1_000_000_000L / ordersPerSecond;
        return this;
    }

    /**
     * Sends {@code orders} more orders, or fewer if {@code deadlineNanos} (of the session's clock) passes
     * first, and waits for every sent order to finish.
     *
     * @return false if the connection closed before every sent order finished
     */
    public boolean run(final long orders, final long deadlineNanos) throws IOException {
        final long target = sent + orders;
        final long startNanos = clock.nanoTime();
        final long sentBefore = sent;
        boolean sending = true;
        while (true) {
            while (sending && sent - completed < window) {
                long now = clock.nanoTime();
                if (sent == target || now - deadlineNanos >= 0) {
                    sending = false;
                    break;
                }
                long sendTime = now;
                if (intervalNanos > 0) {
                    sendTime = startNanos + (sent - sentBefore) * intervalNanos;
                    if (sendTime - now > 0) {
                        if (sent != completed) {
                            break;
                        }
                        LockSupport.parkNanos(sendTime - now);
                        continue;
                    }
                }
                final long clOrdId = firstClOrdId + sent;
                final int slot = (int) (clOrdId % window);
                if (outstandingClOrdIds[slot] != -1) {
                    break;
                }
                sentNanos[slot] = sendTime;
                outstandingClOrdIds[slot] = clOrdId;
                sent++;
                session.queueNewOrder(clOrdId, terms);
            }
            session.flush();
            if (sent == completed) {
                if (!sending) {
                    return true;
                }
                continue;
            }
            if (!session.poll(this)) {
                return false;
            }
        }
    }

    @Override
    public void onExecutionReport(final FixMessage report, final long receivedNanos) {
        final long clOrdId = ExecutionReportFields.clOrdId(report);
        final int slot = (int) Math.floorMod(clOrdId, (long) window);
        if (clOrdId < 0 || outstandingClOrdIds[slot] != clOrdId) {
            return;
        }
        reports++;
        final long ordStatus = ExecutionReportFields.ordStatus(report);
        if (!ExecutionReportFields.orderDone(ordStatus)) {
            return;
        }
        outstandingClOrdIds[slot] = -1;
        completed++;
        final long roundTrip = receivedNanos - sentNanos[slot];
        latencies.recordValue(Math.min(roundTrip, MAX_ROUND_TRIP_NANOS));
        if (samples != null) {
            samples.record(roundTrip);
        }
        if (ordStatus == '2') {
            filled++;
        } else if (ordStatus == '8') {
            rejected++;
            if (firstRejectText == null) {
                firstRejectText = ExecutionReportFields.text(report);
            }
        }
    }

    /** @return orders sent so far. */
    public long sent() {
        return sent;
    }

    /** @return orders finished so far (filled, canceled, rejected or expired). */
    public long completed() {
        return completed;
    }

    public long filled() {
        return filled;
    }

    public long rejected() {
        return rejected;
    }

    /** @return execution reports received for this load's orders, acks included. */
    public long reports() {
        return reports;
    }

    /** @return the Text of the first rejected order, or null if none was rejected. */
    public String firstRejectText() {
        return firstRejectText;
    }
}
