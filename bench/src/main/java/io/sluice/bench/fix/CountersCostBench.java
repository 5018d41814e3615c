package io.sluice.bench.fix;

import io.sluice.bench.report.BenchResult;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench fix-round-trip-counters}: what the live counters cost the FIX round trip (issue 18: at most
 * 2 % on p50 and p99). Two whole deployments, each an engine and a gateway in child JVMs with the same config but for
 * {@code counters}: true in one (every engine and gateway counter kept in their counters files, as shipped) and false
 * in the other (no counters file, and no counter written on the hot threads). One client measures their ping-pong
 * round trips in the same run, in slices, the arms taking turns, which goes first alternating round by round ({@link FixMeasurement}); while one arm has its turn
 * the other's processes are stopped (SIGSTOP, then SIGCONT at its next turn), so each has the machine to itself, as
 * it would alone, and both stay warm. {@code --control} runs both arms with counters on: how far two identical
 * arms differ by themselves here.
 */
@Command(name = "./sluice bench fix-round-trip-counters", mixinStandardHelpOptions = true, sortOptions = false,
        description = "The FIX round trip (ping-pong, 1 NewOrderSingle -> ack + fill) with counters on against the same"
                + " deployment with counters off (engine and gateway), in the same run, the arms taking turns.")
public final class CountersCostBench implements Callable<Integer> {
    private static final String SCENARIO = "fix-round-trip-counters";
    private static final String PASSWORD = "bench";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    static final String ON = "Sluice TCP, counters on";
    static final String OFF = "Sluice TCP, counters off";

    @Option(names = "--warmup", description = "warm-up orders per arm (default ${DEFAULT-VALUE})")
    private long warmup = 50_000;

    @Option(names = "--orders", description = "measured orders per arm (default ${DEFAULT-VALUE})")
    private long orders = 200_000;

    @Option(names = "--rounds", description = "slices the measured orders go out in, arms taking turns"
            + " (default ${DEFAULT-VALUE})")
    private int rounds = 20;

    @Option(names = "--idle", description = "what the engine and gateway threads do when idle: yield, backoff,"
            + " busy-spin or engine-spin (default ${DEFAULT-VALUE}, as in ./sluice demo)")
    private String idle = SluiceIdle.YIELD.label();

    @Option(names = "--control", description = "an A/A run: both arms with counters on, to show how much two identical"
            + " arms differ by themselves (written as " + SCENARIO + "-control)")
    private boolean control;

    @Option(names = "--run-timeout", description = "seconds one slice of orders may take (default ${DEFAULT-VALUE})")
    private long runTimeoutSeconds = 600;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new CountersCostBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Path root = Files.createTempDirectory("sluice-counters-bench");
        final List<PausableDeployment> arms = new ArrayList<>();
        try {
            arms.add(PausableDeployment.start(ON, root.resolve("on"), "", SluiceIdle.parse(idle)));
            arms.add(PausableDeployment.start(control ? ON + " (2)" : OFF, root.resolve("off"), control ? "" : "counters: false",
                    SluiceIdle.parse(idle)));
            for (final PausableDeployment arm : arms) {
                System.out.printf("%s: engine pid %d, gateway pid %d, counters files: %s%n", arm.label(),
                        arm.sluice().engine().pid(), arm.sluice().gateway(1).pid(), arm.countersFiles());
                if (arm.label().endsWith(", counters off") != arm.countersFiles().isEmpty()) {
                    throw new IllegalStateException(arm.label() + ": counters files " + arm.countersFiles());
                }
            }
            final String loadBefore = loadAverage();
            final FixMeasurement measurement = new FixMeasurement(StandardOrders.BUY,
                    Duration.ofSeconds(runTimeoutSeconds), System.out, target -> {
                        for (final PausableDeployment arm : arms) {
                            arm.running(arm.label().equals(target.label()));
                        }
                    }).alternating();
            final List<FixTarget> targets = arms.stream().map(PausableDeployment::target).toList();
            final List<MeasuredRun> runs;
            try {
                runs = measurement.measure(targets, 1, warmup, orders, rounds);
            } finally {
                for (final PausableDeployment arm : arms) {
                    arm.running(true);
                }
            }
            final String loadAfter = loadAverage();
            for (final PausableDeployment arm : arms) {
                if (arm.seederFailure() != null) {
                    System.out.println("note: " + arm.label() + ": the liquidity seeder reported: " + arm.seederFailure());
                }
            }
            System.out.println("load average (1, 5, 15 min) before: " + loadBefore + ", after: " + loadAfter);
            FixBenchReport.printAndSave(control ? SCENARIO + "-control" : SCENARIO, String.format(
                    "FIX round trip, ping-pong, counters on vs off (engine and gateway), %,d warm-up + %,d measured"
                            + " per arm in %d slices, the other arm stopped during each slice", warmup, orders, rounds),
                    runs, BenchResult.section().put("warmup", warmup).put("orders", orders).put("rounds", rounds)
                            .put("sluiceIdle", idle).put("control", control).put("loadAverageBefore", loadBefore)
                            .put("loadAverageAfter", loadAfter), System.out);
        } finally {
            for (final PausableDeployment arm : arms) {
                arm.close();
            }
            SluiceDeployment.deleteTree(root);
        }
        return 0;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (final IOException e) {
            return "unknown";
        }
    }
}
