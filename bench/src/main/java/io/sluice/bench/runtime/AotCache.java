package io.sluice.bench.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The JDK 25 AOT caches of the engine and the gateway (JEP 483 class loading and linking, JEP 515 method
 * profiles, created the JEP 514 way): a training run started with {@code -XX:AOTCacheOutput=<file>} drives real
 * orders through both processes; when each exits, its JVM assembles the cache in a child JVM. Production runs
 * start with {@code -XX:AOTCache=<file>} and {@code -Xlog:aot}, whose "Opened AOT cache" line in the process's
 * log proves the cache was mapped (without it the JVM runs on silently, without the cache). The cache only
 * fits the same JDK, the same jars and compatible flags, hence one per role, trained on the benchmark's own
 * class path.
 */
record AotCache(Path engine, Path gateway) {
    /** @return the caches under {@code dir} (not yet trained). */
    static AotCache in(final Path dir) {
        return new AotCache(dir.resolve("engine.aot"), dir.resolve("gateway.aot"));
    }

    /** @return the flag that makes a training run write {@code cache} when the JVM exits. */
    static List<String> trainingFlags(final Path cache) {
        return List.of("-XX:AOTCacheOutput=" + cache.toAbsolutePath());
    }

    /** @return the flags that make a production run use {@code cache} and log whether it could. */
    static List<String> productionFlags(final Path cache) {
        return List.of("-XX:AOTCache=" + cache.toAbsolutePath(), "-Xlog:aot");
    }

    /** @return true once both caches exist (the training run's JVMs have written them). */
    boolean trained() {
        return Files.isRegularFile(engine) && Files.isRegularFile(gateway);
    }

    /** @return true if a process's output says its JVM opened {@code cache}. */
    static boolean opened(final String log, final Path cache) {
        return log.contains("Opened AOT cache " + cache.toAbsolutePath());
    }
}
