package io.sluice.systemtests.script;

import io.sluice.testkit.fix.FixScript;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The FIX 4.4 session-level test cases, each a {@link FixScript} in {@code src/test/resources/fix-session-cases}
 * (named by its case number), played against a real engine process and a real gateway process on real journals,
 * over TCP. Every script has a session of its own, so the cases run in one deployment without disturbing each
 * other; a script's {@code !session} line may give that session settings (a reset policy).
 */
class FixSessionCasesTest {
    @TempDir
    static Path dir;

    private static List<FixScript> scripts;
    private static ScriptedDeployment deployment;

    @BeforeAll
    static void startEngineAndGateway() throws Exception {
        scripts = ScriptCases.read("/fix-session-cases");
        deployment = ScriptedDeployment.start(dir, "", ScriptCases.sessions(scripts));
    }

    @AfterAll
    static void stop() throws Exception {
        if (deployment != null) {
            deployment.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return ScriptCases.play(scripts, deployment);
    }
}
