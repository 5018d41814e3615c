package io.sluice.runtime.process;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Puts every thread of this process under Linux's {@code SCHED_IDLE} policy. The kernel then runs them only on CPU time
 * no other thread wants, and an engine or gateway thread that wakes with work takes the CPU from them at once. For
 * processes that watch Sluice and must not slow it, such as a live latency
 * tail: on 2 cores its reading, JIT compiling and collecting would otherwise take whole scheduler slices
 * from the threads it measures. The JVM's own threads exist before {@code main} runs, so each thread of
 * {@code /proc/self/task} is set; threads started later inherit the policy from their creator. Uses the
 * JDK's foreign function API (no native library of our own); elsewhere than Linux it changes nothing.
 */
public final class IdlePriority {
    /** Linux's SCHED_IDLE policy number (sched.h). */
    public static final int SCHED_IDLE = 5;
    private static final MethodHandle SCHED_SETSCHEDULER = schedSetscheduler();

    private IdlePriority() {
    }

    /**
     * Sets every thread of this process to {@code SCHED_IDLE}.
     *
     * @return what happened, for the process to print: how many threads were set, or why none were
     */
    public static String applyToThisProcess() {
        if (SCHED_SETSCHEDULER == null) {
            return "scheduling priority unchanged: sched_setscheduler is not available (not Linux)";
        }
        final List<Long> threads;
        try {
            threads = threadsOf(ProcessHandle.current().pid());
        } catch (final IOException | NumberFormatException e) {
            return "scheduling priority unchanged: cannot list this process's threads: " + e;
        }
        int set = 0;
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment param = arena.allocate(ValueLayout.JAVA_INT); // struct sched_param { int sched_priority = 0; }
            for (final long tid : threads) {
                if ((int) SCHED_SETSCHEDULER.invokeExact((int) tid, SCHED_IDLE, param) == 0) {
                    set++;
                }
            }
        } catch (final Throwable e) {
            return "scheduling priority unchanged: sched_setscheduler failed: " + e;
        }
        return String.format(Locale.ROOT, "idle scheduling priority (SCHED_IDLE) for %d of %d threads: this process runs"
                + " only on CPU time no other thread wants", set, threads.size());
    }

    /** @return the ids of process {@code pid}'s threads, from /proc */
    public static List<Long> threadsOf(final long pid) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.map(task -> Long.parseLong(task.getFileName().toString())).toList();
        }
    }

    /** @return the scheduling policy number of thread {@code tid} of process {@code pid}, from /proc (field 41 of stat) */
    public static int policyOf(final long pid, final long tid) throws IOException {
        final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "stat"));
        // The fields after the command name (field 2), which is in parentheses and may hold spaces, start at field 3.
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Integer.parseInt(fields[41 - 3]);
    }

    private static MethodHandle schedSetscheduler() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return null;
        }
        try {
            final Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("sched_setscheduler").map(address -> linker.downcallHandle(address,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                            ValueLayout.ADDRESS))).orElse(null);
        } catch (final RuntimeException | LinkageError e) {
            return null;
        }
    }
}
