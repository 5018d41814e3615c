package io.sluice.tools.fix;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes something that may block forever once a timeout passes, such as a FIX session waiting for reports that never
 * come. So a benchmark or demo against a stuck peer fails with a message instead of hanging.
 * Closing the watchdog first cancels it.
 */
public final class Watchdog implements AutoCloseable {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("watchdog").factory());

    private final ScheduledFuture<?> pending;
    private volatile boolean fired;

    private Watchdog(final AutoCloseable target, final Duration timeout) {
        pending = TIMER.schedule(() -> {
            fired = true;
            try {
                target.close();
            } catch (final Exception e) {
                // closing is best effort: the blocked caller sees its connection gone either way
            }
        }, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Arms a watchdog that closes {@code target} after {@code timeout}. */
    public static Watchdog closeAfter(final Duration timeout, final AutoCloseable target) {
        return new Watchdog(target, timeout);
    }

    /** @return true if the timeout passed and the target was closed. */
    public boolean fired() {
        return fired;
    }

    @Override
    public void close() {
        pending.cancel(false);
    }
}
