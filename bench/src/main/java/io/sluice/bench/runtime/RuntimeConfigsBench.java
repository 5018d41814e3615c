package io.sluice.bench.runtime;

import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.Spread;
import io.sluice.tools.fix.SluiceDeployment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;

/**
 * {@code ./sluice bench runtime-configs}: the journal round trip ({@link JournalRoundTripChild}) and the FIX round
 * trip ({@link FixPingPong}) under runtime configurations ({@link RuntimeConfig}). Not the full cross product:
 * first a GC sweep (the shipped default, G1, against ZGC, Parallel and Serial), then, on the GC with the best p99,
 * one toggle at a time: compact object headers, AlwaysPreTouch, the engine thread pinned with OpenHFT Affinity.
 * Within each phase the configurations take turns, run by run, each {@code --repeats} times; the tables give
 * medians with their range and ratios to the phase's reference, and a closing note says what the figures support.
 */
@Command(name = "runtime-configs", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Journal and FIX round trips under G1/ZGC/Parallel/Serial, then compact headers, pre-touch, pinning.")
public final class RuntimeConfigsBench implements Callable<Integer> {
    /** A p99 ratio within this of 1 is called no clear effect. */
    private static final double CLEAR_EFFECT = 0.10;

    @Option(names = "--full", description = "full size: 1,000,000 journal round trips per gateway, FIX 20,000 warm-up"
            + " + 100,000 measured, 5 repeats (default: quick, 100,000; 2,000 + 10,000; 3 repeats: about 6 minutes on a"
            + " quiet 2-core machine)")
    private boolean full;

    @Option(names = "--repeats", description = "runs per configuration (default 3, full 5)")
    private Integer repeats;

    @Option(names = "--journal-orders", description = "journal round trip: commands per gateway thread")
    private Long journalOrders;

    @Option(names = "--fix-warmup", description = "FIX round trip: warm-up orders per run")
    private Long fixWarmUp;

    @Option(names = "--fix-orders", description = "FIX round trip: measured orders per run")
    private Long fixOrders;

    private final PrintStream out = System.out;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new RuntimeConfigsBench()).execute(args));
    }

    /** Every run of one configuration. */
    private record Runs(RuntimeConfig config, List<RoundTripFigures> journal, List<RoundTripFigures> fix,
                        List<String> pinOutcomes) {
        Runs(final RuntimeConfig config) {
            this(config, new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }

        Spread spread(final List<RoundTripFigures> runs, final ToDoubleFunction<RoundTripFigures> figure) {
            return Spread.of(runs.stream().mapToDouble(figure).toArray());
        }

        boolean pinnedEveryRun() {
            return !pinOutcomes.isEmpty() && pinOutcomes.stream().allMatch(o -> o.contains(" pinned to CPU"));
        }
    }

    @Override
    public Integer call() throws Exception {
        final int runs = repeats != null ? repeats : full ? 5 : 3;
        final long journal = journalOrders != null ? journalOrders : full ? 1_000_000 : 100_000;
        final long warmUp = fixWarmUp != null ? fixWarmUp : full ? 20_000 : 2_000;
        final long measured = fixOrders != null ? fixOrders : full ? 100_000 : 10_000;
        final String loadBefore = loadAverage();
        out.printf(Locale.ROOT, "Runtime configurations: journal round trip (%,d per gateway, child JVM) and FIX round"
                + " trip (ping-pong, %,d warm-up + %,d measured, engine + gateway JVMs), %d runs each, interleaved;"
                + " load average %s%n", journal, warmUp, measured, runs, loadBefore);
        out.println("The shipped default is jvm.options alone: no GC flag, so the JVM picks " + ownGc()
                + " here; pinning is engine thread only (Affinity hands out only CPU 1 on a 2-core machine).");
        final Path work = Files.createTempDirectory("sluice-runtime-configs");
        try {
            final Map<RuntimeConfig, Runs> sweep = phase("GC sweep", RuntimeConfig.gcSweep(), work, runs, journal,
                    warmUp, measured);
            final RuntimeConfig bestGc = best(sweep);
            out.println("best GC by p99 (median of the journal and FIX p99 ratios to the default): " + bestGc.name());
            final Map<RuntimeConfig, Runs> toggles = phase("one toggle at a time on " + bestGc.name(),
                    RuntimeConfig.toggles(bestGc), work, runs, journal, warmUp, measured);
            out.println();
            table("GC sweep", sweep, RuntimeConfig.SHIPPED);
            table("toggles on " + bestGc.name(), toggles, bestGc);
            final List<String> conclusion = conclude(sweep, bestGc, toggles);
            out.println();
            conclusion.forEach(out::println);
            final String loadAfter = loadAverage();
            out.println("load average before " + loadBefore + ", after " + loadAfter);
            final Path file = BenchResult.of("runtime-configs").put("repeats", runs)
                    .put("journalOrdersPerGateway", journal).put("fixWarmUpOrders", warmUp)
                    .put("fixMeasuredOrders", measured).put("loadAverageBefore", loadBefore)
                    .put("loadAverageAfter", loadAfter).put("defaultGc", ownGc()).put("bestGc", bestGc.name())
                    .put("gcSweep", json(sweep)).put("toggles", json(toggles)).put("conclusion", conclusion)
                    .write(BenchResult.resultsDir());
            out.println("wrote " + file);
            return 0;
        } finally {
            SluiceDeployment.deleteTree(work);
        }
    }

    private Map<RuntimeConfig, Runs> phase(final String title, final List<RuntimeConfig> configs, final Path work,
                                           final int runs, final long journal, final long warmUp, final long measured)
            throws InterruptedException {
        out.println();
        out.println(title + ":");
        final Map<RuntimeConfig, Runs> results = new LinkedHashMap<>();
        configs.forEach(config -> results.put(config, new Runs(config)));
        for (int run = 0; run < runs; run++) {
            for (int i = 0; i < configs.size(); i++) {
                final RuntimeConfig config = configs.get((i + run) % configs.size());
                final Runs into = results.get(config);
                final Path dir = work.resolve("run");
                try {
                    final JournalRoundTripChild.Outcome journalRun = JournalRoundTripChild.run(dir, config, journal);
                    final FixPingPong.Outcome fixRun = FixPingPong.run(dir.resolve("fix"),
                            System.getProperty("java.class.path"), config, warmUp, measured);
                    into.journal().add(journalRun.figures());
                    into.fix().add(fixRun.figures());
                    if (config.pinsEngine()) {
                        into.pinOutcomes().add(pinOutcome(journalRun.log()));
                        into.pinOutcomes().add(pinOutcome(fixRun.engineLog()));
                    }
                    printRun(config, run, journalRun.figures(), fixRun.figures(), into);
                } catch (final IOException | IllegalStateException e) {
                    out.println("note: " + config.name() + " run " + (run + 1) + " failed and is left out: "
                            + e.getMessage().lines().findFirst().orElse(""));
                } finally {
                    SluiceDeployment.deleteTree(dir);
                }
            }
        }
        return results;
    }

    private void printRun(final RuntimeConfig config, final int run, final RoundTripFigures journal,
                          final RoundTripFigures fix, final Runs runs) {
        out.printf(Locale.ROOT, "  %-28s run %d: journal %,9.0f/s p99 %8.1f µs | FIX %,7.0f/s p99 %8.1f µs%s%n",
                config.name(), run + 1, journal.perSecond(), journal.p99Us(), fix.perSecond(), fix.p99Us(),
                config.pinsEngine() ? " | " + runs.pinOutcomes().getLast() : "");
    }

    private static String pinOutcome(final String log) {
        return log.lines().filter(line -> line.contains("engine: engine thread")).findFirst()
                .map(line -> line.substring(line.indexOf("engine thread"))).orElse("engine printed no pinning outcome");
    }

    /** @return the GC whose median of journal and FIX p99 ratios to the default is lowest. */
    private static RuntimeConfig best(final Map<RuntimeConfig, Runs> sweep) {
        final Runs shipped = sweep.get(RuntimeConfig.SHIPPED);
        return sweep.values().stream().filter(r -> !r.journal().isEmpty() && !r.fix().isEmpty())
                .min(Comparator.comparingDouble(r -> score(r, shipped))).map(Runs::config).orElse(RuntimeConfig.SHIPPED);
    }

    private static double score(final Runs runs, final Runs reference) {
        return (p99Ratio(runs, reference, true) + p99Ratio(runs, reference, false)) / 2;
    }

    private static double p99Ratio(final Runs runs, final Runs reference, final boolean journal) {
        return runs.spread(journal ? runs.journal() : runs.fix(), RoundTripFigures::p99Us)
                .ratioTo(reference.spread(journal ? reference.journal() : reference.fix(), RoundTripFigures::p99Us));
    }

    private void table(final String title, final Map<RuntimeConfig, Runs> results, final RuntimeConfig reference) {
        final Runs base = results.get(reference);
        for (final boolean journal : new boolean[] {true, false}) {
            out.printf(Locale.ROOT, "%s, %s: median (min-max) of the runs; ratios to %s%n", title,
                    journal ? "journal round trip" : "FIX round trip", reference.name());
            out.printf(Locale.ROOT, "  %-30s %-30s %-24s %-28s %-26s %7s %7s%n", "config", "round trips/s", "p50 µs",
                    "p99 µs", "p99.9 µs", "rate x", "p99 x");
            for (final Runs runs : results.values()) {
                final List<RoundTripFigures> figures = journal ? runs.journal() : runs.fix();
                final List<RoundTripFigures> baseFigures = journal ? base.journal() : base.fix();
                final Spread rate = runs.spread(figures, RoundTripFigures::perSecond);
                final Spread p99 = runs.spread(figures, RoundTripFigures::p99Us);
                out.printf(Locale.ROOT, "  %-30s %-30s %-24s %-28s %-26s %7.2f %7.2f%n", label(runs), rate.format(0),
                        runs.spread(figures, RoundTripFigures::p50Us).format(1), p99.format(1),
                        runs.spread(figures, RoundTripFigures::p999Us).format(1),
                        rate.ratioTo(base.spread(baseFigures, RoundTripFigures::perSecond)),
                        p99.ratioTo(base.spread(baseFigures, RoundTripFigures::p99Us)));
            }
        }
    }

    private static String label(final Runs runs) {
        return runs.config().pinsEngine() && !runs.pinnedEveryRun()
                ? runs.config().name() + " (NOT pinned)" : runs.config().name();
    }

    private List<String> conclude(final Map<RuntimeConfig, Runs> sweep, final RuntimeConfig bestGc,
                                  final Map<RuntimeConfig, Runs> toggles) {
        final List<String> lines = new ArrayList<>();
        lines.add("Conclusion (from this run's medians; an effect inside ±" + Math.round(CLEAR_EFFECT * 100)
                + " % or inside the runs' ranges is called unclear):");
        final Runs shipped = sweep.get(RuntimeConfig.SHIPPED);
        for (final Runs runs : sweep.values()) {
            if (runs.config() != RuntimeConfig.SHIPPED) {
                lines.add("- " + runs.config().name() + " vs the default: " + effect(runs, shipped));
            }
        }
        final Runs base = toggles.get(bestGc);
        for (final Runs runs : toggles.values()) {
            if (runs.config() != bestGc) {
                lines.add("- " + label(runs) + " vs " + bestGc.name() + ": " + effect(runs, base));
            }
        }
        lines.add("Sluice ships jvm.options without GC, heap or pinning flags (the JVM's choice, " + ownGc()
                + " here): " + (bestGc == RuntimeConfig.SHIPPED
                ? "no other collector did better in this run, so the default stands."
                : bestGc.name() + " had the better p99 in this run; change the default only if a quiet, longer run"
                + " (--full) confirms it."));
        return lines;
    }

    private static String effect(final Runs runs, final Runs reference) {
        return "journal p99 " + effect(runs, reference, true) + ", FIX p99 " + effect(runs, reference, false);
    }

    private static String effect(final Runs runs, final Runs reference, final boolean journal) {
        final List<RoundTripFigures> mine = journal ? runs.journal() : runs.fix();
        final List<RoundTripFigures> theirs = journal ? reference.journal() : reference.fix();
        if (mine.isEmpty() || theirs.isEmpty()) {
            return "not measured";
        }
        final Spread p99 = runs.spread(mine, RoundTripFigures::p99Us);
        final Spread baseP99 = reference.spread(theirs, RoundTripFigures::p99Us);
        final double ratio = p99.ratioTo(baseP99);
        final boolean overlap = p99.min() <= baseP99.max() && baseP99.min() <= p99.max();
        final String verdict = Math.abs(ratio - 1) < CLEAR_EFFECT || overlap ? "unclear"
                : ratio < 1 ? "better" : "worse";
        return String.format(Locale.ROOT, "%.2fx (%s)", ratio, verdict);
    }

    private static List<BenchResult> json(final Map<RuntimeConfig, Runs> results) {
        final List<BenchResult> rows = new ArrayList<>();
        for (final Runs runs : results.values()) {
            rows.add(BenchResult.section().put("config", runs.config().name()).put("jvm", runs.config().jvm())
                    .put("engineCpu", runs.config().engineCpu()).put("pinOutcomes", runs.pinOutcomes())
                    .put("journalRoundTrip", json(runs, runs.journal())).put("fixRoundTrip", json(runs, runs.fix())));
        }
        return rows;
    }

    private static BenchResult json(final Runs runs, final List<RoundTripFigures> figures) {
        return BenchResult.section().put("perSecond", runs.spread(figures, RoundTripFigures::perSecond).json())
                .put("p50Us", runs.spread(figures, RoundTripFigures::p50Us).json())
                .put("p99Us", runs.spread(figures, RoundTripFigures::p99Us).json())
                .put("p99_9Us", runs.spread(figures, RoundTripFigures::p999Us).json())
                .put("runs", figures.stream().map(f -> BenchResult.section().put("perSecond", f.perSecond())
                        .put("p50Us", f.p50Us()).put("p99Us", f.p99Us()).put("p99_9Us", f.p999Us())).toList());
    }


    /** @return the collector this JVM runs with (the one the child JVMs get too, with no GC flag). */
    private static String ownGc() {
        final String name = ManagementFactory.getGarbageCollectorMXBeans().getFirst().getName();
        return name.split(" ")[0];
    }

    private static String loadAverage() {
        try {
            final String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (final IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
