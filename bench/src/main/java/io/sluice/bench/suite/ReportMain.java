package io.sluice.bench.suite;

import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.MachineProbe;
import io.sluice.bench.report.ResultsReport;
import io.sluice.bench.report.RunEnvironment;
import io.sluice.bench.report.ScenarioResults;
import io.sluice.runtime.process.JavaProcess;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench report}: renders {@code bench/RESULTS.md} and its charts from the JSON already in the
 * results directory, running nothing. Takes the runs of the last {@code bench all} (its manifest,
 * {@code suite-latest.json}) and, for every scenario it has no result for (an {@code --only} run, a failed run),
 * its newest earlier result, dated, so the report always covers every scenario; without a manifest, or with
 * {@code --newest N}, the newest N results of each scenario.
 */
@Command(name = "./sluice bench report", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Render RESULTS.md and its charts from the JSON in the results directory; runs nothing.")
public final class ReportMain implements Callable<Integer> {
    @Option(names = "--results", description = "results directory (default: bench/results)")
    private Path results;

    @Option(names = "--output", description = "the markdown file (default: RESULTS.md beside the results directory)")
    private Path output;

    @Option(names = "--newest", paramLabel = "N",
            description = "use each scenario's newest N result files instead of the last bench all's runs")
    private Integer newest;

    public static void main(final String[] args) {
        final int code = new CommandLine(new ReportMain()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws IOException {
        final Path dir = results == null ? BenchResult.resultsDir() : results;
        final Map<?, ?> manifest = newest == null ? ResultFiles.latestManifest(dir) : null;
        final RunEnvironment environment;
        final List<ScenarioResults> scenarios;
        if (manifest != null) {
            environment = ResultFiles.environment(manifest);
            scenarios = ResultFiles.everyScenario(dir, ResultFiles.fromManifest(dir, ResultFiles.runs(manifest)));
            System.out.println("rendering the runs of the last bench all (" + dir.resolve(ResultFiles.SUITE + "-latest.json")
                    + "), and the newest earlier result of every scenario it has no result for");
        } else {
            final int count = newest == null ? 3 : newest;
            environment = environmentNow("not one bench all run: the newest " + count
                    + " result files of each scenario; load average when rendered", count);
            scenarios = ResultFiles.newest(dir, count);
            System.out.println("rendering the newest " + count + " results of each scenario in " + dir);
        }
        final Path file = write(output == null ? defaultOutput(dir) : output, dir, environment, scenarios);
        System.out.println("wrote " + file.toAbsolutePath());
        return 0;
    }

    /** @return RESULTS.md beside the results directory, e.g. {@code bench/RESULTS.md} */
    static Path defaultOutput(final Path resultsDir) {
        final Path parent = resultsDir.toAbsolutePath().getParent();
        return (parent == null ? Path.of(".") : parent).resolve("RESULTS.md");
    }

    /**
     * Renders the report to {@code output}, its charts into {@code charts/} beside it, with the charts scenarios
     * drew themselves copied there from {@code resultsDir}. @return {@code output}
     */
    static Path write(final Path output, final Path resultsDir, final RunEnvironment environment,
                      final List<ScenarioResults> scenarios) throws IOException {
        final Path parent = output.toAbsolutePath().getParent();
        final String markdown = new ResultsReport(parent.resolve("charts"), "charts", resultsDir).render(environment, scenarios);
        Files.writeString(output, markdown);
        return output;
    }

    /** @return the machine as it is now; load average start and end are both now's */
    static RunEnvironment environmentNow(final String profile, final int repeats) {
        final double load = MachineProbe.loadAverage();
        final String jdk = System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.version");
        final String os = System.getProperty("os.name") + " " + System.getProperty("os.version");
        final List<String> flags = System.getProperty(JavaProcess.JVM_OPTIONS_PROPERTY) == null ? List.of()
                : MachineProbe.jvmOptions(JavaProcess.jvmOptionsFile());
        return new RunEnvironment(Instant.now().toString(), profile, repeats, MachineProbe.cpuModel(),
                Runtime.getRuntime().availableProcessors(), MachineProbe.memoryMegabytes(), load, load, jdk, os, flags,
                MachineProbe.gitCommit(Path.of(".")), 0);
    }
}
