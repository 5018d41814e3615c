package io.sluice.runtime.process;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition by polling it (with a short pause between polls) until a deadline. It is how the demo,
 * benchmarks and tests wait for a child process to be ready, instead of sleeping for a guessed time.
 */
public final class PollUntil {
    private static final long PAUSE_NANOS = 5_000_000L;

    private PollUntil() {
    }

    /** As {@link #await(BooleanSupplier, Duration, Supplier, NanoClock)} on the system's clock: for tests and benchmarks. */
    public static void await(final BooleanSupplier condition, final Duration timeout, final Supplier<String> why) {
        await(condition, timeout, why, SystemNanoClock.INSTANCE);
    }

    /**
     * @param why   what is awaited, for the exception message (called only on timeout)
     * @param clock times the wait: the process's
     * @throws IllegalStateException if {@code condition} is still false after {@code timeout}
     */
    public static void await(final BooleanSupplier condition, final Duration timeout, final Supplier<String> why,
                             final NanoClock clock) {
        final long deadline = clock.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (clock.nanoTime() - deadline > 0) {
                throw new IllegalStateException("timed out after " + timeout.toMillis() + " ms waiting for "
                        + why.get());
            }
            LockSupport.parkNanos(PAUSE_NANOS);
        }
    }
}
