package io.sluice.bench.replication;

import io.sluice.bench.report.BenchResult;
import io.sluice.kafka.KafkaCluster;
import io.sluice.replication.StandbyConfig;
import io.sluice.tools.fix.SluiceDeployment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;

/**
 * {@code ./sluice bench failover}: how long a deployment is gone when its primary host is lost. Each round
 * ({@link FailoverRound}) runs a primary and {@code ./sluice standby} on one broker, kills every primary process with
 * {@code kill -9} under a steady order flow and prints kill to detection, fenced, promoted, engine up, client logged on
 * and first fill on the standby, and the orders lost (never answered) and acknowledged twice; then p50 and max over
 * the rounds, and JSON.
 */
@Command(name = "failover", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Kill -9 of the primary under load: time to the first fill on the standby, orders lost.")
public final class FailoverBench implements Callable<Integer> {
    @Option(names = "--rounds", description = "rounds, each a fresh deployment (default ${DEFAULT-VALUE})")
    private int rounds = 10;

    @Option(names = "--rate", description = "orders a second the client sends (default ${DEFAULT-VALUE})")
    private int rate = 200;

    @Option(names = "--failover-after-ms", description = "the standby's failoverAfterMillis (default ${DEFAULT-VALUE})")
    private long failoverAfterMillis = StandbyConfig.DEFAULT_FAILOVER_AFTER_MILLIS;

    @Option(names = "--seed", description = "seed of the reports before each kill, 200 to 600 (default: the time)")
    private long seed = System.nanoTime();

    public static void main(final String[] args) {
        System.exit(new CommandLine(new FailoverBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Path dir = Files.createTempDirectory("sluice-bench-failover");
        final Random random = new Random(seed);
        final List<FailoverRound.Times> times = new ArrayList<>();
        System.out.printf(Locale.ROOT, "failover: %d rounds, %d orders/s, failoverAfterMillis %d, seed %d; ms after the"
                + " kill -9 of engine, gateway and shipper%n", rounds, rate, failoverAfterMillis, seed);
        System.out.println("round  detection  fenced  promoted  started  engine-up  gateway-up  logon  first-fill"
                + "  orders  lost  twice");
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            for (int round = 1; round <= rounds; round++) {
                final FailoverRound.Times t = FailoverRound.run(dir.resolve("round-" + round), kafka.bootstrapServers(),
                        "failover-" + round, failoverAfterMillis, rate, 200 + random.nextInt(400));
                times.add(t);
                System.out.printf(Locale.ROOT, "%5d %10d %7d %9d %8d %10d %11d %6d %11d %7d %5d %6d%n", round,
                        t.detection(), t.fenced(), t.promoted(), t.started(), t.engineUp(), t.gatewayUp(), t.logon(),
                        t.firstFill(), t.orders(), t.lost(), t.duplicated());
            }
        } finally {
            SluiceDeployment.deleteTree(dir);
        }
        final int lost = times.stream().mapToInt(FailoverRound.Times::lost).sum();
        final int twice = times.stream().mapToInt(FailoverRound.Times::duplicated).sum();
        final BenchResult result = BenchResult.of("failover")
                .put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                .put("rounds", rounds).put("ordersPerSecond", rate).put("failoverAfterMillis", failoverAfterMillis)
                .put("replication", "acknowledged")
                .put("ordersLost", lost).put("ordersAcknowledgedTwice", twice);
        System.out.println("           p50    max   (ms after the kill)");
        summarise(result, times, "detection", FailoverRound.Times::detection);
        summarise(result, times, "fenced", FailoverRound.Times::fenced);
        summarise(result, times, "promoted", FailoverRound.Times::promoted);
        summarise(result, times, "engineUp", FailoverRound.Times::engineUp);
        summarise(result, times, "gatewayUp", FailoverRound.Times::gatewayUp);
        summarise(result, times, "logon", FailoverRound.Times::logon);
        summarise(result, times, "firstFill", FailoverRound.Times::firstFill);
        System.out.printf(Locale.ROOT, "orders lost %d, acknowledged twice %d (acknowledged mode; target 0 and 0);"
                + " RTO target: first fill p50 <= 3000 ms, max <= 5000 ms%n", lost, twice);
        System.out.println("results: " + result.write(BenchResult.resultsDir()));
        return 0;
    }

    private static void summarise(final BenchResult result, final List<FailoverRound.Times> times, final String name,
                                  final ToLongFunction<FailoverRound.Times> part) {
        final RoundFigure figure = RoundFigure.of(times, part);
        System.out.printf(Locale.ROOT, "%-10s %6d %6d%n", name, figure.p50(), figure.max());
        result.put(name + "P50Ms", figure.p50()).put(name + "MaxMs", figure.max()).put(name + "Ms",
                times.stream().map(part::applyAsLong).toList());
    }
}
