package io.sluice.bench.runtime;

import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.ResultsReport;
import io.sluice.bench.report.Spread;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.tools.fix.SluiceDeployment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * {@code ./sluice bench warm-up}: time to peak of the full FIX path from a cold start, per JVM variant. Each run
 * launches a fresh engine and gateway (child JVMs, fresh journals), offers a constant paced load from this JVM
 * and records throughput and latency per second since launch ({@link WarmUpRun}). Variants ({@link WarmUpVariant})
 * are the start before the AOT cache (Chronicle's classes compiled by javac as the processes start, no AOT cache),
 * the build-time Chronicle classes alone, with the JDK 25 AOT cache from a training run ({@link AotCache}: the
 * start {@code ./sluice} gives now), and compile-threshold or compiler choices; they take turns, run by run, and
 * every variant runs {@code --repeats} times, so the table shows each figure's median and range. Every run logs
 * the classes its engine and gateway load, and the table shows whether either ran javac ({@link StartCompiles}).
 * Each run also launches a {@link ColdClient} JVM with the engine and gateway, whose first fill is the start a
 * user launching all three sees. An unmeasured training run comes first in any case: it writes the AOT caches and
 * warms this JVM's load client, so that no variant's load meets a cold client.
 */
@Command(name = "warm-up", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Time to peak of the FIX path from process launch: plain JVM vs AOT cache vs JIT options.")
public final class WarmUpBench implements Callable<Integer> {
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration TRAINING_STOP_GRACE = Duration.ofSeconds(180);
    /** The targets for a start: the first fill within a second of launch, 95 % of peak within 5 s. */
    private static final double TARGET_FIRST_FILL_MS = 1_000;
    private static final double TARGET_TO_95_SECONDS = 5;

    @Option(names = "--full", description = "full size: 60 s of load per run, 5 repeats, variants today,plain,aot,cts,"
            + "c1,aot+cts (default: quick, 15 s, 3 repeats, today,plain,aot: about 5 minutes on a quiet 2-core machine)")
    private boolean full;

    @Option(names = "--duration", description = "seconds of load in each run, from the first fill (default 15, full 60)")
    private Integer durationSeconds;

    @Option(names = "--repeats", description = "runs per variant (default 3, full 5)")
    private Integer repeats;

    @Option(names = "--variants", split = ",", description = "variants to compare, of today, plain, aot, cts, c1, aot+cts")
    private List<String> variants;

    @Option(names = "--rate", description = "orders offered per second (default ${DEFAULT-VALUE})")
    private long rate = 5_000;

    @Option(names = "--window", description = "most orders outstanding (default ${DEFAULT-VALUE})")
    private int window = 16;

    private final PrintStream out = System.out;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new WarmUpBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Duration duration = Duration.ofSeconds(durationSeconds != null ? durationSeconds : full ? 60 : 15);
        final int runs = repeats != null ? repeats : full ? 5 : 3;
        final List<String> names = variants != null ? variants
                : full ? WarmUpVariant.NAMES : List.of("today", "plain", "aot");
        final Path work = Files.createTempDirectory("sluice-warm-up");
        try {
            out.printf(Locale.ROOT, "Warm-up: engine, 1 gateway and a FIX client JVM launched cold per run, %,d orders/s offered (window %d),"
                    + " %d s per run, %d runs per variant, variants %s%n", rate, window, duration.toSeconds(), runs, names);
            final String classPath = JarClassPath.pack(System.getProperty("java.class.path"), work.resolve("jars"));
            final String todayClassPath = JarClassPath.pack(System.getProperty("java.class.path"),
                    work.resolve("jars-without-generated"), false);
            final AotCache cache = AotCache.in(work);
            final List<WarmUpVariant> measured = new ArrayList<>();
            final boolean trained = train(work, classPath, cache, duration);
            for (final String name : names) {
                final WarmUpVariant variant = WarmUpVariant.named(name, cache);
                if (variant.usesAotCache() && !trained) {
                    out.println("note: variant " + name + " left out: the training run wrote no AOT cache");
                } else {
                    measured.add(variant);
                }
            }
            final Map<WarmUpVariant, List<WarmUpCurve>> curves = new LinkedHashMap<>();
            final Map<WarmUpVariant, List<Boolean>> cacheOpened = new LinkedHashMap<>();
            final Map<WarmUpVariant, List<long[]>> javac = new LinkedHashMap<>();
            final Map<WarmUpVariant, List<Double>> coldFills = new LinkedHashMap<>();
            measured.forEach(v -> {
                coldFills.put(v, new ArrayList<>());
                curves.put(v, new ArrayList<>());
                cacheOpened.put(v, new ArrayList<>());
                javac.put(v, new ArrayList<>());
            });
            final Path classLogs = Files.createDirectories(work.resolve("class-loads"));
            out.printf(Locale.ROOT, "%-8s %4s %10s %12s %12s %10s %10s %12s %12s %12s %s%n", "variant", "run", "path up",
                    "first fill", "cold client", "to 95%", "peak/s", "p99 10s", "p99 steady", "javac e/g",
                    "(ms, ms, ms, s, orders/s, µs, µs, javac classes loaded by engine/gateway)");
            for (int run = 0; run < runs; run++) {
                for (int i = 0; i < measured.size(); i++) {
                    // interleaved, and each round starts with another variant, so none always goes first
                    final WarmUpVariant variant = measured.get((i + run) % measured.size());
                    final Path engineClasses = classLogs.resolve(variant.name() + "-" + run + "-engine.log");
                    final Path gatewayClasses = classLogs.resolve(variant.name() + "-" + run + "-gateway.log");
                    final WarmUpRun.Outcome outcome;
                    try {
                        outcome = WarmUpRun.run(work.resolve("run-" + run + "-" + variant.name()),
                                settings(variant.generatedClasses() ? classPath : todayClassPath,
                                        WarmUpVariant.plus(variant.engineJvm(), StartCompiles.logFlag(engineClasses)),
                                        WarmUpVariant.plus(variant.gatewayJvm(), StartCompiles.logFlag(gatewayClasses))),
                                rate, window, duration, STOP_GRACE);
                    } catch (final IOException | IllegalStateException e) {
                        out.println("note: " + variant.name() + " run " + (run + 1) + " failed and is left out: "
                                + e.getMessage().lines().findFirst().orElse(""));
                        continue;
                    }
                    final boolean opened = AotCache.opened(outcome.engineLog(), cache.engine())
                            && AotCache.opened(outcome.gatewayLog(), cache.gateway());
                    if (variant.usesAotCache() && !opened) {
                        out.println("WARNING: " + variant.name() + " run " + (run + 1)
                                + ": the engine or gateway did not open its AOT cache; their logs say:\n"
                                + tail(outcome.engineLog()) + "\n" + tail(outcome.gatewayLog()));
                    }
                    if (outcome.failure() != null) {
                        out.println("note: " + variant.name() + " run " + (run + 1) + ": " + outcome.failure());
                    }
                    final long[] compiles = {StartCompiles.javacClasses(engineClasses),
                            StartCompiles.javacClasses(gatewayClasses)};
                    curves.get(variant).add(outcome.curve());
                    cacheOpened.get(variant).add(opened);
                    javac.get(variant).add(compiles);
                    coldFills.get(variant).add(outcome.coldClientFirstFillMs());
                    printRun(variant, run, outcome, compiles);
                }
            }
            summarise(curves, cacheOpened, javac, coldFills, duration, runs);
            return 0;
        } finally {
            SluiceDeployment.deleteTree(work);
        }
    }

    /** The unmeasured first run: writes the AOT caches (if any variant needs them) and warms the load client. */
    private boolean train(final Path work, final String classPath, final AotCache cache, final Duration duration)
            throws Exception {
        out.printf(Locale.ROOT, "training run (not measured): %d s of the same load with -XX:AOTCacheOutput; the JVMs"
                + " write their caches as they exit ...%n", duration.toSeconds());
        final long start = System.nanoTime();
        final WarmUpRun.Outcome outcome = WarmUpRun.run(work.resolve("training"), settings(classPath,
                AotCache.trainingFlags(cache.engine()), AotCache.trainingFlags(cache.gateway())), rate, window, duration,
                TRAINING_STOP_GRACE);
        if (!cache.trained()) {
            out.println("the training run wrote no AOT cache; the engine's and gateway's logs end with:\n"
                    + tail(outcome.engineLog()) + "\n" + tail(outcome.gatewayLog()));
            return false;
        }
        out.printf(Locale.ROOT, "  AOT caches written in %.0f s: engine %,d bytes, gateway %,d bytes%n",
                (System.nanoTime() - start) / 1e9, Files.size(cache.engine()), Files.size(cache.gateway()));
        return true;
    }

    private static SluiceDeployment.ProcessSettings settings(final String classPath, final List<String> engineJvm,
                                                             final List<String> gatewayJvm) {
        return new SluiceDeployment.ProcessSettings(classPath, engineJvm, gatewayJvm, CpuPinning.NONE);
    }

    private void printRun(final WarmUpVariant variant, final int run, final WarmUpRun.Outcome outcome,
                          final long[] javac) {
        final WarmUpCurve curve = outcome.curve();
        out.printf(Locale.ROOT, "%-8s %4d %10.0f %12.0f %12.0f %10.0f %10.0f %12.0f %12.0f %12s%n", variant.name(), run + 1,
                curve.launchToUpNanos() / 1e6, curve.launchToFirstFillNanos() / 1e6, outcome.coldClientFirstFillMs(),
                curve.secondsTo95PercentOfPeak(), curve.peakThroughput(),
                curve.earlyP99Micros(), curve.steadyP99Micros(), javac[0] + "/" + javac[1]);
    }

    private void summarise(final Map<WarmUpVariant, List<WarmUpCurve>> curves,
                           final Map<WarmUpVariant, List<Boolean>> cacheOpened,
                           final Map<WarmUpVariant, List<long[]>> javac,
                           final Map<WarmUpVariant, List<Double>> coldFills, final Duration duration, final int runs) {
        out.println();
        out.printf(Locale.ROOT, "Warm-up summary, median (min-max) of %d runs; times from launching the engine, gateway and"
                + " client; load for %d s from the first fill, steady = its second half%n", runs, duration.toSeconds());
        out.printf(Locale.ROOT, "%-8s %-20s %-20s %-20s %-16s %-20s %-22s %-20s %-9s %-17s %s%n", "variant", "path up (ms)",
                "first fill (ms)", "cold client (ms)", "to 95% peak (s)", "peak (orders/s)", "p99 first 10 s (µs)", "p99 steady (µs)",
                "vs today", "runs without javac", "AOT cache opened");
        final WarmUpVariant baseline = curves.keySet().stream().filter(v -> v.name().equals("today")).findFirst()
                .orElse(curves.keySet().iterator().next());
        final List<BenchResult> rows = new ArrayList<>();
        final Map<String, Boolean> targets = new LinkedHashMap<>();
        for (final Map.Entry<WarmUpVariant, List<WarmUpCurve>> entry : curves.entrySet()) {
            final WarmUpVariant variant = entry.getKey();
            final List<WarmUpCurve> list = entry.getValue();
            final Spread up = spread(list, c -> c.launchToUpNanos() / 1e6);
            final Spread firstFill = spread(list, c -> c.launchToFirstFillNanos() / 1e6);
            final Spread coldFill = Spread.of(coldFills.get(variant).stream().mapToDouble(Double::doubleValue).toArray());
            final Spread to95 = spread(list, WarmUpCurve::secondsTo95PercentOfPeak);
            final Spread peak = spread(list, WarmUpCurve::peakThroughput);
            final Spread early = spread(list, WarmUpCurve::earlyP99Micros);
            final Spread steady = spread(list, WarmUpCurve::steadyP99Micros);
            final Spread baseTo95 = spread(curves.get(baseline), WarmUpCurve::secondsTo95PercentOfPeak);
            final String opened = variant.usesAotCache()
                    ? cacheOpened.get(variant).stream().filter(b -> b).count() + " of " + list.size() : "-";
            final long withoutJavac = javac.get(variant).stream().filter(c -> c[0] == 0 && c[1] == 0).count();
            out.printf(Locale.ROOT, "%-8s %-20s %-20s %-20s %-16s %-20s %-22s %-20s %-9s %-17s %s%n", variant.name(), up.format(0),
                    firstFill.format(0), coldFill.format(0),
                    to95.format(0), peak.format(0), early.format(0), steady.format(0),
                    String.format(Locale.ROOT, "%.2fx", to95.ratioTo(baseTo95)), withoutJavac + " of " + list.size(),
                    opened);
            rows.add(BenchResult.section().put("variant", variant.name()).put("description", variant.description())
                    .put("generatedClasses", variant.generatedClasses())
                    .put("engineJvm", variant.engineJvm()).put("gatewayJvm", variant.gatewayJvm())
                    .put("runsWithoutJavac", withoutJavac)
                    .put("aotCacheOpenedRuns", variant.usesAotCache()
                            ? cacheOpened.get(variant).stream().filter(b -> b).count() : null)
                    .put("pathUpMs", up.json()).put("firstFillMs", firstFill.json()).put("coldClientFirstFillMs",
                            coldFill.json()).put("secondsTo95PercentOfPeak", to95.json())
                    .put("peakOrdersPerSecond", peak.json()).put("p99First10sUs", early.json())
                    .put("p99SteadyUs", steady.json()).put("timeTo95RatioToToday", to95.ratioTo(baseTo95))
                    .put("runs", IntStream.range(0, list.size()).mapToObj(i -> json(list.get(i), javac.get(variant).get(i),
                            coldFills.get(variant).get(i))).toList()));
            targets.put(variant.name(), coldFill.median() < TARGET_FIRST_FILL_MS && to95.median() <= TARGET_TO_95_SECONDS);
        }
        out.println("(first fill: this JVM's warm load client, logged on once the path is up; cold client: a client JVM"
                + " launched with the engine and gateway; to 95% peak: end of the first second since launch whose"
                + " throughput reached 95 % of the steady median; vs today: ratio of the medians of that time;"
                + " runs without javac: runs whose engine and"
                + " gateway loaded no class of javac)");
        out.printf(Locale.ROOT, "target (median cold client first fill under %.0f ms and 95 %% of peak within %.0f s from"
                + " launch): %s%n",
                TARGET_FIRST_FILL_MS, TARGET_TO_95_SECONDS, targets);
        final Path dir = BenchResult.resultsDir();
        final Path throughputPng = dir.resolve("warm-up-throughput.png");
        final Path p99Png = dir.resolve("warm-up-p99.png");
        CurveChart.write(throughputPng, "FIX path from a cold start: orders/s completed per second (median of "
                + runs + " runs)", "orders/s", perSecondMedians(curves, (curve, s) -> curve.throughput()[s]), false);
        CurveChart.write(p99Png, "FIX path from a cold start: p99 round trip per second (median of " + runs
                + " runs)", "p99 round trip (µs)", perSecondMedians(curves, WarmUpCurve::p99MicrosOf), true);
        final Path file = BenchResult.of("warm-up").put("offeredOrdersPerSecond", rate).put("window", window)
                .put("targetFirstFillMs", TARGET_FIRST_FILL_MS).put("targetSecondsTo95PercentOfPeak", TARGET_TO_95_SECONDS)
                .put("targetMet", targetsJson(targets))
                .put("secondsPerRun", duration.toSeconds()).put("repeats", runs).put("variants", rows)
                .put(ResultsReport.CHARTS_KEY, List.of(throughputPng.getFileName().toString(), p99Png.getFileName().toString()))
                .write(dir);
        out.println("wrote " + file + ", " + throughputPng + ", " + p99Png);
    }

    private static BenchResult targetsJson(final Map<String, Boolean> targets) {
        final BenchResult json = BenchResult.section();
        targets.forEach(json::put);
        return json;
    }

    /** A per-second figure of one run. */
    private interface SecondFigure {
        double of(WarmUpCurve curve, int second);
    }

    private static Map<String, double[]> perSecondMedians(final Map<WarmUpVariant, List<WarmUpCurve>> curves,
                                                          final SecondFigure figure) {
        final Map<String, double[]> medians = new LinkedHashMap<>();
        curves.forEach((variant, list) -> {
            final int seconds = list.stream().mapToInt(c -> c.seconds().size()).min().orElse(0);
            medians.put(variant.name(), IntStream.range(0, seconds)
                    .mapToDouble(s -> Spread.of(list.stream().mapToDouble(c -> figure.of(c, s)).toArray()).median())
                    .toArray());
        });
        return medians;
    }

    private static Spread spread(final List<WarmUpCurve> curves, final ToDoubleFunction<WarmUpCurve> figure) {
        return Spread.of(curves.stream().mapToDouble(figure).toArray());
    }


    private static BenchResult json(final WarmUpCurve curve, final long[] javac, final double coldFill) {
        final int seconds = curve.seconds().size();
        return BenchResult.section().put("pathUpMs", curve.launchToUpNanos() / 1e6).put("firstFillMs", curve.launchToFirstFillNanos() / 1e6)
                .put("coldClientFirstFillMs", Double.isNaN(coldFill) ? null : coldFill)
                .put("javacClassesEngine", javac[0]).put("javacClassesGateway", javac[1])
                .put("secondsTo95PercentOfPeak", curve.secondsTo95PercentOfPeak())
                .put("peakOrdersPerSecond", curve.peakThroughput()).put("p99First10sUs", curve.earlyP99Micros())
                .put("p99SteadyUs", curve.steadyP99Micros()).put("p50SteadyUs", curve.steadyP50Micros())
                .put("ordersPerSecond", Arrays.stream(curve.throughput()).boxed().toList())
                .put("p99UsPerSecond", IntStream.range(0, seconds).mapToObj(curve::p99MicrosOf).toList())
                .put("p50UsPerSecond", IntStream.range(0, seconds).mapToObj(curve::p50MicrosOf).toList());
    }

    private static String tail(final String log) {
        return log.substring(Math.max(0, log.length() - 1_500));
    }
}
