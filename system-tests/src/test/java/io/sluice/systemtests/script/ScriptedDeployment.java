package io.sluice.systemtests.script;

import io.sluice.engine.EngineMain;
import io.sluice.gateway.GatewayMain;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.LoopbackPorts;
import io.sluice.tools.fix.SluiceConfigs;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One engine process and one gateway process on fresh journals, the gateway listening on a free loopback port with
 * the sessions it is given: the deployment that session-level scripts play against, each with a session of its own.
 */
final class ScriptedDeployment implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(180);

    private final Path dir;
    private final FixEndpoint gateway;
    private final JavaProcess engineProcess;
    private final JavaProcess gatewayProcess;

    private ScriptedDeployment(final Path dir, final FixEndpoint gateway, final JavaProcess engineProcess,
                               final JavaProcess gatewayProcess) {
        this.dir = dir;
        this.gateway = gateway;
        this.engineProcess = engineProcess;
        this.gatewayProcess = gatewayProcess;
    }

    /**
     * Starts both and waits until the engine has recovered and the gateway accepts.
     *
     * @param gatewaySettings more keys of the gateway's YAML, each line ending with a comma, or empty
     * @param sessions        the gateway's {@code !Session} entries, one a line, comma-separated
     */
    static ScriptedDeployment start(final Path dir, final String gatewaySettings, final String sessions)
            throws Exception {
        final Path journals = dir.resolve("journals");
        final FixEndpoint gateway = FixEndpoint.tcp("127.0.0.1", LoopbackPorts.free());
        final Path engineConfig = Files.writeString(dir.resolve("engine.yaml"), SluiceConfigs.engine(journals,
                List.of(1), SluiceDeployment.SYMBOL, SluiceIdle.BACKOFF, CpuPinning.NONE));
        final Path gatewayConfig = Files.writeString(dir.resolve("gateway.yaml"), """
                !GatewayConfig {
                  gatewayId: 1,
                  journalRoot: "%s",
                  listen: "tcp://127.0.0.1:%d",
                  idle: backoff,%s
                  sessions: [
                %s
                  ]
                }
                """.formatted(journals, gateway.port(), gatewaySettings.isEmpty() ? "" : "\n  " + gatewaySettings,
                sessions));
        final JavaProcess engine = JavaProcess.start("engine", dir.resolve("engine.log"), List.of("-Xmx256m"),
                EngineMain.class, "--config", engineConfig.toString());
        final JavaProcess gatewayProcess = JavaProcess.start("gateway", dir.resolve("gateway.log"),
                List.of("-Xmx256m"), GatewayMain.class, "--config", gatewayConfig.toString());
        final ScriptedDeployment deployment = new ScriptedDeployment(dir, gateway, engine, gatewayProcess);
        try {
            PollUntil.await(() -> engine.logText().contains("engine: recovered") || !engine.isAlive(), READY,
                    () -> "the engine to recover; its log: " + engine.logText());
            PollUntil.await(() -> !gatewayProcess.isAlive() || gateway.isAccepting(), READY,
                    () -> "the gateway to accept on " + gateway + "; its log: " + gatewayProcess.logText());
            assertTrue(engine.isAlive(), engine::logText);
            assertTrue(gatewayProcess.isAlive(), gatewayProcess::logText);
        } catch (final Throwable failed) {
            deployment.close();
            throw failed;
        }
        return deployment;
    }

    FixEndpoint gateway() {
        return gateway;
    }

    /** @return where the gateway's log is, for a failure to point at */
    Path gatewayLog() {
        return dir.resolve("gateway.log");
    }

    @Override
    public void close() throws Exception {
        gatewayProcess.stop(10);
        engineProcess.stop(10);
    }
}
