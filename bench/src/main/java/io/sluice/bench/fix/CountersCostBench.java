package io.sluice.bench.fix;

import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.MachineProbe;
import io.sluice.tools.fix.StandardOrders;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench fix-round-trip-counters}: what the live counters cost the FIX round trip (target: at most
 * 2 % on p50 and p99). Two whole deployments, each an engine and a gateway in child JVMs with the same config but for
 * {@code counters}: true in one (every engine and gateway counter kept in their counters files, as shipped) and false
 * in the other (no counters file, and no counter written on the hot threads). One client measures their ping-pong
 * round trips in the same run, in slices, the arms taking turns, which goes first alternating round by round ({@link
 * FixMeasurement}); while one arm has its turn
 * the other's processes are stopped (SIGSTOP, then SIGCONT at its next turn), so each has the machine to itself, as
 * it would alone, and both stay warm. {@code --control} runs both arms with counters on: how far two identical
 * arms differ by themselves here.
 */
@Command(name = "./sluice bench fix-round-trip-counters", mixinStandardHelpOptions = true, sortOptions = false,
        description = "The FIX round trip (ping-pong, 1 NewOrderSingle -> ack + fill) with counters on against the same"
                + " deployment with counters off (engine and gateway), in the same run, the arms taking turns."
                + " --control: both arms with counters on.")
public final class CountersCostBench implements Callable<Integer> {
    private static final String SCENARIO = "fix-round-trip-counters";
    static final String ON = "Sluice TCP, counters on";
    static final String OFF = "Sluice TCP, counters off";

    @Mixin
    private ArmOrderOptions slices = new ArmOrderOptions(50_000, 200_000, 20);

    @Mixin
    private ArmPairOptions options;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new CountersCostBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final boolean control = options.control();
        final long warmup = slices.warmup();
        final long orders = slices.orders();
        final int rounds = slices.rounds();
        try (ArmPair pair = ArmPair.start("sluice-counters-bench", options.idle(), new ArmPair.Arm(ON, "on", ""),
                new ArmPair.Arm(control ? ON + " (2)" : OFF, "off", control ? "" : "counters: false"))) {
            final List<PausableDeployment> arms = pair.arms();
            for (final PausableDeployment arm : arms) {
                System.out.printf("%s: engine pid %d, gateway pid %d, counters files: %s%n", arm.label(),
                        arm.sluice().engine().pid(), arm.sluice().gateway(1).pid(), arm.countersFiles());
                if (arm.label().endsWith(", counters off") != arm.countersFiles().isEmpty()) {
                    throw new IllegalStateException(arm.label() + ": counters files " + arm.countersFiles());
                }
            }
            final String loadBefore = MachineProbe.loadAverageLine();
            final FixMeasurement measurement = new FixMeasurement(StandardOrders.BUY, options.runTimeout(), System.out,
                    target -> {
                        for (final PausableDeployment arm : arms) {
                            arm.running(arm.label().equals(target.label()));
                        }
                    }).alternating();
            final List<MeasuredRun> runs;
            try {
                runs = measurement.measure(pair.targets(), 1, warmup, orders, rounds);
            } finally {
                pair.allRunning();
            }
            final String loadAfter = MachineProbe.loadAverageLine();
            for (final PausableDeployment arm : arms) {
                if (arm.seederFailure() != null) {
                    System.out.println("note: " + arm.label() + ": the liquidity seeder reported: " + arm.seederFailure());
                }
            }
            System.out.println("load average (1, 5, 15 min) before: " + loadBefore + ", after: " + loadAfter);
            FixBenchReport.printAndSave(options.scenario(SCENARIO), String.format(
                    "FIX round trip, ping-pong, counters on vs off (engine and gateway), %,d warm-up + %,d measured"
                            + " per arm in %d slices, the other arm stopped during each slice", warmup, orders, rounds),
                    runs, BenchResult.section().put("warmup", warmup).put("orders", orders).put("rounds", rounds)
                            .put("sluiceIdle", options.idleLabel()).put("control", control)
                            .put("loadAverageBefore", loadBefore).put("loadAverageAfter", loadAfter), System.out);
        }
        return 0;
    }
}
