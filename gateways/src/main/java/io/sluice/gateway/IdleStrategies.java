package io.sluice.gateway;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * The idle strategies a gateway's I/O thread can be configured with, by name. The default, backoff,
 * spins briefly, then yields, then parks up to 100 µs: it behaves on a 2-core machine where a busy spinner
 * would fight the engine for a core; busy-spin is for hosts with cores to spare.
 */
public final class IdleStrategies {
    public static final String BACKOFF = "backoff";
    public static final String BUSY_SPIN = "busy-spin";
    public static final String YIELD = "yield";
    public static final String SLEEP = "sleep";

    private IdleStrategies() {
    }

    /** @throws IllegalArgumentException naming the valid names */
    public static IdleStrategy of(final String name) {
        return switch (name == null ? "" : name) {
            case BACKOFF -> new BackoffIdleStrategy(100, 100, 1_000, 100_000);
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case SLEEP -> new SleepingMillisIdleStrategy(1);
            default -> throw new IllegalArgumentException("idle '" + name + "' must be one of " + BACKOFF + ", "
                    + BUSY_SPIN + ", " + YIELD + ", " + SLEEP);
        };
    }
}
