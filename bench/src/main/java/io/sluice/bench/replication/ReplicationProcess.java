package io.sluice.bench.replication;

import io.sluice.replication.ReplicateMain;
import io.sluice.runtime.process.JavaProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** One {@code ./sluice replicate} child process of the multi-host scenario, its config written beside its log. */
final class ReplicationProcess {
    private ReplicationProcess() {
    }

    /** Starts {@code ./sluice replicate} (mode ship or receive) on {@code root}, run by {@code launcher} (a namespace). */
    static JavaProcess start(final String name, final List<String> launcher, final Path dir, final String mode,
                             final Path root, final String servers, final String deployment) throws IOException {
        final Path config = dir.resolve("config/" + name + ".yaml");
        Files.createDirectories(config.getParent());
        Files.writeString(config, """
                !ReplicationConfig {
                  mode: %s,
                  deployment: %s,
                  root: "%s",
                  bootstrapServers: "%s",
                  idle: { strategy: backoff },
                  lagReportMillis: 1000
                }
                """.formatted(mode, deployment, root, servers));
        return JavaProcess.start(name, dir.resolve("logs/" + name + ".log"), launcher, System.getProperty("java.class.path"),
                List.of(), ReplicateMain.class.getName(), "--config", config.toString());
    }
}
