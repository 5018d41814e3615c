package io.sluice.bench.suite;

import io.sluice.bench.report.ReportSpec;
import io.sluice.bench.report.ResultJson;
import io.sluice.bench.report.RunEnvironment;
import io.sluice.bench.report.ScenarioResults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The result files in a results directory, as the report reads them: a scenario's time-stamped JSON files
 * ({@code <scenario>-yyyyMMdd-HHmmss.json}; the {@code -latest} copies are ignored), and the suite manifest
 * ({@code suite-latest.json}) that {@code bench all} writes, naming which files each of its runs produced.
 */
public final class ResultFiles {
    /** Name of the suite manifest's scenario; its files are {@code suite-<stamp>.json} and {@code suite-latest.json}. */
    public static final String SUITE = "suite";
    private static final Pattern STAMPED = Pattern.compile(".+-\\d{8}-\\d{6}\\.json");

    private ResultFiles() {
    }

    /** @return the names of every time-stamped result file in {@code dir} */
    public static List<String> stamped(final Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> STAMPED.matcher(name).matches())
                    .sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** @return the newest {@code count} results of every registered scenario (oldest first), as the report wants them */
    public static List<ScenarioResults> newest(final Path dir, final int count) {
        final List<String> all = stamped(dir);
        final List<ScenarioResults> results = new ArrayList<>();
        for (final BenchScenario scenario : BenchScenarios.ALL) {
            final Pattern own = Pattern.compile(Pattern.quote(scenario.name()) + "-\\d{8}-\\d{6}\\.json");
            final List<String> files = all.stream().filter(name -> own.matcher(name).matches()).toList();
            final List<String> chosen = files.subList(Math.max(0, files.size() - count), files.size());
            results.add(load(dir, scenario.name(), chosen, List.of()));
        }
        return results;
    }

    /** @return the results of the runs a suite manifest lists, grouped by scenario in the order they first ran */
    public static List<ScenarioResults> fromManifest(final Path dir, final List<RunRecord> runs) {
        final Map<String, List<String>> files = new LinkedHashMap<>();
        final Map<String, List<String>> problems = new LinkedHashMap<>();
        for (final RunRecord run : runs) {
            files.computeIfAbsent(run.scenario(), key -> new ArrayList<>()).addAll(run.results());
            problems.computeIfAbsent(run.scenario(), key -> new ArrayList<>());
            if (run.problem() != null) {
                problems.get(run.scenario()).add(run.problem());
            }
        }
        final List<ScenarioResults> results = new ArrayList<>();
        files.forEach((scenario, names) -> results.add(load(dir, scenario, names, problems.get(scenario))));
        return results;
    }

    /**
     * @return {@code fromSuite} (the runs of the last {@code bench all}) with every registered scenario that has
     *         no result there added from its newest {@code count} separate runs, said so in its problems, so that
     *         a scenario run on its own (a long one, or one that failed in the suite) still appears
     */
    public static List<ScenarioResults> withSeparateRuns(final Path dir, final List<ScenarioResults> fromSuite,
                                                         final int count) {
        final List<ScenarioResults> results = new ArrayList<>();
        for (final ScenarioResults suite : fromSuite) {
            if (!suite.runs().isEmpty()) {
                results.add(suite);
            }
        }
        for (final ScenarioResults separate : newest(dir, count)) {
            final boolean inSuite = results.stream().anyMatch(done -> done.name().equals(separate.name()));
            if (!inSuite && !separate.runs().isEmpty()) {
                results.add(new ScenarioResults(separate.name(), separate.description(), separate.comparison(),
                        separate.target(), separate.spec(), separate.runs(), separate.sources(),
                        List.of("not from the last bench all: its newest separate run(s), " + separate.sources())));
            }
        }
        return results;
    }

    /** @return the suite manifest {@code bench all} last wrote in {@code dir}, parsed, or null if there is none */
    public static Map<?, ?> latestManifest(final Path dir) {
        final Path file = dir.resolve(SUITE + "-latest.json");
        return Files.isRegularFile(file) ? ResultJson.read(file) : null;
    }

    /** @return the environment and runs of a parsed manifest */
    public static RunEnvironment environment(final Map<?, ?> manifest) {
        return RunEnvironment.fromJson((Map<?, ?>) manifest.get("environment"));
    }

    /** @return the runs a parsed manifest lists */
    public static List<RunRecord> runs(final Map<?, ?> manifest) {
        final List<RunRecord> runs = new ArrayList<>();
        if (manifest.get("runs") instanceof List<?> list) {
            list.forEach(run -> runs.add(RunRecord.fromJson((Map<?, ?>) run)));
        }
        return runs;
    }

    private static ScenarioResults load(final Path dir, final String name, final List<String> files,
                                        final List<String> problems) {
        final List<Map<String, Object>> runs = new ArrayList<>();
        final List<String> allProblems = new ArrayList<>(problems);
        final List<String> sources = new ArrayList<>();
        for (final String file : files) {
            try {
                runs.add(ResultJson.read(dir.resolve(file)));
                sources.add(file);
            } catch (final RuntimeException e) {
                allProblems.add(file + " cannot be read: " + e.getMessage());
            }
        }
        return BenchScenarios.find(name)
                .map(scenario -> new ScenarioResults(name, scenario.description(), scenario.comparison(),
                        scenario.target(), scenario.report(), runs, sources, allProblems))
                .orElseGet(() -> new ScenarioResults(name, "(not a registered scenario)", "unknown", "unknown",
                        new ReportSpec(), runs, sources, allProblems));
    }
}
