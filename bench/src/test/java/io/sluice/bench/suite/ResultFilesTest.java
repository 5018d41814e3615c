package io.sluice.bench.suite;

import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.ResultJson;
import io.sluice.bench.report.ScenarioResults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which result files the report takes: the runs of the last bench all, or each scenario's newest files. */
class ResultFilesTest {
    @TempDir
    Path dir;

    private void result(final String file, final double rate) throws IOException {
        Files.writeString(dir.resolve(file), BenchResult.of("engine-throughput").put("commandsPerSecond", rate).toJson());
    }

    @Test
    void newestTakesTheLastNStampedFilesOfEachScenarioAndIgnoresLatestCopies() throws IOException {
        result("engine-throughput-20260101-000001.json", 1);
        result("engine-throughput-20260101-000002.json", 2);
        result("engine-throughput-20260101-000003.json", 3);
        result("engine-throughput-latest.json", 3);

        final ScenarioResults engine = ResultFiles.newest(dir, 2).stream()
                .filter(scenario -> scenario.name().equals("engine-throughput")).findFirst().orElseThrow();

        assertEquals(List.of("engine-throughput-20260101-000002.json", "engine-throughput-20260101-000003.json"), engine.sources());
        assertEquals(List.of(2.0, 3.0), engine.runs().stream().map(run -> run.get("commandsPerSecond")).toList());
    }

    @Test
    void aManifestGroupsItsRunsByScenarioAndReportsTheFailedOnes() throws IOException {
        result("engine-throughput-20260101-000001.json", 1);
        final List<RunRecord> runs = List.of(
                new RunRecord("engine-throughput", 1, List.of("--orders", "5"), 0, false, 1.5,
                        List.of("engine-throughput-20260101-000001.json"), "logs/a.log"),
                new RunRecord("engine-throughput", 2, List.of("--orders", "5"), 3, false, 0.5, List.of(), "logs/b.log"));
        final Map<?, ?> manifest = ResultJson.parse(BenchResult.of(ResultFiles.SUITE)
                .put("runs", runs.stream().map(RunRecord::toResult).toList()).toJson(), "manifest");

        final List<RunRecord> read = ResultFiles.runs(manifest);
        final List<ScenarioResults> scenarios = ResultFiles.fromManifest(dir, read);

        assertEquals(runs, read, "a run record survives the manifest");
        assertEquals(1, scenarios.size());
        assertEquals(1, scenarios.getFirst().runs().size());
        assertEquals(List.of("run 2 exited with 3 (log: logs/b.log)"), scenarios.getFirst().problems());
    }

    @Test
    void everyRegisteredScenarioIsListedOnceInRegistryOrderWhateverTheSuiteRan() throws IOException {
        result("engine-throughput-20260101-000001.json", 1);
        Files.writeString(dir.resolve("replay-20260101-000002.json"), BenchResult.of("replay").put("ratio", 1.2).toJson());
        Files.writeString(dir.resolve("warm-up-latest.json"), BenchResult.of("warm-up").put("x", 1.0).toJson());
        final List<RunRecord> runs = List.of(
                new RunRecord("engine-throughput", 1, List.of(), 0, false, 1.5,
                        List.of("engine-throughput-20260101-000001.json"), "logs/a.log"),
                new RunRecord("replay", 1, List.of(), 2, false, 0.4, List.of(), "logs/b.log"));

        final List<ScenarioResults> scenarios = ResultFiles.everyScenario(dir, ResultFiles.fromManifest(dir, runs));

        assertEquals(BenchScenarios.ALL.stream().map(BenchScenario::name).toList(),
                scenarios.stream().map(ScenarioResults::name).toList());
        final ScenarioResults engine = named(scenarios, "engine-throughput");
        assertEquals(List.of(), engine.problems(), "a suite run stays as it was");
        final ScenarioResults replay = named(scenarios, "replay");
        assertEquals(List.of("replay-20260101-000002.json"), replay.sources());
        assertEquals(List.of("run 1 exited with 2 (log: logs/b.log)",
                "not run by this bench all: its newest earlier result, `replay-20260101-000002.json`"), replay.problems());
        assertEquals(List.of("warm-up-latest.json"), named(scenarios, "warm-up").sources(),
                "the -latest copy where no stamped file is left");
        final ScenarioResults burst = named(scenarios, "burst");
        assertTrue(burst.runs().isEmpty());
        assertEquals(List.of("no result in " + dir), burst.problems());
    }

    private static ScenarioResults named(final List<ScenarioResults> scenarios, final String name) {
        return scenarios.stream().filter(scenario -> scenario.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void noManifestMeansNone() {
        assertNull(ResultFiles.latestManifest(dir));
        assertTrue(ResultFiles.stamped(dir.resolve("absent")).isEmpty());
    }
}
