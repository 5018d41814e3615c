package io.sluice.bench.hop;

import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import org.HdrHistogram.Histogram;

/**
 * The reader's end of the hop: for every order, the latency from its intended send time, which the writer
 * puts in {@code metaData().fixReceived()} as {@link System#nanoTime()} nanoseconds (not SluiceClock ticks:
 * this bench needs nanosecond resolution within one process). The first {@code settle} orders of a pass
 * are counted but not recorded. It also checks that orders arrive in sequence, none lost or repeated.
 */
final class HopReceiver implements GatewayToEngine {
    /** Highest latency the histogram tracks; anything slower is recorded as this. */
    static final long MAX_LATENCY_NANOS = 60_000_000_000L;

    private final Histogram latencyNanos = new Histogram(MAX_LATENCY_NANOS, 3);
    private final int settle;
    private long received;
    private long outOfSequence;
    private long lastReceivedNanos;

    HopReceiver(final int settle) {
        this.settle = settle;
    }

    @Override
    public void newOrder(final NewOrder order) {
        final long now = System.nanoTime();
        if (order.metaData().eventId() != ++received) {
            outOfSequence++;
        }
        if (received > settle) {
            latencyNanos.recordValue(Math.min(now - order.metaData().fixReceived(), MAX_LATENCY_NANOS));
        }
        lastReceivedNanos = now;
    }

    @Override
    public void cancelOrder(final CancelOrder cancel) {
        throw new IllegalStateException("the hop bench writes only new orders, got a cancel");
    }

    @Override
    public void replaceOrder(final ReplaceOrder replace) {
        throw new IllegalStateException("the hop bench writes only new orders, got a replace");
    }

    @Override
    public void massCancel(final MassCancel massCancel) {
        throw new IllegalStateException("the hop bench writes only new orders, got a mass cancel");
    }

    /** @return orders received so far, settling ones included. */
    long received() {
        return received;
    }

    /** @return orders whose eventId was not the next in sequence. */
    long outOfSequence() {
        return outOfSequence;
    }

    /** @return System.nanoTime() when the latest order arrived. */
    long lastReceivedNanos() {
        return lastReceivedNanos;
    }

    /** @return the latencies of the measured orders, in nanoseconds. */
    Histogram latencyNanos() {
        return latencyNanos;
    }
}
