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
 * The result files in a results directory, as the report reads them. A scenario's time-stamped JSON files ({@code
 * <scenario>-yyyyMMdd-HHmmss.json}; a {@code -latest} copy only where no stamped file is left), and the suite manifest
 * ({@code suite-latest.json}) that {@code bench all} writes, naming which files each of its runs produced.
 */
public final class ResultFiles {
    /** Name of the suite manifest's scenario; its files are {@code suite-<stamp>.json} and {@code suite-latest.json}. */
    public static final String SUITE = "suite";
    private static final Pattern STAMPED = Pattern.compile(".+-\\d{8}-\\d{6}\\.json");
    private static final String LATEST = "-latest.json";

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

    /**
     * @return the newest {@code count} results of every registered scenario (oldest first), as the report wants them:
     *         its newest stamped files, or its {@code -latest} copy if no stamped file is left
     */
    public static List<ScenarioResults> newest(final Path dir, final int count) {
        final List<String> all = stamped(dir);
        final List<ScenarioResults> results = new ArrayList<>();
        for (final BenchScenario scenario : BenchScenarios.ALL) {
            results.add(load(dir, scenario.name(), newestFiles(dir, all, scenario.name(), count), List.of()));
        }
        return results;
    }

    private static List<String> newestFiles(final Path dir, final List<String> stamped, final String scenario,
                                            final int count) {
        final Pattern own = Pattern.compile(Pattern.quote(scenario) + "-\\d{8}-\\d{6}\\.json");
        final List<String> files = stamped.stream().filter(name -> own.matcher(name).matches()).toList();
        if (files.isEmpty()) {
            final String latest = scenario + LATEST;
            return Files.isRegularFile(dir.resolve(latest)) ? List.of(latest) : List.of();
        }
        return files.subList(Math.max(0, files.size() - count), files.size());
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
     * @return every registered scenario, in the registry's order, then any other the suite ran: its runs in
     *         {@code fromSuite} (the runs of one {@code bench all}, perhaps an {@code --only} one) where it has
     *         results there, else its newest earlier result ({@link #newest}), said so in its problems, else no
     *         results and a problem saying none is in {@code dir}; so a partial run never drops a scenario from
     *         the report, and every section carries the dates of its own runs
     */
    public static List<ScenarioResults> everyScenario(final Path dir, final List<ScenarioResults> fromSuite) {
        final Map<String, ScenarioResults> suite = new LinkedHashMap<>();
        fromSuite.forEach(scenario -> suite.put(scenario.name(), scenario));
        final List<ScenarioResults> results = new ArrayList<>();
        for (final ScenarioResults earlier : newest(dir, 1)) {
            final ScenarioResults ran = suite.remove(earlier.name());
            if (ran != null && !ran.runs().isEmpty()) {
                results.add(ran);
                continue;
            }
            final List<String> problems = new ArrayList<>(ran == null ? List.of() : ran.problems());
            problems.addAll(earlier.problems());
            problems.add(earlier.runs().isEmpty() ? "no result in " + dir
                    : "not run by this bench all: its newest earlier result, `" + String.join("`, `", earlier.sources())
                    + "`");
            results.add(new ScenarioResults(earlier.name(), earlier.description(), earlier.comparison(),
                    earlier.target(), earlier.spec(), earlier.runs(), earlier.sources(), problems));
        }
        results.addAll(suite.values());
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
