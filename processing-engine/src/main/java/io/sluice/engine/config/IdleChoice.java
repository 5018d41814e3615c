package io.sluice.engine.config;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * What the engine thread does when no gateway journal has anything to read. Busy-spinning gives the
 * lowest latency but burns a whole core; on a 2-core machine shared with gateways only one thread may
 * spin, so the default backs off: a few spins, a few yields, then parks from 1 µs up to 100 µs.
 */
public enum IdleChoice {
    BUSY_SPIN,
    YIELD,
    BACK_OFF;

    private static final long SPINS = 100;
    private static final long YIELDS = 10;
    private static final long MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(1);
    private static final long MAX_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    /** @return a new idle strategy of this kind, for one thread. */
    public IdleStrategy newStrategy() {
        return switch (this) {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACK_OFF -> new BackoffIdleStrategy(SPINS, YIELDS, MIN_PARK_NANOS, MAX_PARK_NANOS);
        };
    }

    /** @return this choice with its parameters, for benchmark reports. */
    public String describe() {
        return switch (this) {
            case BUSY_SPIN -> "BUSY_SPIN (Agrona BusySpinIdleStrategy)";
            case YIELD -> "YIELD (Agrona YieldingIdleStrategy: Thread.yield)";
            case BACK_OFF -> "BACK_OFF (Agrona BackoffIdleStrategy: " + SPINS + " spins, " + YIELDS + " yields, then park "
                    + MIN_PARK_NANOS / 1000 + "-" + MAX_PARK_NANOS / 1000 + " us)";
        };
    }
}
