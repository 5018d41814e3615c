package io.sluice.engine.scenario;

import io.sluice.engine.config.EngineConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Runs every scenario in {@code src/test/resources/scenarios/} (one rule or awkward case per file, see
 * {@link Scenario}) through a fresh engine configured by {@code scenario-engine.yaml}, and every one in
 * {@code risk-scenarios/} through one configured by {@code scenario-risk-engine.yaml} (firm limits), and compares the
 * reports, as text, with the file's expected reports. That config has {@code idKey: counters}, so that OrderIDs and
 * ExecIDs read as counts; a scenario with a line {@code # idKey: KEY} runs with that key.
 * <p>
 * After a deliberate behaviour change, {@code -Dsluice.scenarios.regenerate=true} rewrites the expected
 * reports of every scenario in the source tree from what the engine now writes: review the diff.
 */
final class EngineScenarioTest {
    private static final String REGENERATE = "sluice.scenarios.regenerate";
    /** A scenario's line {@code # idKey: KEY} runs it with that key instead of the config's (counters: ids as counts). */
    private static final Pattern ID_KEY = Pattern.compile("(?m)^# idKey: (.+)$");

    static Stream<Path> scenarios() throws IOException, URISyntaxException {
        return scenariosIn("/scenarios");
    }

    /** The firm-limit scenarios, run against {@code scenario-risk-engine.yaml}. */
    static Stream<Path> riskScenarios() throws IOException, URISyntaxException {
        return scenariosIn("/risk-scenarios");
    }

    private static Stream<Path> scenariosIn(final String resource) throws IOException, URISyntaxException {
        final Path dir = Path.of(EngineScenarioTest.class.getResource(resource).toURI());
        try (Stream<Path> files = Files.list(dir)) {
            final List<Path> sorted = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
            assertFalse(sorted.isEmpty(), "no scenarios in " + dir);
            return sorted.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void engineWritesTheExpectedReports(final Path file) throws Exception {
        run(file, "/scenario-engine.yaml", "scenarios");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("riskScenarios")
    void engineHoldsFirmsToTheirLimits(final Path file) throws Exception {
        run(file, "/scenario-risk-engine.yaml", "risk-scenarios");
    }

    private static void run(final Path file, final String configResource, final String directory) throws Exception {
        final EngineConfig config = EngineConfig.load(
                Path.of(EngineScenarioTest.class.getResource(configResource).toURI()));
        final String text = Files.readString(file);
        final Matcher idKey = ID_KEY.matcher(text);
        if (idKey.find()) {
            config.idKey(idKey.group(1));
        }
        final Scenario scenario = Scenario.parse(text);
        final String actual = scenario.run(config);
        if (Boolean.getBoolean(REGENERATE)) {
            final Path source = Path.of("src/test/resources").resolve(directory).resolve(file.getFileName());
            Files.writeString(source, scenario.withExpected(actual));
            return;
        }
        assertEquals(scenario.expected(), actual, "reports of scenario " + file.getFileName());
    }
}
