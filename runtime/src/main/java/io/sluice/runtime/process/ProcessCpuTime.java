package io.sluice.runtime.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * The CPU time another process has used, as benchmarks and tests read it to cost work or to wait patiently.
 * <p>
 * Read through {@link ProcessHandle} and {@code /proc} on Linux: it allocates, so never on a hot path.
 */
public final class ProcessCpuTime {
    /** Linux's clock ticks a second ({@code USER_HZ}), the unit of {@code /proc/<pid>/task/<tid>/stat}'s times. */
    private static final long NANOS_PER_TICK = 10_000_000;
    /** The name HotSpot gives its JIT compiler threads ("C1 CompilerThread0", "C2 CompilerThread1"), as Linux cuts it. */
    private static final String COMPILER_THREAD = "CompilerThre";

    private ProcessCpuTime() {
    }

    /** @return the CPU time (user and system) process {@code pid} has used so far, nanoseconds; 0 if unreadable */
    public static long nanos(final long pid) {
        return ProcessHandle.of(pid).flatMap(handle -> handle.info().totalCpuDuration()).map(Duration::toNanos)
                .orElse(0L);
    }

    /**
     * @return the CPU time (user and system) the JIT compiler threads of JVM {@code pid} have used so far, nanoseconds,
     * at Linux's 10 ms resolution; 0 if unreadable. A phase's CPU less this is what its work costs once compiled.
     */
    public static long compilerNanos(final long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.mapToLong(ProcessCpuTime::compilerTicks).sum() * NANOS_PER_TICK;
        } catch (final IOException | UncheckedIOException gone) {
            return 0;
        }
    }

    /** @return the user and system ticks of thread {@code task} if it is a JIT compiler thread, else 0 */
    private static long compilerTicks(final Path task) {
        try {
            final String stat = Files.readString(task.resolve("stat"));
            final int nameStart = stat.indexOf('(');
            final int nameEnd = stat.lastIndexOf(')');
            if (nameStart < 0 || nameEnd < nameStart || !stat.substring(nameStart + 1, nameEnd).contains(COMPILER_THREAD)) {
                return 0;
            }
            // after the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
            final String[] fields = stat.substring(nameEnd + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (final IOException exited) {
            return 0;
        }
    }
}
