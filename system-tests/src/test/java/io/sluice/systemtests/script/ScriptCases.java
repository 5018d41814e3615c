package io.sluice.systemtests.script;

import io.sluice.testkit.fix.FixScript;
import io.sluice.testkit.fix.FixScriptRunner;
import io.sluice.tools.fix.SluiceDeployment;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A directory of {@code .fix} scripts played as one test each against a {@link ScriptedDeployment}.
 * <p>
 * Every script has a session of its own, named by its SenderCompID, so the cases run in one deployment without
 * disturbing each other; a script's {@code !session} line adds that session's settings.
 */
final class ScriptCases {
    /** The password every script session logs on with. */
    static final String PASSWORD = "pw";

    private ScriptCases() {
    }

    /** @return the scripts of the test resource directory {@code resources}, in file-name order */
    static List<FixScript> read(final String resources) throws IOException, URISyntaxException {
        final List<FixScript> scripts = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(ScriptCases.class.getResource(resources).toURI()))) {
            for (final Path file : files.filter(file -> file.toString().endsWith(".fix")).sorted().toList()) {
                scripts.add(FixScript.read(file));
            }
        }
        return scripts;
    }

    /** @return the gateway YAML's {@code !Session} entries: one per script, with the script's own settings */
    static String sessions(final List<FixScript> scripts) {
        return scripts.stream()
                .map(script -> "    !Session { senderCompId: %s, targetCompId: %s, password: %s%s }".formatted(
                        script.senderCompId(), SluiceDeployment.GATEWAY_COMP_ID, PASSWORD,
                        script.sessionSettings().isEmpty() ? "" : ", " + script.sessionSettings()))
                .collect(Collectors.joining(",\n"));
    }

    /** @return one test per script, each played against the deployment's gateway; a failure shows the gateway's log */
    static Stream<DynamicTest> play(final List<FixScript> scripts, final ScriptedDeployment deployment) {
        // No test source URI (the script's file): surefire's -Dtest filter would drop tests without a class source.
        return scripts.stream().map(script -> DynamicTest.dynamicTest(script.name() + ": " + script.title(), () -> {
            try {
                new FixScriptRunner(deployment.gateway().address(), SystemEpochClock.INSTANCE).run(script);
            } catch (final AssertionError failed) {
                throw new AssertionError(failed.getMessage() + "\n  gateway log: " + deployment.gatewayLog(), failed);
            }
        }));
    }
}
