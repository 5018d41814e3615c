package io.sluice.replication;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The shipper's idle strategy: it parks for what it knows it waits for, else idles as configured.
 * A frame not full waits for the one in flight, and a frame alone waits out its hold, so looking at the journals
 * before either ends only wakes the shipper for nothing: with the configured back-off alone it woke some 12,000 times a
 * second in {@code ./sluice demo --replicate} at 2,500 orders/s, each wake a context switch taken from the trading path
 * on a small host. So it parks until the hold ends, or until Kafka answers the frame in flight: the producer's callback
 * unparks the shipper's thread as soon as a frame is acknowledged or fails ({@link SentFrame}), and that wait is cut at
 * {@value #AWAIT_MICROS} µs so that frames fill and the shipper's timers run also when no answer comes. With nothing
 * open and nothing in flight, new excerpts announce themselves to no one: then the configured strategy polls.
 */
final class ShipperIdle implements IdleStrategy {
    /** The longest wait for an answer from Kafka. */
    static final long AWAIT_MICROS = 1000;
    static final long AWAIT_NANOS = TimeUnit.MICROSECONDS.toNanos(AWAIT_MICROS);

    private final Shipper shipper;
    private final IdleStrategy configured;

    ShipperIdle(final Shipper shipper, final IdleStrategy configured) {
        this.shipper = shipper;
        this.configured = configured;
    }

    @Override
    public void idle(final int workCount) {
        if (workCount > 0) {
            configured.reset();
            return;
        }
        final long parkNanos = shipper.parkNanos();
        if (parkNanos > 0) {
            LockSupport.parkNanos(parkNanos);
        } else {
            configured.idle();
        }
    }

    @Override
    public void idle() {
        idle(0);
    }

    @Override
    public void reset() {
        configured.reset();
    }

    @Override
    public String alias() {
        return "shipper (" + configured.alias() + " unless awaiting Kafka)";
    }
}
