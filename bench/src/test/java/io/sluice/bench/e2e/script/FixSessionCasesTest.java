package io.sluice.bench.e2e.script;

import io.sluice.engine.EngineMain;
import io.sluice.gateway.FixScript;
import io.sluice.gateway.FixScriptRunner;
import io.sluice.gateway.GatewayMain;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.LoopbackPorts;
import io.sluice.tools.fix.PollUntil;
import io.sluice.tools.fix.SluiceConfigs;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX 4.4 session-level test cases, each a {@link FixScript} in {@code src/test/resources/fix-session-cases}
 * (named by its case number), played against a real engine process and a real gateway process on real journals,
 * over TCP. Every script has a session of its own, so the cases run in one deployment without disturbing each
 * other; a script's {@code !session} line may give that session settings (a reset policy).
 */
class FixSessionCasesTest {
    private static final Duration READY = Duration.ofSeconds(180);
    private static final String PASSWORD = "pw";

    @TempDir
    static Path dir;

    private static List<FixScript> scripts;
    private static FixEndpoint gateway;
    private static JavaProcess engineProcess;
    private static JavaProcess gatewayProcess;

    @BeforeAll
    static void startEngineAndGateway() throws Exception {
        scripts = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(FixSessionCasesTest.class.getResource("/fix-session-cases").toURI()))) {
            for (final Path file : files.filter(file -> file.toString().endsWith(".fix")).sorted().toList()) {
                scripts.add(FixScript.read(file));
            }
        }
        final Path journals = dir.resolve("journals");
        gateway = FixEndpoint.tcp("127.0.0.1", LoopbackPorts.free());
        final Path engineConfig = Files.writeString(dir.resolve("engine.yaml"), SluiceConfigs.engine(journals,
                List.of(1), SluiceDeployment.SYMBOL, SluiceIdle.BACKOFF, CpuPinning.NONE));
        final Path gatewayConfig = Files.writeString(dir.resolve("gateway.yaml"), """
                !GatewayConfig {
                  gatewayId: 1,
                  journalRoot: "%s",
                  listen: "tcp://127.0.0.1:%d",
                  idle: backoff,
                  sessions: [
                %s
                  ]
                }
                """.formatted(journals, gateway.port(), scripts.stream()
                .map(script -> "    !Session { senderCompId: %s, targetCompId: %s, password: %s%s }".formatted(
                        script.senderCompId(), SluiceDeployment.GATEWAY_COMP_ID, PASSWORD,
                        script.sessionSettings().isEmpty() ? "" : ", " + script.sessionSettings()))
                .collect(Collectors.joining(",\n"))));
        engineProcess = JavaProcess.start("engine", dir.resolve("engine.log"), List.of("-Xmx256m"), EngineMain.class,
                "--config", engineConfig.toString());
        gatewayProcess = JavaProcess.start("gateway", dir.resolve("gateway.log"), List.of("-Xmx256m"),
                GatewayMain.class, "--config", gatewayConfig.toString());
        PollUntil.await(() -> engineProcess.logText().contains("engine: recovered") || !engineProcess.isAlive(), READY,
                () -> "the engine to recover; its log: " + engineProcess.logText());
        PollUntil.await(() -> !gatewayProcess.isAlive() || gateway.isAccepting(), READY,
                () -> "the gateway to accept on " + gateway + "; its log: " + gatewayProcess.logText());
        assertTrue(engineProcess.isAlive(), engineProcess::logText);
        assertTrue(gatewayProcess.isAlive(), gatewayProcess::logText);
    }

    @AfterAll
    static void stop() throws Exception {
        if (gatewayProcess != null) {
            gatewayProcess.stop(10);
        }
        if (engineProcess != null) {
            engineProcess.stop(10);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        // No test source URI (the script's file): surefire's -Dtest filter would drop tests without a class source.
        return scripts.stream().map(script -> DynamicTest.dynamicTest(script.name() + ": " + script.title(), () -> {
                    try {
                        new FixScriptRunner(gateway.address()).run(script);
                    } catch (final AssertionError failed) {
                        throw new AssertionError(failed.getMessage() + "\n  gateway log: " + dir.resolve("gateway.log"),
                                failed);
                    }
                }));
    }
}
