package io.sluice.tools.demo;

import io.sluice.runtime.process.JavaProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The class path {@code ./sluice} runs a role of another module of this checkout with: {@code MODULE/target/classes}
 * and the dependencies listed in {@code MODULE/target/classpath.txt} (both written by {@code ./mvnw package}, which
 * {@code ./sluice} runs when anything is stale). The demo's {@code --replicate} starts the Kafka broker, the shipper,
 * the receiver and the shadow engine this way: the tools module cannot depend on the replication module (whose
 * tests depend on tools), and the broker's Scala jars stay off the tools' class path. The checkout is the directory of
 * {@code jvm.options}, which the launcher and the Maven build name in {@link JavaProcess#JVM_OPTIONS_PROPERTY}.
 */
record ModuleClassPath(String module, String classPath) {

    /** @throws IllegalStateException naming what to build when the module is not built */
    static ModuleClassPath of(final String module) {
        final Path dir = JavaProcess.jvmOptionsFile().getParent().resolve(module);
        final Path classes = dir.resolve("target/classes");
        final Path dependencies = dir.resolve("target/classpath.txt");
        if (!Files.isDirectory(classes) || !Files.isRegularFile(dependencies)) {
            throw new IllegalStateException("the " + module + " module is not built (" + dependencies + " is missing):"
                    + " run ./mvnw -q package -DskipTests, or ./sluice, which builds what is stale");
        }
        try {
            return new ModuleClassPath(module, classes + java.io.File.pathSeparator + Files.readString(dependencies).strip());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + dependencies, e);
        }
    }
}
