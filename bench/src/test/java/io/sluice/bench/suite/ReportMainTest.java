package io.sluice.bench.suite;

import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.RunEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice bench report} after a partial {@code bench all --only journal-hop}: RESULTS.md still has a section
 * for every registered scenario, each with the date of the runs it shows, whether they came from that suite run,
 * from an older stamped file, from a {@code -latest} copy alone, or from nowhere.
 */
class ReportMainTest {
    @TempDir
    Path tmp;

    private static void result(final Path dir, final String file, final String scenario, final String date)
            throws IOException {
        Files.writeString(dir.resolve(file), BenchResult.of(scenario).put("date", date).put("figure", 1.0).toJson());
    }

    @Test
    void aPartialSuiteRunKeepsEveryOtherScenarioWithItsDate() throws IOException {
        final Path results = Files.createDirectories(tmp.resolve("results"));
        result(results, "journal-hop-20260105-100000.json", "journal-hop", "2026-01-05T10:00:00Z");
        // a stamped file newer than the scenario's -latest copy: the newest dated file wins
        result(results, "engine-throughput-20260103-120000.json", "engine-throughput", "2026-01-03T12:00:00Z");
        result(results, "engine-throughput-latest.json", "engine-throughput", "2026-01-01T08:00:00Z");
        // only a -latest copy left
        result(results, "warm-up-latest.json", "warm-up", "2025-12-30T09:15:00Z");
        final RunEnvironment environment = new RunEnvironment("2026-01-05T10:00:00Z", "quick", 1, "Test CPU", 2, 1024,
                0.5, 0.5, "Test JDK", "Linux", List.of(), "abc", 60);
        final RunRecord onlyRun = new RunRecord("journal-hop", 1, List.of(), 0, false, 60,
                List.of("journal-hop-20260105-100000.json"), "logs/journal-hop-1.log");
        Files.writeString(results.resolve(ResultFiles.SUITE + "-latest.json"), BenchResult.of(ResultFiles.SUITE)
                .put("environment", environment.toResult()).put("runs", List.of(onlyRun.toResult())).toJson());
        final Path output = tmp.resolve("RESULTS.md");

        final int exit = new CommandLine(new ReportMain()).execute("--results", results.toString(),
                "--output", output.toString());

        assertEquals(0, exit);
        final String md = Files.readString(output);
        final Map<String, String> runOn = Map.of("journal-hop", "2026-01-05 10:00", "engine-throughput",
                "2026-01-03 12:00", "warm-up", "2025-12-30 09:15");
        for (final BenchScenario scenario : BenchScenarios.ALL) {
            final String name = scenario.name();
            final String date = runOn.getOrDefault(name, "none");
            final String section = section(md, name);
            assertTrue(section.contains("- **Run on (UTC):** " + date + "\n"), name + " is dated " + date + ": " + section);
            assertTrue(md.contains("| [" + name + "](#" + name + ") | " + (runOn.containsKey(name) ? 1 : 0) + " | " + date
                    + " |"), name + " in the index with its date: " + md);
        }
        assertTrue(section(md, "engine-throughput").contains(
                "not run by this bench all: its newest earlier result, `engine-throughput-20260103-120000.json`"), md);
        assertTrue(section(md, "burst").contains("No results."), md);
        assertFalse(section(md, "journal-hop").contains("**Problem:**"), "the suite's own run needs no note: " + md);
    }

    private static String section(final String md, final String scenario) {
        final int start = md.indexOf("\n## " + scenario + "\n");
        assertTrue(start >= 0, "a section for " + scenario + " in:\n" + md);
        final int next = md.indexOf("\n## ", start + 1);
        return md.substring(start, next < 0 ? md.length() : next);
    }
}
