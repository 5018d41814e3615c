package io.sluice.bench.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * One way of starting the engine and gateway JVMs that the warm-up benchmark compares: whether their class path
 * holds the Chronicle classes generated at build time, and the extra JVM flags of each role on top of
 * {@code jvm.options}.
 *
 * @param generatedClasses whether the class path holds the build-time Chronicle classes (else Chronicle compiles
 *                         them with javac as the process starts, as before the AOT cache)
 * @param usesAotCache     whether the flags map the trained AOT caches (and the run must prove it did)
 */
record WarmUpVariant(String name, String description, boolean generatedClasses, List<String> engineJvm,
                     List<String> gatewayJvm, boolean usesAotCache) {
    /** The names {@link #named} knows. */
    static final List<String> NAMES = List.of("today", "plain", "aot", "cts", "c1", "aot+cts");
    private static final String LOW_THRESHOLDS = "-XX:CompileThresholdScaling=0.1";

    /**
     * @return the variant called {@code name}: today (the start before the AOT cache: jvm.options only, Chronicle's
     *         classes compiled at start-up), plain (build-time Chronicle classes, jvm.options only), aot (build-time
     *         classes and the trained AOT caches: how ./sluice starts the engine and gateway), cts (compile
     *         thresholds scaled to 0.1: methods are compiled after a tenth of the usual invocations), c1 (C1 only,
     *         -XX:TieredStopAtLevel=1: quick compiles, no C2 peak) or aot+cts
     */
    static WarmUpVariant named(final String name, final AotCache cache) {
        return switch (name) {
            case "today" -> new WarmUpVariant(name, "jvm.options only, Chronicle's classes compiled by javac at start"
                    + " (the start before the AOT cache)", false, List.of(), List.of(), false);
            case "plain" -> new WarmUpVariant(name, "build-time Chronicle classes, jvm.options only", true, List.of(),
                    List.of(), false);
            case "aot" -> new WarmUpVariant(name, "build-time Chronicle classes and the AOT cache from a training run"
                    + " (aot.options): the start ./sluice gives the engine and gateway", true,
                    AotCache.productionFlags(cache.engine()), AotCache.productionFlags(cache.gateway()), true);
            case "cts" -> new WarmUpVariant(name, LOW_THRESHOLDS, true, List.of(LOW_THRESHOLDS), List.of(LOW_THRESHOLDS),
                    false);
            case "c1" -> new WarmUpVariant(name, "-XX:TieredStopAtLevel=1 (C1 only)", true,
                    List.of("-XX:TieredStopAtLevel=1"), List.of("-XX:TieredStopAtLevel=1"), false);
            case "aot+cts" -> new WarmUpVariant(name, "AOT cache and " + LOW_THRESHOLDS, true,
                    plus(AotCache.productionFlags(cache.engine()), LOW_THRESHOLDS),
                    plus(AotCache.productionFlags(cache.gateway()), LOW_THRESHOLDS), true);
            default -> throw new IllegalArgumentException("unknown warm-up variant '" + name + "'; one of " + NAMES);
        };
    }

    /** @return the flags of one role plus {@code extra} */
    static List<String> plus(final List<String> flags, final String extra) {
        final List<String> all = new ArrayList<>(flags);
        all.add(extra);
        return List.copyOf(all);
    }
}
