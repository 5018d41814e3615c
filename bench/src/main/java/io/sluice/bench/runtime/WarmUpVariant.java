package io.sluice.bench.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * One way of starting the engine and gateway JVMs that the warm-up benchmark compares: the extra JVM flags of
 * each role on top of {@code jvm.options}.
 *
 * @param usesAotCache whether the flags map the trained AOT caches (and the run must prove it did)
 */
record WarmUpVariant(String name, String description, List<String> engineJvm, List<String> gatewayJvm,
                     boolean usesAotCache) {
    /** The names {@link #named} knows. */
    static final List<String> NAMES = List.of("plain", "aot", "cts", "c1", "aot+cts");
    private static final String LOW_THRESHOLDS = "-XX:CompileThresholdScaling=0.1";

    /**
     * @return the variant called {@code name}: plain (jvm.options only), aot (the trained AOT caches), cts
     *         (compile thresholds scaled to 0.1: methods are compiled after a tenth of the usual invocations),
     *         c1 (C1 only, -XX:TieredStopAtLevel=1: quick compiles, no C2 peak) or aot+cts
     */
    static WarmUpVariant named(final String name, final AotCache cache) {
        return switch (name) {
            case "plain" -> new WarmUpVariant(name, "jvm.options only", List.of(), List.of(), false);
            case "aot" -> new WarmUpVariant(name, "AOT cache from a training run (-XX:AOTCache)",
                    AotCache.productionFlags(cache.engine()), AotCache.productionFlags(cache.gateway()), true);
            case "cts" -> new WarmUpVariant(name, LOW_THRESHOLDS, List.of(LOW_THRESHOLDS), List.of(LOW_THRESHOLDS), false);
            case "c1" -> new WarmUpVariant(name, "-XX:TieredStopAtLevel=1 (C1 only)", List.of("-XX:TieredStopAtLevel=1"),
                    List.of("-XX:TieredStopAtLevel=1"), false);
            case "aot+cts" -> new WarmUpVariant(name, "AOT cache and " + LOW_THRESHOLDS,
                    plus(AotCache.productionFlags(cache.engine()), LOW_THRESHOLDS),
                    plus(AotCache.productionFlags(cache.gateway()), LOW_THRESHOLDS), true);
            default -> throw new IllegalArgumentException("unknown warm-up variant '" + name + "'; one of " + NAMES);
        };
    }

    private static List<String> plus(final List<String> flags, final String flag) {
        final List<String> all = new ArrayList<>(flags);
        all.add(flag);
        return List.copyOf(all);
    }
}
