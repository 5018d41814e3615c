package io.sluice.engine;

import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Locale;

/**
 * How long each phase of an engine process's start took, from the start of its JVM to going live. It is printed as one
 * line when it is live, so that a slow restart says where its time went: the JVM's own start, the command line, the
 * config, opening the journals, the snapshot (listing, checking and loading it) and re-running the inputs after it.
 * Each phase
 * is given as wall time and the CPU time of the thread that ran it ({@code config 761/230 ms}): on a machine shared
 * with other work the wall times grow with the load, the CPU times hardly. The line ends with the CPU time of the
 * whole process (the JIT compiler's and the GC's threads included). {@code ./sluice bench recovery} reads it. Start-up
 * code, never on the hot path: it allocates.
 */
public final class StartupPhases {
    /** Phases nobody reads: for engines launched other than by an engine process's start. */
    static final StartupPhases IGNORED = new StartupPhases(null, 0, 0);

    private final StringBuilder phases = new StringBuilder();
    private final NanoClock clock;
    private final ThreadMXBean threads;
    private final long startNanos;
    private long lastNanos;
    private long lastCpuNanos;
    private Thread lastThread;

    private StartupPhases(final NanoClock clock, final long startNanos, final long cpuNanos) {
        this.clock = clock;
        this.threads = clock == null ? null : ManagementFactory.getThreadMXBean();
        this.startNanos = startNanos;
        this.lastNanos = startNanos;
        this.lastCpuNanos = cpuNanos;
        this.lastThread = Thread.currentThread();
    }

    /**
     * @param nanoClock  times the phases
     * @param epochClock the wall clock, to tell how long ago the JVM was created (the JVM records that wall time)
     * @return phases timed from the start of this JVM, the first one ({@code phase}) ending now
     */
    public static StartupPhases sinceJvmStart(final String phase, final NanoClock nanoClock, final EpochClock epochClock) {
        final long sinceStartMillis = Math.max(0, epochClock.time() - ManagementFactory.getRuntimeMXBean().getStartTime());
        final StartupPhases phases = new StartupPhases(nanoClock, nanoClock.nanoTime() - sinceStartMillis * 1_000_000, 0);
        phases.end(phase);
        return phases;
    }

    /** Ends the current phase, named {@code phase}, now; the next one starts. */
    public void end(final String phase) {
        if (this == IGNORED) {
            return;
        }
        final long now = clock.nanoTime();
        // A phase begun on another thread (the engine's agent thread starting) counts this thread's CPU time from 0.
        final long cpu = threads.getCurrentThreadCpuTime();
        final long cpuSpent = lastThread == Thread.currentThread() ? cpu - lastCpuNanos : cpu;
        phases.append(phases.isEmpty() ? "" : ", ").append(phase).append(' ').append((now - lastNanos) / 1_000_000)
                .append('/').append(cpuSpent / 1_000_000).append(" ms");
        lastNanos = now;
        lastCpuNanos = cpu;
        lastThread = Thread.currentThread();
    }

    /** Ends the current phase, named {@code phase}, now, saying more about it in brackets: e.g. what it was made of. */
    public void end(final String phase, final String detail) {
        end(phase);
        if (this != IGNORED) {
            phases.append(" (").append(detail).append(')');
        }
    }

    /** @return e.g. "live 812 ms after the JVM's start, process cpu 1,210 ms; phases wall/thread cpu: jvm 310/120 ms, ..." */
    public String describe() {
        final long cpu = ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(-1L);
        return String.format(Locale.ROOT, "live %d ms after the JVM's start, process cpu %,d ms; phases wall/thread cpu: %s",
                (clock.nanoTime() - startNanos) / 1_000_000, cpu, phases);
    }
}
