package io.sluice.bench.fix;

import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.MachineProbe;
import io.sluice.engine.snapshot.SnapshotMain;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.fix.StandardOrders;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code ./sluice bench snapshotter-impact}: what a snapshotter following the live journals costs the live engine. The
 * snapshotter is {@code ./sluice snapshot --follow}, a process of its own (target: at most 10 %). Two identical
 * deployments (each an
 * engine and a TCP gateway, child JVMs, {@link PausableDeployment}) under a pipelined FIX load (a window of orders in
 * flight, each answered with an ack and a fill), measured in slices taking turns, which goes first alternating
 * ({@link FixMeasurement}), the other deployment stopped (SIGSTOP) meanwhile; a snapshotter follows one of them and
 * is stopped whenever that one is. {@code --control}: the snapshotter stays stopped, an A/A run. Before each slice
 * with it, the snapshotter is resumed and left to catch up with the
 * inputs of the slice before (until its {@code sluice_snapshotter_engine_index} counter reaches the engine's
 * {@code sluice_engine_journal_index}), so that each slice sees it keeping up with the live flow, as it would alone.
 * Figures per arm: orders/s and round-trip percentiles, and their ratios, with the
 * snapshotter's share of a core during its slices.
 */
@Command(name = "./sluice bench snapshotter-impact", mixinStandardHelpOptions = true, sortOptions = false,
        description = "The live engine's throughput and round trip under a pipelined FIX load, with a snapshotter"
                + " following its journals (./sluice snapshot --follow) and without, in the same run, slices taking turns."
                + " --control: the snapshotter stays stopped in both arms.")
public final class SnapshotterImpactBench implements Callable<Integer> {
    private static final String SCENARIO = "snapshotter-impact";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final long CATCH_UP_POLL_MILLIS = 20;
    private static final long CATCH_UP_LIMIT_MILLIS = 30_000;
    static final String WITHOUT = "Sluice TCP, no snapshotter";
    static final String WITH = "Sluice TCP, snapshotter following";

    @Mixin
    private ArmOrderOptions slices = new ArmOrderOptions(50_000, 200_000, 10);

    @Option(names = "--window", description = "orders in flight (default ${DEFAULT-VALUE})")
    private int window = 16;

    @Option(names = "--snapshot-every", description = "the snapshotter's --every: a snapshot after every N-th input"
            + " (default ${DEFAULT-VALUE})")
    private long snapshotEvery = 50_000;

    @Option(names = "--snapshotter-priority", description = "the snapshotter's --priority: normal or idle"
            + " (SCHED_IDLE) (default ${DEFAULT-VALUE})")
    private String snapshotterPriority = "normal";

    @Mixin
    private ArmPairOptions options;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new SnapshotterImpactBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final boolean control = options.control();
        final long warmup = slices.warmup();
        final long orders = slices.orders();
        final int rounds = slices.rounds();
        try (ArmPair pair = ArmPair.start("sluice-snapshotter-bench", options.idle(),
                new ArmPair.Arm(WITHOUT, "without", ""), new ArmPair.Arm(WITH, "with", ""))) {
            final Path root = pair.root();
            final List<PausableDeployment> arms = pair.arms();
            final PausableDeployment followed = arms.get(1);
            final Path engineConfig = followed.sluice().root().resolve("config/engine.yaml");
            try (JavaProcess snapshotter = JavaProcess.start("snapshotter", root.resolve("snapshotter.log"), List.of(),
                    SnapshotMain.class, "--config", engineConfig.toString(), "--follow", "--every",
                    Long.toString(snapshotEvery), "--priority", snapshotterPriority)) {
                final Snapshotter follower = new Snapshotter(snapshotter,
                        new CountersDirectory(followed.sluice().journals()));
                follower.awaitFollowing();
                System.out.println("snapshotter following " + WITH + " (pid " + snapshotter.pid() + "): "
                        + snapshotter.logText().strip());
                final String loadBefore = MachineProbe.loadAverageLine();
                final FixMeasurement measurement = new FixMeasurement(StandardOrders.BUY,
                        options.runTimeout(), System.out, target -> {
                            for (final PausableDeployment arm : arms) {
                                if (!arm.label().equals(target.label())) {
                                    if (arm == followed) {
                                        follower.running(false);
                                    }
                                    arm.running(false);
                                }
                            }
                            for (final PausableDeployment arm : arms) {
                                if (arm.label().equals(target.label())) {
                                    arm.running(true);
                                    if (arm == followed) {
                                        follower.running(!control);
                                    }
                                }
                            }
                        }).alternating();
                final List<MeasuredRun> runs;
                try {
                    runs = measurement.measure(pair.targets(), window, warmup, orders, rounds);
                } finally {
                    pair.allRunning();
                    follower.running(true);
                }
                final String loadAfter = MachineProbe.loadAverageLine();
                if (!snapshotter.isAlive()) {
                    throw new IllegalStateException("the snapshotter stopped: " + snapshotter.logText());
                }
                final int stopped = snapshotter.stop(30);
                final String log = snapshotter.logText().strip();
                System.out.println("snapshotter (exit " + stopped + "): " + log.substring(log.lastIndexOf('\n') + 1));
                System.out.println("load average (1, 5, 15 min) before: " + loadBefore + ", after: " + loadAfter);
                if (control) {
                    System.out.println("A/A control: the snapshotter stayed stopped in both arms (the labels are the"
                            + " arms' names only)");
                }
                FixBenchReport.printAndSave(options.scenario(SCENARIO), String.format(Locale.ROOT,
                        "Live engine under pipelined FIX orders (window %d), with a snapshotter following its journals"
                                + " (--every %,d, priority %s) vs none, %,d warm-up + %,d measured per arm in %d slices,"
                                + " the other deployment stopped", window, snapshotEvery, snapshotterPriority, warmup,
                        orders, rounds), runs,
                        BenchResult.section().put("warmup", warmup).put("snapshotterPriority", snapshotterPriority)
                                .put("control", control)
                                .put("orders", orders).put("rounds", rounds).put("window", window)
                                .put("sluiceIdle", options.idleLabel()).put("snapshotEvery", snapshotEvery)
                                .put("loadAverageBefore", loadBefore).put("loadAverageAfter", loadAfter)
                                .put("snapshotterCpuShareDuringItsSlices", follower.cpuShare())
                                .put("snapshotterCatchUpMillis", follower.catchUpMillis), System.out);
                if (!control) {
                    System.out.printf(Locale.ROOT, "the snapshotter used %.0f %% of a core during its slices (and caught"
                            + " up before them in %,d ms in all)%n", 100 * follower.cpuShare(), follower.catchUpMillis);
                }
            }
        }
        return 0;
    }

    /** The snapshotter process: stopped or resumed at each turn, and how much CPU it took while running. */
    private static final class Snapshotter {
        private final JavaProcess process;
        private final CountersDirectory counters;
        private boolean running = true;
        private long cpuTicksRunning;
        private long nanosRunning;
        private long resumedCpuTicks;
        private long resumedNanos;
        long catchUpMillis;

        Snapshotter(final JavaProcess process, final CountersDirectory counters) {
            this.process = process;
            this.counters = counters;
        }

        void awaitFollowing() {
            final long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            while (!process.logText().contains("snapshot: following")) { // its counters file exists from then on
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the snapshotter did not start following: " + process.logText());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(CATCH_UP_POLL_MILLIS)); // between looks at its log
            }
            awaitIdle();
            resumedCpuTicks = cpuTicks();
            resumedNanos = System.nanoTime();
        }

        /** Resumes it and waits until it has caught up, or stops it; and accounts its CPU time while running. */
        void running(final boolean run) {
            if (run == running) {
                if (run) {
                    awaitIdle();
                }
                return;
            }
            if (run) {
                signal("-CONT");
                final long start = System.nanoTime();
                awaitIdle();
                catchUpMillis += (System.nanoTime() - start) / 1_000_000;
                resumedCpuTicks = cpuTicks();
                resumedNanos = System.nanoTime();
            } else {
                cpuTicksRunning += cpuTicks() - resumedCpuTicks;
                nanosRunning += System.nanoTime() - resumedNanos;
                signal("-STOP");
            }
            running = run;
        }

        /** @return its CPU time during the slices it ran in, as a share of one core */
        double cpuShare() {
            return nanosRunning == 0 ? 0 : cpuTicksRunning * (1e9 / CLOCK_TICKS_PER_SECOND) / nanosRunning;
        }

        /** Waits until it has re-run every input the engine journal records (its counter reaches the engine's). */
        private void awaitIdle() {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CATCH_UP_LIMIT_MILLIS);
            while (System.nanoTime() < deadline) {
                final long engine = gauge("engine", "sluice_engine_journal_index");
                if (engine > 0 && gauge("snapshotter", "sluice_snapshotter_engine_index") == engine) {
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(CATCH_UP_POLL_MILLIS)); // the look's interval
            }
            System.out.println("note: the snapshotter had not caught up after " + CATCH_UP_LIMIT_MILLIS + " ms");
        }

        private long gauge(final String processName, final String metric) {
            for (final CountersDirectory.ProcessCounters process : counters.read()) {
                if (process.process().equals(processName)) {
                    for (final CountersDirectory.Counter counter : process.counters()) {
                        if (counter.label().metric().equals(metric)) {
                            return counter.value();
                        }
                    }
                }
            }
            return -1;
        }

        private long cpuTicks() {
            try {
                final String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
                final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime (fields 14, 15)
            } catch (final IOException e) {
                throw new IllegalStateException("cannot read the snapshotter's CPU time", e);
            }
        }

        private void signal(final String signal) {
            try {
                final Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
                if (kill.waitFor() != 0) {
                    throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed");
                }
            } catch (final IOException e) {
                throw new IllegalStateException("kill " + signal + " failed", e);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        /** USER_HZ: the unit of /proc's CPU times, 100 on Linux. */
        private static final double CLOCK_TICKS_PER_SECOND = 100;
    }
}
