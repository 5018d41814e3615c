package io.sluice.bench.report;

import io.sluice.tools.tail.PercentilePlot;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Renders RESULTS.md from benchmark JSON alone. First the environment the runs had, then per scenario what it
 * measures and compares, its headline figures and every comparison with a peer or baseline (both absolute
 * figures and the ratio, each as median with the min – max across the repeated runs), a latency table, and
 * PNG charts (latency by percentile, all runs' histograms added together; rates over time, one line per run),
 * with every figure of the JSON in a folded table at the end. Runs nothing; writes the charts it links.
 */
public final class ResultsReport {
    /** The key of the list of chart files a scenario drew itself into the results directory. */
    public static final String CHARTS_KEY = "charts";
    private static final String[] LATENCY_COLUMNS = {"p50Us", "p90Us", "p99Us", "p99_9Us", "p99_99Us", "maxUs"};
    private static final String[] LATENCY_HEADINGS = {"p50", "p90", "p99", "p99.9", "p99.99", "max"};

    private final Path chartsDir;
    private final String chartsLink;
    private final Path resultsDir;
    private final StringBuilder md = new StringBuilder();

    /**
     * @param chartsDir  where the PNG charts go (created if missing)
     * @param chartsLink how RESULTS.md refers to that directory, e.g. {@code charts}
     * @param resultsDir where the result JSON and the charts scenarios draw themselves are
     */
    public ResultsReport(final Path chartsDir, final String chartsLink, final Path resultsDir) {
        this.chartsDir = chartsDir;
        this.chartsLink = chartsLink;
        this.resultsDir = resultsDir;
    }

    /** @return the markdown for {@code scenarios} measured in {@code environment}; charts are written as a side effect */
    public String render(final RunEnvironment environment, final List<ScenarioResults> scenarios) {
        md.setLength(0);
        try {
            Files.createDirectories(chartsDir);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create " + chartsDir, e);
        }
        md.append("# Sluice benchmark results\n\n");
        md.append("Rendered by `./sluice bench report` from the JSON under `bench/results/`; `./sluice bench all` runs")
                .append(" every scenario and renders this file. How to read it: [README](README.md).\n\n");
        environment(environment);
        md.append("| scenario | runs | run on (UTC) | what it measures |\n|---|---|---|---|\n");
        for (final ScenarioResults scenario : scenarios) {
            md.append("| [").append(scenario.name()).append("](#").append(scenario.name()).append(") | ")
                    .append(scenario.runs().size()).append(" | ").append(dates(scenario.runs())).append(" | ")
                    .append(cell(scenario.description())).append(" |\n");
        }
        for (final ScenarioResults scenario : scenarios) {
            scenario(scenario);
        }
        return md.toString();
    }

    private void environment(final RunEnvironment env) {
        md.append("| | |\n|---|---|\n");
        row("date", env.date());
        row("git commit", "`" + env.gitCommit() + "`");
        row("profile", env.wallSeconds() > 0
                ? env.profile() + ", each scenario run " + env.repeats() + " times, each run a fresh JVM" : env.profile());
        row("machine", env.cpuModel() + ", " + env.cores() + " cores, " + ValueText.plain((double) env.memoryMegabytes())
                + " MiB memory");
        row("load average (1 min)", "at start " + ValueText.number(env.loadAverageStart()) + ", at end "
                + ValueText.number(env.loadAverageEnd()));
        row("JDK", env.jdk());
        row("OS", env.os());
        if (env.wallSeconds() > 0) {
            row("wall time", String.format(Locale.ROOT, "%.1f min", env.wallSeconds() / 60));
        }
        row("JVM flags (jvm.options)", env.jvmOptions().isEmpty() ? "unknown"
                : "`" + String.join("` `", env.jvmOptions()) + "`");
        md.append('\n');
    }

    private void scenario(final ScenarioResults scenario) {
        final List<Map<String, Object>> runs = scenario.runs();
        md.append("\n## ").append(scenario.name()).append("\n\n");
        md.append(scenario.description()).append(".\n\n");
        md.append("- **Compared with:** ").append(scenario.comparison()).append('\n');
        md.append("- **Target:** ").append(scenario.target()).append('\n');
        md.append("- **Runs:** ").append(runs.size());
        if (!scenario.sources().isEmpty()) {
            md.append(" (`").append(String.join("`, `", scenario.sources())).append("`)");
        }
        md.append('\n');
        md.append("- **Run on (UTC):** ").append(dates(runs)).append('\n');
        for (final String problem : scenario.problems()) {
            md.append("- **Problem:** ").append(problem).append('\n');
        }
        if (runs.isEmpty()) {
            md.append("\nNo results.\n");
            return;
        }
        final Map<String, String> settings = ResultTree.settings(runs.getFirst());
        if (!settings.isEmpty()) {
            md.append("- **Settings (first run):** ");
            final List<String> pairs = new ArrayList<>();
            settings.forEach((key, value) -> pairs.add(key + " = " + value));
            md.append(cell(String.join("; ", pairs))).append('\n');
        }
        md.append("\nFigures are the median of the runs with (min – max) beside it.\n");
        headline(scenario);
        comparisons(scenario);
        final Map<String, List<Map<?, ?>>> latencies = latencies(scenario);
        latencyTable(latencies);
        latencyChart(scenario.name(), runs.size(), latencies);
        throughputChart(scenario.name(), runs);
        scenarioCharts(scenario.name(), runs.getLast());
        allFigures(runs);
    }

    private void headline(final ScenarioResults scenario) {
        if (scenario.spec().headline().isEmpty()) {
            return;
        }
        md.append("\n| headline | median (min – max) | runs |\n|---|---|---|\n");
        for (final ReportSpec.Figure figure : scenario.spec().headline()) {
            final Spread spread = spread(scenario.runs(), figure.path()::number);
            if (spread.count() > 0) {
                md.append("| ").append(cell(figure.label())).append(" | ").append(spread.text()).append(" | ")
                        .append(spread.count()).append(" |\n");
            }
        }
    }

    private void comparisons(final ScenarioResults scenario) {
        if (scenario.spec().comparisons().isEmpty()) {
            return;
        }
        md.append("\n| comparison | subject | baseline | ratio subject ÷ baseline |\n|---|---|---|---|\n");
        for (final ReportSpec.Comparison comparison : scenario.spec().comparisons()) {
            final Spread subject = spread(scenario.runs(), comparison.subjectPath()::number);
            final Spread baseline = spread(scenario.runs(), comparison.baselinePath()::number);
            if (subject.count() == 0 && baseline.count() == 0) {
                continue;
            }
            final Spread ratio = spread(scenario.runs(), run -> {
                final Double a = comparison.subjectPath().number(run);
                final Double b = comparison.baselinePath().number(run);
                return a == null || b == null || b == 0 ? null : a / b;
            });
            md.append("| ").append(cell(comparison.label())).append(" | ").append(cell(comparison.subject()))
                    .append(": ").append(subject.text()).append(" | ").append(cell(comparison.baseline())).append(": ")
                    .append(baseline.text()).append(" | **").append(ratio.text()).append("** |\n");
        }
    }

    /** @return per latency label, that section in each run that has it */
    private static Map<String, List<Map<?, ?>>> latencies(final ScenarioResults scenario) {
        final Map<String, List<Map<?, ?>>> latencies = new LinkedHashMap<>();
        for (final Map<String, Object> run : scenario.runs()) {
            if (scenario.spec().latencies().isEmpty()) {
                ResultTree.latencies(run).forEach((path, section) ->
                        latencies.computeIfAbsent(path, key -> new ArrayList<>()).add(section));
            } else {
                for (final ReportSpec.Figure figure : scenario.spec().latencies()) {
                    if (figure.path().find(run) instanceof Map<?, ?> section && ResultTree.isLatency(section)) {
                        latencies.computeIfAbsent(figure.label(), key -> new ArrayList<>()).add(section);
                    }
                }
            }
        }
        return latencies;
    }

    private void latencyTable(final Map<String, List<Map<?, ?>>> latencies) {
        if (latencies.isEmpty()) {
            return;
        }
        md.append("\n| latency (µs) | count |");
        for (final String heading : LATENCY_HEADINGS) {
            md.append(' ').append(heading).append(" |");
        }
        md.append("\n|---|---|").append("---|".repeat(LATENCY_HEADINGS.length)).append('\n');
        latencies.forEach((label, sections) -> {
            md.append("| ").append(cell(label)).append(" | ").append(spread(sections, section -> number(section, "count")).text());
            for (final String column : LATENCY_COLUMNS) {
                md.append(" | ").append(spread(sections, section -> number(section, column)).text());
            }
            md.append(" |\n");
        });
    }

    private void latencyChart(final String scenario, final int runs, final Map<String, List<Map<?, ?>>> latencies) {
        final List<String> labels = new ArrayList<>();
        final List<Histogram> histograms = new ArrayList<>();
        latencies.forEach((label, sections) -> {
            final Histogram sum = new Histogram(3);
            for (final Map<?, ?> section : sections) {
                if (section.get(BenchResult.HISTOGRAM_KEY) instanceof String encoded) {
                    sum.add(BenchResult.decode(encoded));
                }
            }
            if (sum.getTotalCount() > 0) {
                labels.add(label);
                histograms.add(sum);
            }
        });
        if (histograms.isEmpty()) {
            return;
        }
        final String file = scenario + "-latency.png";
        PercentilePlot.write(chartsDir.resolve(file), scenario + ": latency by percentile (" + runs
                + (runs == 1 ? " run)" : " runs added together)"), labels, histograms);
        md.append("\n![").append(scenario).append(" latency by percentile](").append(chartsLink).append('/')
                .append(file).append(")\n");
    }

    private void throughputChart(final String scenario, final List<Map<String, Object>> runs) {
        final List<ThroughputPlot.Line> lines = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            final int run = i + 1;
            ResultTree.series(runs.get(i)).forEach((path, section) -> lines.add(new ThroughputPlot.Line(
                    path + ", run " + run, number(section, "intervalSeconds") > 0 ? number(section, "intervalSeconds") : 1,
                    ResultTree.seriesValues(section))));
        }
        if (lines.isEmpty()) {
            return;
        }
        final String file = scenario + "-throughput.png";
        ThroughputPlot.write(chartsDir.resolve(file), scenario + ": rate over time", "per second", lines);
        md.append("\n![").append(scenario).append(" rate over time](").append(chartsLink).append('/').append(file)
                .append(")\n");
    }

    /**
     * Charts a scenario draws itself, named in its JSON's {@code charts} list (e.g. warm-up's curves, medians
     * over its own runs): those of its newest run, copied from the results directory beside the others.
     */
    private void scenarioCharts(final String scenario, final Map<String, Object> newestRun) {
        if (!(newestRun.get(CHARTS_KEY) instanceof List<?> files)) {
            return;
        }
        for (final Object name : files) {
            final Path source = resultsDir.resolve(String.valueOf(name)).normalize();
            if (!source.startsWith(resultsDir.normalize()) || !Files.isRegularFile(source)) {
                md.append("\n(").append(scenario).append(" names the chart `").append(name)
                        .append("`, which is not in ").append(resultsDir).append(")\n");
                continue;
            }
            final String file = source.getFileName().toString();
            try {
                Files.copy(source, chartsDir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot copy " + source + " to " + chartsDir, e);
            }
            md.append("\n![").append(scenario).append(' ').append(file).append("](").append(chartsLink).append('/')
                    .append(file).append(")\n");
        }
    }

    private void allFigures(final List<Map<String, Object>> runs) {
        final Map<String, List<Double>> figures = new LinkedHashMap<>();
        for (final Map<String, Object> run : runs) {
            ResultTree.numbers(run).keySet().forEach(path -> figures.putIfAbsent(path, new ArrayList<>()));
        }
        md.append("\n<details><summary>Every figure in the JSON</summary>\n\n| figure | median (min – max) | runs |\n|---|---|---|\n");
        for (final String path : figures.keySet()) {
            final ResultPath resultPath = ResultPath.of(path);
            final Spread spread = spread(runs, resultPath::number);
            md.append("| ").append(cell(path)).append(" | ").append(spread.text()).append(" | ").append(spread.count())
                    .append(" |\n");
        }
        md.append("\n</details>\n");
    }

    /**
     * @return when {@code runs} ran, from their {@code date}s, to the minute: one time, or the first and the last
     *         (its time only if on the same day); "none" without runs. A report may mix runs of different days:
     *         every scenario says its own.
     */
    private static String dates(final List<Map<String, Object>> runs) {
        final List<String> dates = new ArrayList<>();
        for (final Map<String, Object> run : runs) {
            if (run.get("date") instanceof String date && date.length() >= 16) {
                dates.add(date.substring(0, 16).replace('T', ' '));
            }
        }
        if (dates.isEmpty()) {
            return runs.isEmpty() ? "none" : "unknown";
        }
        final String first = dates.stream().min(String::compareTo).orElseThrow();
        final String last = dates.stream().max(String::compareTo).orElseThrow();
        return first.equals(last) ? first
                : first + " – " + (first.regionMatches(0, last, 0, 10) ? last.substring(11) : last);
    }

    private static <T> Spread spread(final List<T> runs, final Function<T, Double> figure) {
        final List<Double> values = new ArrayList<>();
        for (final T run : runs) {
            values.add(figure.apply(run));
        }
        return Spread.of(values);
    }

    private static double number(final Map<?, ?> section, final String key) {
        return section.get(key) instanceof Double value ? value : Double.NaN;
    }

    private void row(final String name, final String value) {
        md.append("| ").append(name).append(" | ").append(cell(value)).append(" |\n");
    }

    private static String cell(final String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
