package io.sluice.gateway;

import io.sluice.runtime.process.JavaProcess;

import java.nio.file.Path;
import java.util.List;

import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gateway as a real child process ({@code ./sluice gateway --config ...}), for the tests that kill or refuse it. */
final class GatewayProcess {
    private GatewayProcess() {
    }

    /** Starts {@link GatewayMain} on {@code config}, its log {@code <name>.log} in {@code dir}; does not wait. */
    static JavaProcess start(final Path dir, final String name, final Path config) throws Exception {
        return JavaProcess.start(name, dir.resolve(name + ".log"), List.of("-Xmx256m"), GatewayMain.class,
                "--config", config.toString());
    }

    /** Starts a gateway as {@link #start} does and waits until it listens. */
    static JavaProcess startListening(final Path dir, final String name, final Path config) throws Exception {
        final JavaProcess gateway = start(dir, name, config);
        awaitListening(gateway);
        return gateway;
    }

    /** Waits until {@code gateway} says it listens; fails with its log if it exits instead. */
    static void awaitListening(final JavaProcess gateway) {
        // A cold JVM on a busy 2-core host takes a while to start.
        await(gateway.name() + " is listening (log: " + gateway.log() + ")", 120,
                () -> gateway.logText().contains("listening on") || !gateway.isAlive());
        assertTrue(gateway.isAlive(), gateway::logText);
    }
}
