package io.sluice.bench.runtime;

import io.sluice.runtime.process.JavaProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDK 25 AOT caches of the engine and the gateway (JEP 483 class loading and linking, JEP 515 method profiles).
 * They are created the JEP 514 way: a training run started with the "record" flags of {@code aot.options} (the file
 * next to jvm.options that {@code ./sluice} reads too) drives real orders through both processes; when each exits, its
 * JVM assembles the cache in a child JVM. Production runs start with the "use" flags and
 * {@code -Xlog:aot}, whose "Opened AOT cache" line in the process's log proves the cache was mapped (without it
 * the JVM runs on, without the cache). The cache only fits the same JDK, the same jars and compatible flags,
 * hence one per role, trained on the benchmark's own class path. The recovery benchmark uses its flags for the
 * engine's restart with and without a cache.
 */
public record AotCache(Path engine, Path gateway) {
    private static final String OPTIONS_FILE = "aot.options";

    /** @return the caches under {@code dir} (not yet trained). */
    static AotCache in(final Path dir) {
        return new AotCache(dir.resolve("engine.aot"), dir.resolve("gateway.aot"));
    }

    /** @return the flags that make a training run write {@code cache} when the JVM exits. */
    public static List<String> trainingFlags(final Path cache) {
        return flags("record", cache);
    }

    /** @return the flags that make a production run use {@code cache} and log whether it could. */
    public static List<String> productionFlags(final Path cache) {
        final List<String> flags = new ArrayList<>(flags("use", cache));
        flags.add("-Xlog:aot");
        return List.copyOf(flags);
    }

    /** @return true once both caches exist (the training run's JVMs have written them). */
    boolean trained() {
        return Files.isRegularFile(engine) && Files.isRegularFile(gateway);
    }

    /** @return true if a process's output says its JVM opened {@code cache}. */
    public static boolean opened(final String log, final Path cache) {
        return log.contains("Opened AOT cache " + cache.toAbsolutePath());
    }

    /** @return the flags of {@code aot.options} for {@code mode} ("record" or "use"), {@code {cache}} filled in */
    private static List<String> flags(final String mode, final Path cache) {
        final Path file = JavaProcess.jvmOptionsFile().resolveSibling(OPTIONS_FILE);
        final List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read the AOT flags in " + file, e);
        }
        final List<String> flags = new ArrayList<>();
        for (final String line : lines) {
            final String[] words = line.strip().split("\\s+", 2);
            if (words.length == 2 && words[0].equals(mode)) {
                flags.add(words[1].replace("{cache}", cache.toAbsolutePath().toString()));
            }
        }
        if (flags.isEmpty()) {
            throw new IllegalStateException(file + " has no '" + mode + "' flags");
        }
        return List.copyOf(flags);
    }
}
