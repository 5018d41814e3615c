package io.sluice.runtime.process;

import java.time.Duration;

/**
 * The CPU time another process has used, as benchmarks and tests read it to cost work or to wait patiently.
 * <p>
 * Read through {@link ProcessHandle} (from {@code /proc} on Linux): it allocates, so never on a hot path.
 */
public final class ProcessCpuTime {
    private ProcessCpuTime() {
    }

    /** @return the CPU time (user and system) process {@code pid} has used so far, nanoseconds; 0 if unreadable */
    public static long nanos(final long pid) {
        return ProcessHandle.of(pid).flatMap(handle -> handle.info().totalCpuDuration()).map(Duration::toNanos)
                .orElse(0L);
    }
}
