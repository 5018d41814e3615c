package io.sluice.bench.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RESULTS.md rendered from fixed JSON: the tables, the ratios, the spread across runs and the charts. */
class ResultsReportTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G'};

    @TempDir
    Path tmp;

    /** Three runs of a scenario comparing a subject with a baseline: subject 200, 300, 250 against 100 each time. */
    private static List<Map<String, Object>> threeRuns() {
        final List<Map<String, Object>> runs = new ArrayList<>();
        final double[] subject = {200, 300, 250};
        for (int i = 0; i < subject.length; i++) {
            final Histogram latency = new Histogram(3);
            for (int value = 1; value <= 10_000; value++) {
                latency.recordValue(value * (i + 1L) * 100);
            }
            final BenchResult result = BenchResult.of("demo").put("mode", "quick")
                    .put("targets", BenchResult.section()
                            .put("Ours TCP", BenchResult.section().put("ordersPerSecond", subject[i]).putLatencyNanos("roundTrip", latency))
                            .put("Theirs TCP", BenchResult.section().put("ordersPerSecond", 100.0).putLatencyNanos("roundTrip", latency)))
                    .put("rows", List.of(BenchResult.section().put("variant", "a").put("targetRate", 0).put("p50Us", 4.0 + i)))
                    .putSeries("ordersOverTime", 1.0, new double[] {10, 20, 30 + i});
            runs.add(parse(result.toJson()));
        }
        return runs;
    }

    private static ReportSpec spec() {
        return new ReportSpec()
                .headline("our orders/s", "targets.Ours TCP.ordersPerSecond")
                .headline("row a p50", "rows[variant=a,targetRate=0].p50Us")
                .compare("orders/s", "Ours TCP", "targets.Ours TCP.ordersPerSecond", "Theirs TCP", "targets.Theirs TCP.ordersPerSecond")
                .latency("ours", "targets.Ours TCP.roundTrip")
                .latency("theirs", "targets.Theirs TCP.roundTrip");
    }

    private static RunEnvironment environment() {
        return new RunEnvironment("2026-11-22T12:00:00Z", "quick", 3, "Test CPU 3000", 2, 4096, 0.5, 1.5,
                "Test JDK 25", "Linux", List.of("-Dflag=one", "--add-opens=x"), "abc123", 90);
    }

    private static Map<String, Object> parse(final String json) {
        return ResultJson.parse(json, "demo.json");
    }

    private String render(final ScenarioResults scenario) {
        return new ResultsReport(tmp.resolve("charts"), "charts", tmp.resolve("results")).render(environment(), List.of(scenario));
    }

    @Test
    void headerNamesMachineLoadJdkFlagsDateAndCommit() {
        final String md = render(new ScenarioResults("demo", "a demo", "ours vs theirs", "2x", spec(), threeRuns(),
                List.of("demo-1.json"), List.of()));

        assertTrue(md.contains("Test CPU 3000, 2 cores, 4,096 MiB memory"), md);
        assertTrue(md.contains("at start 0.500, at end 1.50"), md);
        assertTrue(md.contains("Test JDK 25"), md);
        assertTrue(md.contains("`-Dflag=one` `--add-opens=x`"), md);
        assertTrue(md.contains("2026-11-22T12:00:00Z"), md);
        assertTrue(md.contains("`abc123`"), md);
        assertTrue(md.contains("quick, each scenario run 3 times"), md);
    }

    @Test
    void comparisonShowsBothAbsoluteFiguresAndTheRatioWithTheirSpread() {
        final String md = render(new ScenarioResults("demo", "a demo", "ours vs theirs", "2x", spec(), threeRuns(),
                List.of(), List.of()));

        assertTrue(md.contains("| orders/s | Ours TCP: 250.0 (200.0 – 300.0) | Theirs TCP: 100 | **2.50 (2.00 – 3.00)** |"), md);
    }

    @Test
    void headlineFiguresShowMedianMinMaxAndRunCountAlsoInsideArrays() {
        final String md = render(new ScenarioResults("demo", "a demo", "ours vs theirs", "2x", spec(), threeRuns(),
                List.of(), List.of()));

        assertTrue(md.contains("| our orders/s | 250.0 (200.0 – 300.0) | 3 |"), md);
        assertTrue(md.contains("| row a p50 | 5.00 (4.00 – 6.00) | 3 |"), md);
        assertTrue(md.contains("| targets.Ours TCP.ordersPerSecond | 250.0 (200.0 – 300.0) | 3 |"), "every figure, folded: " + md);
    }

    @Test
    void latencyTableHasARowPerDeclaredSectionWithPercentileSpread() {
        final List<Map<String, Object>> runs = threeRuns();
        final String md = render(new ScenarioResults("demo", "a demo", "ours vs theirs", "2x", spec(), runs,
                List.of(), List.of()));

        // The runs' p50s are about 500, 1000 and 1500 µs: the row shows the middle one with the other two around it.
        final ResultPath p50 = ResultPath.of("targets.Ours TCP.roundTrip.p50Us");
        final Spread expected = Spread.of(runs.stream().map(p50::number).toList());
        assertEquals(1_000, expected.median(), 5);
        final String ours = md.lines().filter(line -> line.startsWith("| ours |")).findFirst().orElseThrow();
        assertTrue(ours.startsWith("| ours | 10,000 | " + expected.text() + " |"), ours);
        assertTrue(md.lines().anyMatch(line -> line.startsWith("| theirs |")), md);
    }

    @Test
    void drawsLatencyAndThroughputChartsAsNonEmptyPngsAndLinksThem() throws IOException {
        final String md = render(new ScenarioResults("demo", "a demo", "ours vs theirs", "2x", spec(), threeRuns(),
                List.of(), List.of()));

        for (final String chart : List.of("demo-latency.png", "demo-throughput.png")) {
            final Path file = tmp.resolve("charts").resolve(chart);
            assertTrue(Files.size(file) > 1_000, chart + " has a picture in it");
            assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(Files.readAllBytes(file), 4), chart + " is a PNG");
            assertTrue(md.contains("](charts/" + chart + ")"), "RESULTS.md links " + chart);
        }
    }

    @Test
    void withoutDeclaredLatenciesEverySectionOutsideArraysIsShown() {
        final String md = render(new ScenarioResults("demo", "a demo", "none", "none", new ReportSpec(), threeRuns(),
                List.of(), List.of()));

        assertTrue(md.lines().anyMatch(line -> line.startsWith("| targets.Ours TCP.roundTrip |")), md);
        assertTrue(md.lines().anyMatch(line -> line.startsWith("| targets.Theirs TCP.roundTrip |")), md);
        assertFalse(md.contains("| comparison |"), "no comparison declared, none shown");
    }

    @Test
    void failedRunsAndScenariosWithoutResultsAreSaidPlainly() {
        final String md = render(new ScenarioResults("demo", "a demo", "none", "none", new ReportSpec(), List.of(),
                List.of(), List.of("run 2 exited with 1 (log: logs/demo-run2.log)")));

        assertTrue(md.contains("- **Problem:** run 2 exited with 1 (log: logs/demo-run2.log)"), md);
        assertTrue(md.contains("No results."), md);
    }

    @Test
    void aFixedHandWrittenResultRendersWithoutHistogramsOrSeries() {
        final Map<String, Object> run = parse("""
                {"scenario": "fixed", "rate": 1000.5, "engine": {"seconds": 2.0}, "alone": {"seconds": 1.6},
                 "label": "x|y", "rows": [{"variant": "raw", "targetRate": 100000, "v": 7}]}
                """);
        final ReportSpec spec = new ReportSpec().headline("raw v", "rows[variant=raw,targetRate=100000].v")
                .compare("seconds", "engine", "engine.seconds", "alone", "alone.seconds");

        final String md = render(new ScenarioResults("fixed", "fixed", "none", "none", spec, List.of(run), List.of(), List.of()));

        assertTrue(md.contains("| raw v | 7 | 1 |"), md);
        assertTrue(md.contains("| seconds | engine: 2 | alone: 1.60 | **1.25** |"), md);
        assertTrue(md.contains("label = x\\|y"), "a pipe in a value does not break the table: " + md);
        assertFalse(Files.exists(tmp.resolve("charts").resolve("fixed-latency.png")), "no histogram, no chart");
        assertEquals(1, md.lines().filter(line -> line.startsWith("## fixed")).count());
    }

    @Test
    void chartsAScenarioDrewItselfAreCopiedBesideTheOthersAndLinked() throws IOException {
        final Path results = Files.createDirectories(tmp.resolve("results"));
        Files.write(results.resolve("demo-curve.png"), PNG_SIGNATURE);
        final Map<String, Object> run = parse(BenchResult.of("demo").put("x", 1.0)
                .put(ResultsReport.CHARTS_KEY, List.of("demo-curve.png", "missing.png", "../outside.png")).toJson());

        final String md = render(new ScenarioResults("demo", "a demo", "nothing", "none", new ReportSpec(), List.of(run),
                List.of("demo-1.json"), List.of()));

        assertTrue(md.contains("![demo demo-curve.png](charts/demo-curve.png)"), md);
        assertArrayEquals(PNG_SIGNATURE, Files.readAllBytes(tmp.resolve("charts").resolve("demo-curve.png")));
        assertTrue(md.contains("names the chart `missing.png`, which is not in"), md);
        assertTrue(md.contains("names the chart `../outside.png`, which is not in"), md);
        assertFalse(Files.exists(tmp.resolve("charts").resolve("outside.png")));
    }
}
