package io.sluice.bench.fix;

import io.sluice.bench.report.BenchResult;
import io.sluice.tools.report.LatencyTable;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Prints and saves the figures of a FIX benchmark run: a latency row per target, the mean with its
 * bootstrap interval and the throughput, then every Sluice target against the QuickFIX/J baseline of the same
 * run as ratios (how many times faster on the mean and on p99, how many times the throughput). Saves the
 * JSON and, per target, the full round-trip histogram as an HdrHistogram percentile distribution.
 */
final class FixBenchReport {
    private static final String BASELINE_PREFIX = "QuickFIX/J";
    private static final String FLOOR_PREFIX = "Echo floor";

    private FixBenchReport() {
    }

    static Path printAndSave(final String scenario, final String title, final List<MeasuredRun> runs,
                             final BenchResult settings, final PrintStream out) {
        out.println();
        out.println(title);
        final int width = Math.max(16, runs.stream().mapToInt(run -> run.target().label().length()).max().orElse(0));
        final String labelColumn = "%-" + width + "s";
        final LatencyTable table = new LatencyTable(out, width);
        table.header();
        for (final MeasuredRun run : runs) {
            table.rowNanos(run.target().label(), run.roundTrips());
        }
        out.println();
        out.printf(Locale.ROOT, labelColumn + " %22s %14s %8s%n", "", "mean (95% CI), µs", "orders/s", "window");
        for (final MeasuredRun run : runs) {
            out.printf(Locale.ROOT, labelColumn + " %6.2f (%6.2f..%6.2f) %14.0f %8d%n", run.target().label(),
                    run.meanNanos() / 1e3, run.meanLowNanos() / 1e3, run.meanHighNanos() / 1e3, run.ordersPerSecond(),
                    run.window());
        }
        final BenchResult result = BenchResult.of(scenario).put("settings", settings);
        final BenchResult targets = BenchResult.section();
        for (final MeasuredRun run : runs) {
            targets.put(run.target().label(), BenchResult.section()
                    .put("transport", run.target().endpoint().transport().name())
                    .put("window", run.window())
                    .put("orders", run.orders())
                    .put("filled", run.filled())
                    .put("ordersPerSecond", run.ordersPerSecond())
                    .put("meanUs", run.meanNanos() / 1e3)
                    .put("meanCi95LowUs", run.meanLowNanos() / 1e3)
                    .put("meanCi95HighUs", run.meanHighNanos() / 1e3)
                    .putLatencyNanos("roundTrip", run.roundTrips()));
        }
        result.put("targets", targets);
        final MeasuredRun baseline = runs.stream().filter(run -> run.target().label().startsWith(BASELINE_PREFIX))
                .findFirst().orElse(null);
        if (baseline != null && runs.size() > 1) {
            out.println();
            out.println("Against QuickFIX/J in the same run (QuickFIX/J ÷ Sluice for latency, Sluice ÷ QuickFIX/J for"
                    + " throughput; > 1 means Sluice is better):");
            final BenchResult ratios = BenchResult.section();
            for (final MeasuredRun run : runs) {
                if (run == baseline) {
                    continue;
                }
                final double mean = baseline.meanNanos() / run.meanNanos();
                final double p99 = (double) baseline.roundTrips().getValueAtPercentile(99)
                        / run.roundTrips().getValueAtPercentile(99);
                final double throughput = run.ordersPerSecond() / baseline.ordersPerSecond();
                out.printf(Locale.ROOT, "  %-14s mean %5.2fx   p99 %5.2fx   throughput %5.2fx%n", run.target().label(),
                        mean, p99, throughput);
                ratios.put(run.target().label(), BenchResult.section().put("meanSpeedup", mean)
                        .put("p99Speedup", p99).put("throughputRatio", throughput));
            }
            if (runs.stream().anyMatch(run -> run.target().label().startsWith(FLOOR_PREFIX))) {
                out.println("  (" + FLOOR_PREFIX + ": a trivial acceptor, no session layer, journal or engine; its ratio"
                        + " is the most any acceptor could reach here with this client and transport)");
            }
            result.put("versusQuickFixJ", ratios);
        }
        idleSocketCost(runs, result, out);
        transportCost(runs, result, out);
        countersCost(runs, result, out);
        snapshotterCost(runs, result, out);
        final Path file = result.write(BenchResult.resultsDir());
        out.println();
        out.println("JSON: " + file);
        for (final MeasuredRun run : runs) {
            out.println("histogram (HdrHistogram percentile distribution, µs): " + writeHistogram(file, run));
        }
        return file;
    }

    /**
     * For every target measured with idle sockets ("Sluice TCP + 500 idle") beside the same without ("Sluice
     * TCP"): the ratios with ÷ without of the mean and p99 round trip (1.05 is 5 % slower with the sockets).
     */
    private static void idleSocketCost(final List<MeasuredRun> runs, final BenchResult result, final PrintStream out) {
        final BenchResult costs = BenchResult.section();
        boolean any = false;
        for (final MeasuredRun with : runs) {
            final String label = with.target().label();
            final int plus = label.indexOf(" + ");
            if (plus < 0 || !label.endsWith(" idle")) {
                continue;
            }
            final MeasuredRun without = runs.stream().filter(run -> run.target().label().equals(label.substring(0, plus)))
                    .findFirst().orElse(null);
            if (without == null) {
                continue;
            }
            if (!any) {
                out.println();
                out.println("Cost of the idle sockets (with ÷ without, same run; 1.05 = 5 % slower):");
                any = true;
            }
            final double mean = with.meanNanos() / without.meanNanos();
            final double p99 = (double) with.roundTrips().getValueAtPercentile(99)
                    / without.roundTrips().getValueAtPercentile(99);
            out.printf(Locale.ROOT, "  %-24s mean %5.3f   p99 %5.3f%n", label, mean, p99);
            costs.put(label, BenchResult.section().put("meanRatio", mean).put("p99Ratio", p99));
        }
        if (any) {
            result.put("idleSocketCost", costs);
        }
    }

    /**
     * For every Sluice transport or gateway setting measured beside "Sluice TCP" (TLS, UDS, no validation): its p50,
     * p99 and mean round trip ÷ TCP's in the same run (1.10 = 10 % slower than plain TCP; below 1 for validation off,
     * whose cost is then 1 ÷ the ratio).
     */
    private static void transportCost(final List<MeasuredRun> runs, final BenchResult result, final PrintStream out) {
        final MeasuredRun tcp = runs.stream().filter(run -> run.target().label().equals("Sluice TCP")).findFirst()
                .orElse(null);
        if (tcp == null) {
            return;
        }
        final BenchResult costs = BenchResult.section();
        boolean any = false;
        for (final MeasuredRun run : runs) {
            final String label = run.target().label();
            if (run == tcp || !label.startsWith("Sluice ") || label.contains(" + ")) {
                continue;
            }
            if (!any) {
                out.println();
                out.println("Against Sluice TCP in the same run (plain TCP, validation on; ÷ Sluice TCP, 1.10 = 10 % slower):");
                any = true;
            }
            final double p50 = (double) run.roundTrips().getValueAtPercentile(50)
                    / tcp.roundTrips().getValueAtPercentile(50);
            final double p99 = (double) run.roundTrips().getValueAtPercentile(99)
                    / tcp.roundTrips().getValueAtPercentile(99);
            final double mean = run.meanNanos() / tcp.meanNanos();
            out.printf(Locale.ROOT, "  %-14s p50 %5.3f   p99 %5.3f   mean %5.3f   (p50 %.1f vs %.1f µs, p99 %.1f vs %.1f µs)%n",
                    label, p50, p99, mean, run.roundTrips().getValueAtPercentile(50) / 1e3,
                    tcp.roundTrips().getValueAtPercentile(50) / 1e3, run.roundTrips().getValueAtPercentile(99) / 1e3,
                    tcp.roundTrips().getValueAtPercentile(99) / 1e3);
            costs.put(label, BenchResult.section().put("p50Ratio", p50).put("p99Ratio", p99).put("meanRatio", mean));
        }
        if (any) {
            result.put("versusTcp", costs);
        }
    }

    /**
     * With a target "X, counters on" and one "X, counters off" (or, in an A/A control, "X, counters on (2)"): on ÷ off
     * of the p50, p99, p99.9 and mean round trip (1.02 = the counters cost 2 %).
     */
    private static void countersCost(final List<MeasuredRun> runs, final BenchResult result, final PrintStream out) {
        final MeasuredRun on = runs.stream().filter(run -> run.target().label().endsWith(", counters on")).findFirst()
                .orElse(null);
        final MeasuredRun off = runs.stream().filter(run -> run.target().label().endsWith(", counters off")
                || run.target().label().endsWith(", counters on (2)")).findFirst().orElse(null);
        if (on == null || off == null) {
            return;
        }
        out.println();
        out.println("What the counters cost (" + on.target().label() + " ÷ " + off.target().label()
                + ", same run; 1.02 = 2 % slower with them):");
        final BenchResult cost = BenchResult.section();
        for (final double percentile : new double[] {50, 99, 99.9}) {
            final long withCounters = on.roundTrips().getValueAtPercentile(percentile);
            final long without = off.roundTrips().getValueAtPercentile(percentile);
            final String name = percentile == 99.9 ? "p99_9" : "p" + (int) percentile;
            out.printf(Locale.ROOT, "  %-6s %6.3f   (%.2f vs %.2f µs)%n", name.replace('_', '.'),
                    (double) withCounters / without, withCounters / 1e3, without / 1e3);
            cost.put(name + "Ratio", (double) withCounters / without);
        }
        out.printf(Locale.ROOT, "  %-6s %6.3f   (%.2f vs %.2f µs)%n", "mean", on.meanNanos() / off.meanNanos(),
                on.meanNanos() / 1e3, off.meanNanos() / 1e3);
        cost.put("meanRatio", on.meanNanos() / off.meanNanos());
        result.put("countersCost", cost);
    }

    /**
     * With a target "X, snapshotter following" and one "X, no snapshotter": with ÷ without of the throughput and of
     * the p50 and p99 round trip (0.95 throughput = 5 % fewer orders/s with it; 1.05 p99 = 5 % slower).
     */
    private static void snapshotterCost(final List<MeasuredRun> runs, final BenchResult result, final PrintStream out) {
        final MeasuredRun with = runs.stream().filter(run -> run.target().label().endsWith(", snapshotter following"))
                .findFirst().orElse(null);
        final MeasuredRun without = runs.stream().filter(run -> run.target().label().endsWith(", no snapshotter"))
                .findFirst().orElse(null);
        if (with == null || without == null) {
            return;
        }
        out.println();
        out.println("What the snapshotter costs the live engine (with ÷ without, same run):");
        final double throughput = with.ordersPerSecond() / without.ordersPerSecond();
        out.printf(Locale.ROOT, "  throughput %6.3f   (%,.0f vs %,.0f orders/s)%n", throughput, with.ordersPerSecond(),
                without.ordersPerSecond());
        final BenchResult cost = BenchResult.section().put("throughputRatio", throughput);
        for (final double percentile : new double[] {50, 99, 99.9}) {
            final long a = with.roundTrips().getValueAtPercentile(percentile);
            final long b = without.roundTrips().getValueAtPercentile(percentile);
            final String name = percentile == 99.9 ? "p99_9" : "p" + (int) percentile;
            out.printf(Locale.ROOT, "  %-10s %6.3f   (%.1f vs %.1f µs)%n", name.replace('_', '.'), (double) a / b,
                    a / 1e3, b / 1e3);
            cost.put(name + "Ratio", (double) a / b);
        }
        result.put("snapshotterCost", cost);
    }

    /** Writes {@code run}'s round trips as an HdrHistogram percentile distribution beside the JSON file. */
    private static Path writeHistogram(final Path json, final MeasuredRun run) {
        final String stem = json.getFileName().toString().replace(".json", "");
        final String label = run.target().label().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        final Path file = json.resolveSibling(stem + "-" + label + ".hgrm");
        try (PrintStream histogram = new PrintStream(Files.newOutputStream(file), true, StandardCharsets.UTF_8)) {
            run.roundTrips().outputPercentileDistribution(histogram, 1_000.0);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }
}
