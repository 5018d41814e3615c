package io.sluice.bench.suite;

import io.sluice.bench.report.ReportSpec;

import java.util.List;

/**
 * One benchmark scenario as the suite knows it, with its name (the {@code ./sluice bench <name>} argument) and how it
 * runs. Its {@link ScenarioLauncher}, which {@code BenchMain} dispatches to, what it measures, what it is compared with
 * and how (same run, A/B interleaved or not), the target the issues set, the arguments of the quick profile and of the
 * full one (empty: the scenario's own defaults, which are the full sizes), and what the report shows of its JSON.
 */
public record BenchScenario(String name, ScenarioLauncher launcher, String description, String comparison, String target,
                            List<String> quickArgs, List<String> fullArgs, ReportSpec report) {
    public BenchScenario {
        quickArgs = List.copyOf(quickArgs);
        fullArgs = List.copyOf(fullArgs);
    }

    /** @return the arguments for the quick or the full profile */
    public List<String> args(final boolean quick) {
        return quick ? quickArgs : fullArgs;
    }
}
