package io.sluice.systemtests.script;

import io.sluice.testkit.fix.QuickFixDefinition;
import io.sluice.testkit.fix.QuickFixDefinitionRunner;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * QuickFIX/J's own server acceptance definitions ({@code .def} files, e.g. its FIX 4.4 set), played against a real
 * engine process and a real gateway process over TCP, judged as QuickFIX/J's suite judges them
 * ({@link QuickFixDefinitionRunner}). The gateway is set up as QuickFIX/J's acceptance server is: ResetOnDisconnect,
 * user-defined fields validated. Each definition gets a session of its own (T0, T1, ... for TW), so that one case
 * never waits for the gateway to notice that the previous one's client has gone.
 * <p>
 * The definitions are QuickFIX/J's test resources, published in no artifact of its, so this runs only when given
 * their directory: {@code -Dsluice.quickfixj.definitions=.../quickfix/test/acceptance/definitions/server/fix44}.
 * Definitions that expect an application message back (QuickFIX/J's test application echoes orders) test that
 * application, not the session layer: they are skipped. The last line printed counts the others that passed.
 */
@EnabledIfSystemProperty(named = QuickFixDefinitionsTest.DEFINITIONS, matches = ".+")
class QuickFixDefinitionsTest {
    static final String DEFINITIONS = "sluice.quickfixj.definitions";
    private static final String PASSWORD = "pw";
    private static final String COMP_ID_CHARACTERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    @TempDir
    static Path dir;

    private static List<QuickFixDefinition> definitions;
    private static final Map<String, String> outcomes = new TreeMap<>();
    private static ScriptedDeployment deployment;

    @BeforeAll
    static void startEngineAndGateway() throws Exception {
        final Path source = Path.of(System.getProperty(DEFINITIONS));
        final List<Path> files;
        try (Stream<Path> listed = Files.list(source)) {
            files = listed.filter(file -> file.toString().endsWith(".def")).sorted().toList();
        }
        assertFalse(files.isEmpty(), () -> "no .def files in " + source);
        definitions = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            definitions.add(QuickFixDefinition.read(files.get(i), compId(i)));
        }
        deployment = ScriptedDeployment.start(dir, "validation: { validateUserDefinedFields: true },",
                IntStream.range(0, files.size()).mapToObj(i -> ("    !Session { senderCompId: %s, targetCompId: ISLD,"
                        + " password: %s, resetOnDisconnect: true }").formatted(compId(i), PASSWORD))
                        .collect(Collectors.joining(",\n")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (deployment != null) {
            deployment.close();
        }
        if (!outcomes.isEmpty()) {
            outcomes.forEach((name, outcome) -> System.out.println("  " + name + ": " + outcome));
            final long passed = outcomes.values().stream().filter("passed"::equals).count();
            System.out.println("QuickFIX/J definitions: " + passed + " of " + outcomes.size()
                    + " application-independent passed");
        }
    }

    @TestFactory
    Stream<DynamicTest> everyDefinition() {
        return definitions.stream().map(definition -> DynamicTest.dynamicTest(definition.name(), () -> {
            Assumptions.assumeFalse(definition.expectsApplicationReplies(),
                    "expects QuickFIX/J's test application to echo an order");
            try {
                new QuickFixDefinitionRunner(deployment.gateway().address(), PASSWORD, SystemEpochClock.INSTANCE).run(definition);
                outcomes.put(definition.name(), "passed");
            } catch (final AssertionError failed) {
                outcomes.put(definition.name(), "FAILED " + failed.getMessage().replace("\n", " "));
                throw new AssertionError(failed.getMessage() + "\n  gateway log: " + deployment.gatewayLog(),
                        failed);
            }
        }));
    }

    /** @return the SenderCompID the {@code index}th definition logs on with, in place of TW (two characters too). */
    private static String compId(final int index) {
        return "" + "TUVXYZ".charAt(index / COMP_ID_CHARACTERS.length()) + COMP_ID_CHARACTERS.charAt(index % COMP_ID_CHARACTERS.length());
    }
}
