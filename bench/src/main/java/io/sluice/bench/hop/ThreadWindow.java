package io.sluice.bench.hop;

import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;

/**
 * What one thread spent over a window of a pass: bytes allocated and the share of wall time it was on a
 * CPU. A spinning thread should be on a CPU all the time; a lower share means the scheduler took it off
 * for other work, and the latency figures of that pass measure the machine rather than the hop.
 * {@link #open()} and {@link #close()} must be called on the measured thread.
 */
final class ThreadWindow {
    private static final ThreadMXBean THREADS =
            (ThreadMXBean) ManagementFactory.getThreadMXBean();

    private long allocatedAtOpen;
    private long cpuAtOpen;
    private long wallAtOpen;
    private long allocatedBytes;
    private long cpuNanos;
    private long wallNanos;

    ThreadWindow() {
        if (!THREADS.isThreadAllocatedMemorySupported() || !THREADS.isThreadAllocatedMemoryEnabled()
                || !THREADS.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM does not count allocated bytes and CPU time per thread");
        }
    }

    void open() {
        wallAtOpen = System.nanoTime();
        cpuAtOpen = THREADS.getCurrentThreadCpuTime();
        allocatedAtOpen = THREADS.getThreadAllocatedBytes(Thread.currentThread().threadId());
    }

    void close() {
        allocatedBytes = THREADS.getThreadAllocatedBytes(Thread.currentThread().threadId()) - allocatedAtOpen;
        cpuNanos = THREADS.getCurrentThreadCpuTime() - cpuAtOpen;
        wallNanos = System.nanoTime() - wallAtOpen;
    }

    long allocatedBytes() {
        return allocatedBytes;
    }

    /** @return CPU time over wall time, 0 to 1. */
    double cpuShare() {
        return wallNanos == 0 ? 0 : Math.min(1.0, cpuNanos / (double) wallNanos);
    }
}
