package io.sluice.bench.suite;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one list of scenarios: every entry says how it runs, what it compares and aims at, and the usage text
 * BenchMain prints names each of them.
 */
class BenchScenariosTest {
    private static Set<String> registered() {
        return new TreeSet<>(BenchScenarios.ALL.stream().map(BenchScenario::name).toList());
    }

    @Test
    void theUsageListsEveryScenarioOnceWithWhatItMeasures() {
        final String usage = ScenarioMain.usage();
        for (final BenchScenario scenario : BenchScenarios.ALL) {
            assertTrue(Pattern.compile("^  " + Pattern.quote(scenario.name()) + " ", Pattern.MULTILINE).matcher(usage).find(),
                    "the usage lists " + scenario.name() + ":\n" + usage);
            assertNotNull(scenario.launcher(), scenario.name());
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
