package io.sluice.contracts.time;

import java.time.Instant;

/**
 * The one clock for MetaData timestamps: ticks of 0.1 µs since the Unix epoch.
 * <p>
 * It reads {@link System#nanoTime()}, which on Linux is {@code CLOCK_MONOTONIC}: one counter shared by
 * every process on the host, never stepping backwards, read without allocation through the vDSO. Each
 * process adds an offset to the wall clock, calibrated once at class load from the tightest of many
 * (nanoTime, wall time, nanoTime) samples. Two processes therefore disagree only by the difference of
 * their calibration errors, reported by {@link #calibrationErrorNanos()} (typically well under 1 µs).
 * Within a thread, ticks never decrease.
 */
public final class SluiceClock {
    /** Nanoseconds in one tick. */
    public static final long NANOS_PER_TICK = 100;
    /** Ticks in one microsecond. */
    public static final long TICKS_PER_MICRO = 10;

    private static final int CALIBRATION_SAMPLES = 2_000;
    private static final long OFFSET_NANOS;
    private static final long CALIBRATION_ERROR_NANOS;

    static {
        long bestWindow = Long.MAX_VALUE;
        long bestOffset = 0;
        for (int i = 0; i < CALIBRATION_SAMPLES; i++) {
            final long before = System.nanoTime();
            final Instant wall = Instant.now();
            final long after = System.nanoTime();
            final long window = after - before;
            if (window < bestWindow) {
                bestWindow = window;
                final long wallNanos = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
                bestOffset = wallNanos - (before + window / 2);
            }
        }
        OFFSET_NANOS = bestOffset;
        CALIBRATION_ERROR_NANOS = bestWindow / 2 + 1;
    }

    private SluiceClock() {
    }

    /** @return now, in 0.1 µs ticks since the epoch. Allocation-free. */
    public static long nowTicks() {
        return (System.nanoTime() + OFFSET_NANOS) / NANOS_PER_TICK;
    }

    /** @return what this process adds to {@code System.nanoTime()} to get wall-clock nanoseconds. */
    public static long offsetNanos() {
        return OFFSET_NANOS;
    }

    /** @return the most this process's offset can be off the wall clock, from its calibration. */
    public static long calibrationErrorNanos() {
        return CALIBRATION_ERROR_NANOS;
    }

    /** @return a tick duration in (fractional) microseconds, for printing. */
    public static double ticksToMicros(final long ticks) {
        return ticks / (double) TICKS_PER_MICRO;
    }

    /** Prints this process's offset and calibration error, one per line: used to compare processes. */
    public static void main(final String[] args) {
        System.out.println(OFFSET_NANOS);
        System.out.println(CALIBRATION_ERROR_NANOS);
    }
}
