package io.sluice.bench.e2e.script;

import io.sluice.gateway.FixScript;
import io.sluice.gateway.FixScriptRunner;
import io.sluice.tools.fix.SluiceDeployment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The FIX 4.4 session-level test cases, each a {@link FixScript} in {@code src/test/resources/fix-session-cases}
 * (named by its case number), played against a real engine process and a real gateway process on real journals,
 * over TCP. Every script has a session of its own, so the cases run in one deployment without disturbing each
 * other; a script's {@code !session} line may give that session settings (a reset policy).
 */
class FixSessionCasesTest {
    private static final String PASSWORD = "pw";

    @TempDir
    static Path dir;

    private static List<FixScript> scripts;
    private static ScriptedDeployment deployment;

    @BeforeAll
    static void startEngineAndGateway() throws Exception {
        scripts = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(FixSessionCasesTest.class.getResource("/fix-session-cases").toURI()))) {
            for (final Path file : files.filter(file -> file.toString().endsWith(".fix")).sorted().toList()) {
                scripts.add(FixScript.read(file));
            }
        }
        deployment = ScriptedDeployment.start(dir, "", scripts.stream()
                .map(script -> "    !Session { senderCompId: %s, targetCompId: %s, password: %s%s }".formatted(
                        script.senderCompId(), SluiceDeployment.GATEWAY_COMP_ID, PASSWORD,
                        script.sessionSettings().isEmpty() ? "" : ", " + script.sessionSettings()))
                .collect(Collectors.joining(",\n")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (deployment != null) {
            deployment.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        // No test source URI (the script's file): surefire's -Dtest filter would drop tests without a class source.
        return scripts.stream().map(script -> DynamicTest.dynamicTest(script.name() + ": " + script.title(), () -> {
                    try {
                        new FixScriptRunner(deployment.gateway().address()).run(script);
                    } catch (final AssertionError failed) {
                        throw new AssertionError(failed.getMessage() + "\n  gateway log: " + deployment.gatewayLog(),
                                failed);
                    }
                }));
    }
}
