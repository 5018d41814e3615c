package io.sluice.bench.suite;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry and BenchMain agree: every scenario BenchMain dispatches is registered (so {@code bench all} runs
 * it and the report shows it), and every registered scenario is dispatched and listed in the usage text.
 */
class BenchScenariosTest {
    private static final Path BENCH_MAIN = Path.of("src/main/java/io/sluice/bench/BenchMain.java");
    private static final Pattern CASE = Pattern.compile("case\\s+\"([a-z0-9-]+)\"\\s*->");
    private static final Set<String> NOT_SCENARIOS = Set.of("help", "all", "report");

    private static Set<String> benchMainCases() throws IOException {
        final Matcher matcher = CASE.matcher(Files.readString(BENCH_MAIN));
        final Set<String> cases = new TreeSet<>();
        while (matcher.find()) {
            if (!NOT_SCENARIOS.contains(matcher.group(1))) {
                cases.add(matcher.group(1));
            }
        }
        return cases;
    }

    private static Set<String> registered() {
        return new TreeSet<>(BenchScenarios.ALL.stream().map(BenchScenario::name).toList());
    }

    @Test
    void everyScenarioBenchMainDispatchesIsRegistered() throws IOException {
        final Set<String> missing = benchMainCases();
        missing.removeAll(registered());
        assertEquals(Set.of(), missing, "add these to BenchScenarios.ALL (quick and full arguments, report spec)");
    }

    @Test
    void everyRegisteredScenarioIsDispatchedByBenchMainAndInItsUsage() throws IOException {
        final Set<String> notDispatched = registered();
        notDispatched.removeAll(benchMainCases());
        assertEquals(Set.of(), notDispatched, "add a case line to BenchMain for these");
        final String source = Files.readString(BENCH_MAIN);
        for (final String name : registered()) {
            assertTrue(Pattern.compile("^\\s+" + Pattern.quote(name) + "\\s", Pattern.MULTILINE).matcher(source).find(),
                    "BenchMain's usage lists " + name);
        }
    }

    @Test
    void namesAreUniqueAndEveryEntrySaysWhatItComparesAndAims() {
        assertEquals(BenchScenarios.ALL.size(), registered().size(), "no name twice");
        for (final BenchScenario scenario : BenchScenarios.ALL) {
            assertFalse(scenario.description().isBlank(), scenario.name());
            assertFalse(scenario.comparison().isBlank(), scenario.name());
            assertFalse(scenario.target().isBlank(), scenario.name());
            assertFalse(scenario.quickArgs().isEmpty(), scenario.name() + " has a quick profile smaller than the full one");
        }
    }

    @Test
    void theQuickAndFullProfilesPickTheirOwnArguments() {
        final BenchScenario hop = BenchScenarios.find("journal-hop").orElseThrow();
        assertEquals(hop.quickArgs(), hop.args(true));
        assertEquals(List.of(), hop.args(false), "full: the scenario's own defaults");
    }
}
