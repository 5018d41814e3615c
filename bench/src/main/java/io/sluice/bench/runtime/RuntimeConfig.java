package io.sluice.bench.runtime;

import io.sluice.runtime.process.CpuPinning;

import java.util.ArrayList;
import java.util.List;

/**
 * One runtime configuration the runtime-configs benchmark measures: JVM flags added to {@code jvm.options} for
 * every process of the measured path, and whether the engine thread is pinned to a CPU.
 *
 * @param engineCpu the CPU the engine thread pins itself to, or {@link CpuPinning#NONE}
 */
record RuntimeConfig(String name, List<String> jvm, int engineCpu) {
    /** What Sluice ships: jvm.options alone (the JVM then picks its GC: G1 on a 2-CPU, 24 GB machine). */
    static final RuntimeConfig SHIPPED = new RuntimeConfig("default", List.of(), CpuPinning.NONE);
    /** The CPU Affinity hands out on a 2-core machine (CPU 0 stays reserved). */
    static final int PIN_CPU = 1;

    /**
     * @return the GC sweep: the shipped default (G1, which the JVM picks itself on this kind of machine), then
     *         each other collector (ZGC is generational only, since JDK 23)
     */
    static List<RuntimeConfig> gcSweep() {
        return List.of(SHIPPED,
                new RuntimeConfig("ZGC", List.of("-XX:+UseZGC"), CpuPinning.NONE),
                new RuntimeConfig("Parallel", List.of("-XX:+UseParallelGC"), CpuPinning.NONE),
                new RuntimeConfig("Serial", List.of("-XX:+UseSerialGC"), CpuPinning.NONE));
    }

    /** @return {@code base} alone, then with each toggle on its own: compact headers, pre-touch, engine pinning. */
    static List<RuntimeConfig> toggles(final RuntimeConfig base) {
        return List.of(base,
                base.with("+compact headers", "-XX:+UseCompactObjectHeaders"),
                base.with("+AlwaysPreTouch", "-XX:+AlwaysPreTouch"),
                new RuntimeConfig(base.name + " +pinned engine", base.jvm, PIN_CPU));
    }

    private RuntimeConfig with(final String suffix, final String flag) {
        final List<String> flags = new ArrayList<>(jvm);
        flags.add(flag);
        return new RuntimeConfig(name + " " + suffix, List.copyOf(flags), engineCpu);
    }

    /** @return true if this configuration pins the engine thread. */
    boolean pinsEngine() {
        return engineCpu != CpuPinning.NONE;
    }
}
