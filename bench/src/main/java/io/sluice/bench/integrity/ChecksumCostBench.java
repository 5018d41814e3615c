package io.sluice.bench.integrity;

import io.sluice.bench.engine.EngineThroughputBench;
import io.sluice.bench.fix.FixBenchmark;
import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.ResultJson;
import io.sluice.bench.report.ResultPath;
import io.sluice.contracts.RecordChecksum;
import io.sluice.runtime.process.JavaProcess;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench checksum-cost}: what the journal records' checksums ({@link RecordChecksum}) cost, Sluice only.
 * It measures the two paths they sit on: {@code engine-throughput} (the engine reads a checksummed command and writes
 * checksummed reports) and {@code fix-round-trip} over TCP (gateway, engine and gateway again, each record written and
 * read with its checksum). Each arm runs in a fresh child JVM, with checksums on (as shipped) or off (the
 * measurement-only switch {@code -Dsluice.journal.checksums=off}, which the child passes on to the engine and gateway
 * processes it starts); the arms alternate round by round, the order flipping every round, so that the machine's
 * background load weighs on both alike. Prints each round, the median of each arm and the ratios on ÷ off, and writes
 * them as JSON. Target: checksums cost at most 3 %.
 */
@Command(name = "checksum-cost", mixinStandardHelpOptions = true,
        description = "engine-throughput and fix-round-trip with journal checksums on vs off, in alternating child JVMs.")
public final class ChecksumCostBench implements Callable<Integer> {
    private static final String ENGINE_RATE = "commandsPerSecond";
    private static final String ENGINE_CPU_RATE = "commandsPerCpuSecond";
    private static final String FIX_MEAN = "targets.Sluice TCP.meanUs";
    private static final String FIX_P99 = "targets.Sluice TCP.roundTrip.p99Us";

    @Option(names = "--rounds", description = "rounds; each runs both arms of both scenarios (default ${DEFAULT-VALUE})")
    private int rounds = 3;

    @Option(names = "--engine-orders", description = "engine-throughput --orders (default ${DEFAULT-VALUE})")
    private long engineOrders = 2_000_000;

    @Option(names = "--engine-warmup", description = "engine-throughput --warmup (default ${DEFAULT-VALUE})")
    private long engineWarmup = 500_000;

    @Option(names = "--fix-warmup", description = "fix-round-trip --warmup (default ${DEFAULT-VALUE})")
    private long fixWarmup = 20_000;

    @Option(names = "--fix-orders", description = "fix-round-trip --orders (default ${DEFAULT-VALUE})")
    private long fixOrders = 50_000;

    @Option(names = "--timeout", description = "seconds one child run may take (default ${DEFAULT-VALUE})")
    private long timeoutSeconds = 1_200;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new ChecksumCostBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Path scratch = Files.createTempDirectory("sluice-checksum-cost");
        System.out.printf(Locale.ROOT, "checksum cost: engine-throughput (%,d commands) and fix-round-trip (Sluice TCP,"
                + " %,d orders), checksums on vs off, %d rounds, arms alternating; child logs under %s%n",
                engineOrders, fixOrders, rounds, scratch);
        final Arms engine = new Arms();
        final Arms engineCpu = new Arms();
        final Arms fixMean = new Arms();
        final Arms fixP99 = new Arms();
        for (int round = 1; round <= rounds; round++) {
            for (final boolean on : round % 2 == 1 ? new boolean[]{true, false} : new boolean[]{false, true}) {
                final Map<String, Object> result = child(scratch, round, on, EngineThroughputBench.class, "engine-throughput", "--orders",
                        Long.toString(engineOrders), "--warmup", Long.toString(engineWarmup));
                engine.add(on, number(result, ENGINE_RATE));
                engineCpu.add(on, number(result, ENGINE_CPU_RATE));
                System.out.printf(Locale.ROOT, "round %d engine-throughput, checksums %-3s: %,12.0f commands/s, %,12.0f per"
                        + " CPU second%n", round, on ? "on" : "off", number(result, ENGINE_RATE), number(result, ENGINE_CPU_RATE));
            }
            for (final boolean on : round % 2 == 1 ? new boolean[]{false, true} : new boolean[]{true, false}) {
                final Map<String, Object> result = child(scratch, round, on, FixBenchmark.class, "fix-round-trip", "--no-quickfixj",
                        "--no-validation-arm", "--floor", "none", "--transports", "tcp", "--warmup", Long.toString(fixWarmup), "--orders",
                        Long.toString(fixOrders), "--rounds", "2");
                fixMean.add(on, number(result, FIX_MEAN));
                fixP99.add(on, number(result, FIX_P99));
                System.out.printf(Locale.ROOT, "round %d fix-round-trip,    checksums %-3s: mean %8.2f µs, p99 %8.2f µs%n",
                        round, on ? "on" : "off", number(result, FIX_MEAN), number(result, FIX_P99));
            }
        }
        final double engineRatio = engine.medianOn() / engine.medianOff();
        final double engineCpuRatio = engineCpu.medianOn() / engineCpu.medianOff();
        final double meanRatio = fixMean.medianOn() / fixMean.medianOff();
        final double p99Ratio = fixP99.medianOn() / fixP99.medianOff();
        System.out.println();
        System.out.printf(Locale.ROOT, "engine-throughput commands/s, median: on %,.0f, off %,.0f: on ÷ off %.3f (cost %.1f %%);"
                + " per CPU second %.3f%n", engine.medianOn(), engine.medianOff(), engineRatio, 100 * (1 - engineRatio),
                engineCpuRatio);
        System.out.printf(Locale.ROOT, "fix-round-trip mean, median: on %.2f µs, off %.2f µs: on ÷ off %.3f (cost %.1f %%);"
                + " p99 on %.2f µs, off %.2f µs: on ÷ off %.3f%n", fixMean.medianOn(), fixMean.medianOff(), meanRatio,
                100 * (meanRatio - 1), fixP99.medianOn(), fixP99.medianOff(), p99Ratio);
        System.out.println("target: at most 3 % cost");
        final Path file = BenchResult.of("checksum-cost")
                .put("rounds", rounds).put("engineOrders", engineOrders).put("fixOrders", fixOrders)
                .put("engine", engine.json(ENGINE_RATE).put("ratio", engineRatio).put("cpuRatio", engineCpuRatio))
                .put("fix", fixMean.json("meanUs").put("p99UsOn", fixP99.on).put("p99UsOff", fixP99.off)
                        .put("meanRatio", meanRatio).put("p99Ratio", p99Ratio))
                .write(BenchResult.resultsDir());
        System.out.println("wrote " + file);
        return 0;
    }

    /** Runs one scenario in a child JVM from its {@code main} class, checksums {@code on} or off; @return its result JSON */
    private Map<String, Object> child(final Path scratch, final int round, final boolean on, final Class<?> main,
                                      final String scenario, final String... args) throws IOException, InterruptedException {
        final String name = scenario + "-round" + round + (on ? "-on" : "-off");
        final Path results = scratch.resolve(name);
        final List<String> jvm = new ArrayList<>(List.of("-Dsluice.results=" + results));
        if (!on) {
            jvm.add("-D" + RecordChecksum.SWITCH_PROPERTY + "=off");
        }
        try (JavaProcess child = JavaProcess.start(name, scratch.resolve(name + ".log"), jvm, main, args)) {
            final int exit = child.waitFor(timeoutSeconds);
            if (exit != 0) {
                throw new IllegalStateException(name + " exited with " + exit + ":\n" + child.logText());
            }
        }
        return ResultJson.read(results.resolve(scenario + "-latest.json"));
    }

    private static double number(final Map<String, Object> result, final String path) {
        final Double value = ResultPath.of(path).number(result);
        if (value == null) {
            throw new IllegalStateException("no " + path + " in the child's result");
        }
        return value;
    }

    /** One figure's values, per arm, round by round. */
    private static final class Arms {
        final List<Double> on = new ArrayList<>();
        final List<Double> off = new ArrayList<>();

        void add(final boolean checksums, final double value) {
            (checksums ? on : off).add(value);
        }

        double medianOn() {
            return median(on);
        }

        double medianOff() {
            return median(off);
        }

        BenchResult json(final String name) {
            return BenchResult.section().put(name + "On", on).put(name + "Off", off)
                    .put(name + "OnMedian", medianOn()).put(name + "OffMedian", medianOff());
        }

        private static double median(final List<Double> values) {
            final List<Double> sorted = values.stream().sorted().toList();
            final int n = sorted.size();
            return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        }
    }
}
