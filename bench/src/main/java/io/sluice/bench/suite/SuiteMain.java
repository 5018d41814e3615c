package io.sluice.bench.suite;

import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.MachineProbe;
import io.sluice.bench.report.RunEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench all}: runs every registered scenario ({@link BenchScenarios}), each run in a fresh child JVM.
 * The whole list runs {@code --repeats} times over (all scenarios once, then again, so a slow spell of the machine
 * falls on every scenario rather than on all runs of one); then it writes the suite manifest and renders RESULTS.md,
 * where a scenario this run left out ({@code --only}) or got no result for keeps its newest earlier result, dated.
 * {@code --quick} uses each scenario's reduced sizes.
 */
@Command(name = "./sluice bench all", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run every scenario, each in a fresh JVM, repeated; then render RESULTS.md with charts.")
public final class SuiteMain implements Callable<Integer> {
    @Option(names = "--quick", description = "reduced sizes (about 15 minutes on 2 cores with 3 repeats)")
    private boolean quick;

    @Option(names = "--repeats", description = "runs of each scenario, at least 1 (default ${DEFAULT-VALUE})")
    private int repeats = 3;

    @Option(names = "--only", split = ",", paramLabel = "SCENARIO", description = "run only these scenarios")
    private List<String> only = List.of();

    @Option(names = "--timeout-minutes", description = "longest one run may take before it is killed (default ${DEFAULT-VALUE})")
    private long timeoutMinutes = 60;

    @Option(names = "--results", description = "results directory (default: bench/results)")
    private Path results;

    @Option(names = "--output", description = "the markdown file (default: RESULTS.md beside the results directory)")
    private Path output;

    public static void main(final String[] args) {
        final int code = new CommandLine(new SuiteMain()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        if (repeats < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--repeats must be at least 1, got " + repeats);
        }
        final List<BenchScenario> scenarios = selected();
        final Path dir = (results == null ? BenchResult.resultsDir() : results).toAbsolutePath();
        final String profile = quick ? "quick" : "full";
        final RunEnvironment start = ReportMain.environmentNow(profile, repeats);
        final ScenarioRunner runner = new ScenarioRunner(dir, dir.resolve("logs"), Duration.ofMinutes(timeoutMinutes),
                System.out);
        final long began = System.nanoTime();
        final List<RunRecord> runs = new ArrayList<>();
        for (int repeat = 1; repeat <= repeats; repeat++) {
            for (final BenchScenario scenario : scenarios) {
                System.out.printf(Locale.ROOT, "%n=== bench all (%s): %s, run %d of %d, %s ===%n", profile,
                        scenario.name(), repeat, repeats, String.join(" ", scenario.args(quick)));
                final RunRecord run = runner.run(scenario, scenario.args(quick), repeat);
                runs.add(run);
                System.out.printf(Locale.ROOT, "=== %s run %d: %s in %.1f s ===%n", scenario.name(), repeat,
                        run.succeeded() ? "done" : run.problem(), run.seconds());
            }
        }
        final RunEnvironment environment = start.finished(MachineProbe.loadAverage(), (System.nanoTime() - began) / 1e9);
        final BenchResult manifest = BenchResult.of(ResultFiles.SUITE).put("environment", environment.toResult());
        manifest.put("runs", runs.stream().map(RunRecord::toResult).toList());
        final Path manifestFile = manifest.write(dir);
        final Path report = ReportMain.write(output == null ? ReportMain.defaultOutput(dir) : output, dir, environment,
                ResultFiles.everyScenario(dir, ResultFiles.fromManifest(dir, runs)));
        summary(runs, environment, manifestFile, report);
        return runs.stream().allMatch(RunRecord::succeeded) ? 0 : 1;
    }

    private List<BenchScenario> selected() {
        for (final String name : only) {
            if (BenchScenarios.find(name).isEmpty()) {
                throw new CommandLine.ParameterException(new CommandLine(this), "no scenario '" + name + "'; known: "
                        + String.join(", ", BenchScenarios.ALL.stream().map(BenchScenario::name).toList()));
            }
        }
        return BenchScenarios.ALL.stream().filter(scenario -> only.isEmpty() || only.contains(scenario.name())).toList();
    }

    private static void summary(final List<RunRecord> runs, final RunEnvironment environment, final Path manifest,
                                final Path report) {
        System.out.printf(Locale.ROOT, "%n%-24s %6s %10s%n", "scenario", "ok", "seconds");
        for (final RunRecord run : runs) {
            System.out.printf(Locale.ROOT, "%-24s %6s %10.1f%s%n", run.scenario() + " #" + run.repeat(),
                    run.succeeded() ? "yes" : "NO", run.seconds(), run.succeeded() ? "" : "  " + run.problem());
        }
        System.out.printf(Locale.ROOT, "%nbench all: %d runs in %.1f min; load average %.2f at start, %.2f at end%n",
                runs.size(), environment.wallSeconds() / 60, environment.loadAverageStart(), environment.loadAverageEnd());
        System.out.println("manifest: " + manifest);
        System.out.println("report:   " + report.toAbsolutePath());
    }
}
