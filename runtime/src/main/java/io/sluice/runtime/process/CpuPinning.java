package io.sluice.runtime.process;

import net.openhft.affinity.AffinityLock;

/**
 * Optional pinning of the calling thread to one CPU with OpenHFT Affinity. It serves the engine thread and a gateway's
 * I/O thread when their config asks for it ({@code pinCpu}; {@value #NONE}, the default, pins nothing). Never assumed
 * to work: Affinity may refuse (CPU 0 is reserved for the OS by default, and on a
 * 2-core machine only CPU 1 is left), so the outcome is reported in words for the role to print, and the
 * thread runs on unpinned when the pin did not take. Closing releases the CPU.
 */
public final class CpuPinning implements AutoCloseable {
    /** The config value meaning: do not pin. */
    public static final int NONE = -1;

    private final AffinityLock lock;
    private final String outcome;

    private CpuPinning(final AffinityLock lock, final String outcome) {
        this.lock = lock;
        this.outcome = outcome;
    }

    /**
     * Pins the calling thread to {@code cpu}, or does nothing when {@code cpu} is {@link #NONE} (or negative).
     *
     * @param threadName what the thread is, for the outcome text (e.g. "engine thread")
     */
    public static CpuPinning pinCurrentThread(final int cpu, final String threadName) {
        if (cpu < 0) {
            return new CpuPinning(null, threadName + " not pinned (pinCpu not set)");
        }
        final AffinityLock lock;
        try {
            lock = AffinityLock.acquireLock(cpu);
        } catch (final RuntimeException | LinkageError e) {
            return new CpuPinning(null, threadName + " NOT pinned: OpenHFT Affinity failed to pin it to CPU " + cpu
                    + ": " + e);
        }
        if (!lock.isBound()) {
            lock.release();
            return new CpuPinning(null, threadName + " NOT pinned: OpenHFT Affinity could not give it CPU " + cpu
                    + " (" + AffinityLock.PROCESSORS + " CPUs; reserved ones are not handed out)");
        }
        final String outcome = lock.cpuId() == cpu
                ? threadName + " pinned to CPU " + cpu
                : threadName + " pinned to CPU " + lock.cpuId() + " (asked for " + cpu + ", which is reserved)";
        return new CpuPinning(lock, outcome);
    }

    /** @return true if the thread is pinned. */
    public boolean pinned() {
        return lock != null;
    }

    /** @return what happened, in words, e.g. "engine thread pinned to CPU 1". */
    public String outcome() {
        return outcome;
    }

    /** Releases the CPU (the thread's affinity returns to every CPU). */
    @Override
    public void close() {
        if (lock != null) {
            lock.release();
        }
    }
}
