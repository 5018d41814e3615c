package io.sluice.systemtests.alloc;

import java.util.Locale;

/**
 * One hot thread of a Sluice process, found by the work loop it runs (a method on its stack, or the Agrona agent it
 * runs), with its counters read once at the start of a measurement.
 */
final class HotThread {
    private final String process;
    private final String loop;
    private final ChildJvm jvm;
    private final long id;
    private final String name;
    private final ChildJvm.ThreadCounters start;

    private HotThread(final String process, final String loop, final ChildJvm jvm, final long id) {
        this.process = process;
        this.loop = loop;
        this.jvm = jvm;
        this.id = id;
        this.name = jvm.threadName(id);
        this.start = jvm.counters(id);
    }

    /** Finds the thread of {@code jvm} running the agent {@code roleName} on an AgentRunner and reads its counters. */
    static HotThread agent(final String process, final ChildJvm jvm, final String roleName) {
        return new HotThread(process, "agent '" + roleName + "'", jvm, jvm.agentThread(roleName));
    }

    /** What the thread did since it was found. */
    record Measurement(String thread, long allocatedBytes, long cpuNanos, boolean alive) {
        double bytesPer(final long orders) {
            return (double) allocatedBytes / orders;
        }

        String describe(final long orders) {
            return String.format(Locale.ROOT, "%s allocated %,d bytes over %,d orders = %.4f bytes/order (%,d ms CPU)",
                    thread, allocatedBytes, orders, bytesPer(orders), cpuNanos / 1_000_000);
        }
    }

    /** @return the thread's allocation and CPU time since {@link #running}. */
    Measurement measure() {
        final ChildJvm.ThreadCounters now = jvm.counters(id);
        return new Measurement(process + " thread '" + name + "' (runs " + loop + ")",
                now.allocatedBytes() - start.allocatedBytes(), now.cpuNanos() - start.cpuNanos(),
                now.allocatedBytes() >= 0);
    }
}
