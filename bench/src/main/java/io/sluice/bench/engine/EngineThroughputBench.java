package io.sluice.bench.engine;

import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.FirmLimitsConfig;
import io.sluice.engine.config.RiskConfig;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.journal.JournalPretoucher;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench engine-throughput [--orders N]}: the engine flat out over a pre-written journal of mixed
 * commands. The mix: new, cancel, replace; crossing and resting; three instruments; two gateways. A warm-up of {@code
 * --warmup} commands runs first, through another engine instance in the same JVM. Reports
 * commands/s and reports/s, and as the ceiling, measured in the same run, the raw Chronicle rate of
 * appending as many execution reports through a method writer, one per excerpt, with the same
 * {@link JournalPretoucher} setting as the engine; and how fast a restarted engine recovers from those journals
 * (re-running every input and comparing every report with the recorded one). Wall time and the
 * thread's CPU time are both reported: on a shared machine the CPU time is the steadier of the two.
 */
@Command(name = "engine-throughput", mixinStandardHelpOptions = true,
        description = "Engine throughput over a pre-written journal, with the raw append rate as the ceiling.")
public final class EngineThroughputBench implements Callable<Integer> {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Option(names = "--orders", description = "commands in the pre-written journal (default ${DEFAULT-VALUE})")
    private long orders = 10_000_000;

    @Option(names = "--warmup", description = "commands run first through another engine instance in this JVM, so the"
            + " measured run meets compiled code (default ${DEFAULT-VALUE})")
    private long warmup = 1_000_000;

    @Option(names = "--no-pretouch", description = "run the engine (and the ceiling) without the journal pretoucher")
    private boolean noPretouch;

    @Option(names = "--firm-limits", paramLabel = "off|on|both", description = "pre-trade firm limits: off (no risk "
            + "section), on (every limit set for every firm, none reached), or both, one engine after the other on the same"
            + " commands after the measurement without (--rounds of each, with a second arm without them as the A/A"
            + " control), and the cost of the limits (default ${DEFAULT-VALUE})")
    private FirmLimits firmLimits = FirmLimits.OFF;

    @Option(names = "--rounds", description = "with --firm-limits both: runs of each arm, their order rotating (default ${DEFAULT-VALUE})")
    private int rounds = 3;

    @CommandLine.Mixin
    private JournalDirectory journals;

    /** Whether the measured engine checks firm limits. */
    enum FirmLimits {
        OFF,
        ON,
        BOTH
    }

    /** The arms of {@code --firm-limits both}: without limits, with them, and without them again (the A/A control). */
    private enum Arm {
        OFF("firm limits off"),
        ON("firm limits on "),
        OFF_CONTROL("off again (A/A)");

        private final String label;

        Arm(final String label) {
            this.label = label;
        }
    }

    /** One measured engine run: wall and thread CPU nanoseconds, reports written. */
    private record Run(long nanos, long cpuNanos, long reports) {
        double commandsPerSecond(final long commands) {
            return commands * 1e9 / nanos;
        }

        double commandsPerCpuSecond(final long commands) {
            return commands * 1e9 / cpuNanos;
        }
    }

    public static void main(final String[] args) {
        final int code = new CommandLine(new EngineThroughputBench()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        return journals.use("sluice-engine-throughput", root -> {
            final EngineConfig config = firmLimits == FirmLimits.ON ? withFirmLimits(config(root)) : config(root);
            System.out.printf(Locale.ROOT, "writing %,d mixed commands to %s ...%n", orders, root);
            PreWrittenJournals.write(config, root, orders);
            if (firmLimits == FirmLimits.BOTH) {
                warmUp(root.resolve("warm-up-limits-on"), true);
            }
            warmUp(root.resolve("warm-up"), firmLimits == FirmLimits.ON);

            final Run run = measure(config);
            final long engineNanos = run.nanos();
            final long engineCpuNanos = run.cpuNanos();
            final long reports = run.reports();
            final long recoveryCpuStart = THREADS.getCurrentThreadCpuTime();
            final long recoveryNanos = recover(config, orders);
            final long recoveryCpuNanos = THREADS.getCurrentThreadCpuTime() - recoveryCpuStart;

            final long ceilingCpuStart = THREADS.getCurrentThreadCpuTime();
            final long ceilingNanos = rawAppend(root.resolve("ceiling"), reports, config.pretouch());
            final long ceilingCpuNanos = THREADS.getCurrentThreadCpuTime() - ceilingCpuStart;
            final double commandsPerSecond = orders * 1e9 / engineNanos;
            final double reportsPerSecond = reports * 1e9 / engineNanos;
            final double ceilingPerSecond = reports * 1e9 / ceilingNanos;
            final double commandsPerCpuSecond = orders * 1e9 / engineCpuNanos;
            final double reportsPerCpuSecond = reports * 1e9 / engineCpuNanos;
            final double ceilingPerCpuSecond = reports * 1e9 / ceilingCpuNanos;
            System.out.printf(Locale.ROOT, "engine:  %,d commands -> %,d reports in %.2f s (%.2f s thread CPU): "
                            + "%,.0f commands/s, %,.0f reports/s; per CPU second %,.0f commands, %,.0f reports%n",
                    orders, reports, engineNanos / 1e9, engineCpuNanos / 1e9, commandsPerSecond, reportsPerSecond,
                    commandsPerCpuSecond, reportsPerCpuSecond);
            System.out.printf(Locale.ROOT, "ceiling: %,d reports appended raw (method writer, one per excerpt, pretouch "
                    + config.pretouch() + ") in %.2f s "
                            + "(%.2f s thread CPU): %,.0f reports/s; per CPU second %,.0f reports%n",
                    reports, ceilingNanos / 1e9, ceilingCpuNanos / 1e9, ceilingPerSecond, ceilingPerCpuSecond);
            System.out.printf(Locale.ROOT, "recovery: the %,d commands re-run and every report compared with the recorded one"
                    + " in %.2f s (%.2f s thread CPU): %,.0f inputs/s; per CPU second %,.0f%n", orders, recoveryNanos / 1e9,
                    recoveryCpuNanos / 1e9, orders * 1e9 / recoveryNanos, orders * 1e9 / recoveryCpuNanos);
            System.out.printf(Locale.ROOT, "engine reports/s as share of the ceiling: %.0f %% (per CPU second: %.0f %%)%n",
                    100 * reportsPerSecond / ceilingPerSecond, 100 * reportsPerCpuSecond / ceilingPerCpuSecond);
            final Path file = BenchResult.of("engine-throughput").put("commands", orders).put("warmupCommands", warmup)
                    .put("reports", reports).put("pretouch", config.pretouch() ? 1 : 0)
                    .put("engineSeconds", engineNanos / 1e9).put("engineCpuSeconds", engineCpuNanos / 1e9)
                    .put("commandsPerSecond", commandsPerSecond).put("reportsPerSecond", reportsPerSecond)
                    .put("commandsPerCpuSecond", commandsPerCpuSecond).put("ceilingReportsPerSecond", ceilingPerSecond)
                    .put("ceilingReportsPerCpuSecond", ceilingPerCpuSecond)
                    .put("shareOfCeiling", reportsPerSecond / ceilingPerSecond)
                    .put("shareOfCeilingPerCpuSecond", reportsPerCpuSecond / ceilingPerCpuSecond)
                    .put("recoverySeconds", recoveryNanos / 1e9).put("recoveryInputsPerSecond", orders * 1e9 / recoveryNanos)
                    .put("recoveryInputsPerCpuSecond", orders * 1e9 / recoveryCpuNanos)
                    .write(BenchResult.resultsDir());
            System.out.println("wrote " + file);
            if (firmLimits == FirmLimits.BOTH) {
                compareWithFirmLimits(config, withFirmLimits(config(root)));
            }
            return 0;
        });
    }

    /** Runs an engine over the journals under {@code config}'s root, which hold {@link #orders} commands. */
    private Run measure(final EngineConfig config) {
        try (EngineService service = EngineService.launch(config)) {
            final long cpuStart = THREADS.getCurrentThreadCpuTime();
            final long start = System.nanoTime();
            while (service.processed() < orders) {
                service.poll();
            }
            return new Run(System.nanoTime() - start, THREADS.getCurrentThreadCpuTime() - cpuStart,
                    service.reportsWritten());
        }
    }

    /**
     * Prints and writes what the firm limits cost: the same commands (the journals already written) through an engine
     * without them, one with them, and another without them (the A/A control, which shows how far two identical arms
     * differ on this machine), {@link #rounds} times each, the three arms' order rotating every round, a fresh engine
     * journal each time; compares the medians, and the CPU nanoseconds each arm spends per command.
     */
    private void compareWithFirmLimits(final EngineConfig plain, final EngineConfig limited) {
        final Run[][] runs = new Run[Arm.values().length][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int turn = 0; turn < Arm.values().length; turn++) {
                final Arm arm = Arm.values()[(turn + round) % Arm.values().length];
                PreWrittenJournals.delete(Journals.engineJournal(plain.journalRoot()));
                final Run run = measure(arm == Arm.ON ? limited : plain);
                runs[arm.ordinal()][round] = run;
                System.out.printf(Locale.ROOT, "round %d, %s: %,.0f commands/s (%,.0f per CPU second, %.1f CPU ns per"
                                + " command), %,d reports%n", round + 1, arm.label, run.commandsPerSecond(orders),
                        run.commandsPerCpuSecond(orders), run.cpuNanos / (double) orders, run.reports());
            }
        }
        final Run off = median(runs[Arm.OFF.ordinal()]);
        final Run on = median(runs[Arm.ON.ordinal()]);
        final Run control = median(runs[Arm.OFF_CONTROL.ordinal()]);
        final double wallCost = 1 - on.commandsPerSecond(orders) / off.commandsPerSecond(orders);
        final double controlWall = 1 - control.commandsPerSecond(orders) / off.commandsPerSecond(orders);
        // CPU figures: each arm's median CPU time, apart from which run had the median wall time.
        final double offCpuNanos = medianCpuNanos(runs[Arm.OFF.ordinal()]) / (double) orders;
        final double onCpuNanos = medianCpuNanos(runs[Arm.ON.ordinal()]) / (double) orders;
        final double controlCpuNanos = medianCpuNanos(runs[Arm.OFF_CONTROL.ordinal()]) / (double) orders;
        final double cpuCost = 1 - offCpuNanos / onCpuNanos;
        final double controlCpu = 1 - offCpuNanos / controlCpuNanos;
        System.out.printf(Locale.ROOT, "firm limits, medians of %d rounds: off %,.0f commands/s (%,.0f per CPU second), "
                        + "on %,.0f commands/s (%,.0f per CPU second): cost %.1f %% of wall time throughput, %.1f %% per CPU"
                        + " second%n", rounds, off.commandsPerSecond(orders), 1e9 / offCpuNanos,
                on.commandsPerSecond(orders), 1e9 / onCpuNanos, 100 * wallCost, 100 * cpuCost);
        System.out.printf(Locale.ROOT, "A/A control, off again: %,.0f commands/s (%,.0f per CPU second): differs from off"
                        + " by %.1f %% of wall time throughput, %.1f %% per CPU second%n",
                control.commandsPerSecond(orders), 1e9 / controlCpuNanos, 100 * controlWall, 100 * controlCpu);
        System.out.printf(Locale.ROOT, "CPU per command, medians: off %.1f ns, on %.1f ns (%+.1f ns), off again %.1f ns%n",
                offCpuNanos, onCpuNanos, onCpuNanos - offCpuNanos, controlCpuNanos);
        final Path file = BenchResult.of("engine-firm-limits").put("commands", orders).put("rounds", rounds)
                .put("offCommandsPerSecond", off.commandsPerSecond(orders))
                .put("offCommandsPerCpuSecond", 1e9 / offCpuNanos)
                .put("onCommandsPerSecond", on.commandsPerSecond(orders))
                .put("onCommandsPerCpuSecond", 1e9 / onCpuNanos)
                .put("controlCommandsPerSecond", control.commandsPerSecond(orders))
                .put("controlCommandsPerCpuSecond", 1e9 / controlCpuNanos)
                .put("costOfWallThroughput", wallCost).put("costPerCpuSecond", cpuCost)
                .put("controlCostOfWallThroughput", controlWall).put("controlCostPerCpuSecond", controlCpu)
                .put("offCpuNanosPerCommand", offCpuNanos).put("onCpuNanosPerCommand", onCpuNanos)
                .put("controlCpuNanosPerCommand", controlCpuNanos)
                .write(BenchResult.resultsDir());
        System.out.println("wrote " + file);
    }

    /** @return the median of the runs' thread CPU nanoseconds */
    private static long medianCpuNanos(final Run[] runs) {
        final long[] cpu = new long[runs.length];
        for (int i = 0; i < runs.length; i++) {
            cpu[i] = runs[i].cpuNanos();
        }
        Arrays.sort(cpu);
        return cpu[cpu.length / 2];
    }

    /** @return the run of median wall time (the CPU time of that same run) */
    private static Run median(final Run[] runs) {
        final Run[] sorted = runs.clone();
        Arrays.sort(sorted, Comparator.comparingLong(Run::nanos));
        return sorted[sorted.length / 2];
    }

    /**
     * @return {@code config} with every firm limit set, for every firm (each session of the flow is its own firm), so
     *         high that none is reached: every check runs, the reports are those without limits
     */
    static EngineConfig withFirmLimits(final EngineConfig config) {
        final FirmLimitsConfig everyLimit = new FirmLimitsConfig();
        for (final FirmLimit limit : FirmLimit.values()) {
            everyLimit.value(limit, limit.maxValue());
        }
        return config.risk(new RiskConfig().defaults(everyLimit)).restartFromSnapshots(false);
    }

    /** @return the engine config for journals under {@code root}: the busy-spinning engine, pretouching unless told not to */
    private EngineConfig config(final Path root) {
        return PreWrittenJournals.config(root, IdleConfig.of("spin")).pretouch(!noPretouch);
    }

    /**
     * Restarts an engine on the journals just written: it re-runs all {@code inputs} and compares every report with
     * the recorded one, as the engine does on every start. @return nanoseconds that took
     */
    private static long recover(final EngineConfig config, final long inputs) {
        try (EngineService restarted = EngineService.launch(config)) {
            final long recovered = restarted.recovered();
            if (recovered != inputs) {
                throw new IllegalStateException("recovered " + recovered + " inputs, not " + inputs);
            }
            return restarted.context().recoveryNanos();
        }
    }

    /** Runs {@link #warmup} commands of the same mix through an engine of their own under {@code root}, then deletes them. */
    private void warmUp(final Path root, final boolean withFirmLimits) throws IOException {
        if (warmup <= 0) {
            return;
        }
        final EngineConfig config = withFirmLimits ? withFirmLimits(config(root)) : config(root);
        PreWrittenJournals.write(config, root, warmup);
        final long start = System.nanoTime();
        try (EngineService service = EngineService.launch(config)) {
            while (service.processed() < warmup) {
                service.poll();
            }
        }
        System.out.printf(Locale.ROOT, "warm-up: %,d commands through another engine instance in %.2f s%n", warmup,
                (System.nanoTime() - start) / 1e9);
        PreWrittenJournals.delete(root);
    }

    /**
     * @param pretouch with a {@link JournalPretoucher} ahead of the appender, as the engine has when so configured
     * @return nanoseconds to append {@code count} typical execution reports, one per excerpt, to a fresh journal
     */
    static long rawAppend(final Path journal, final long count, final boolean pretouch) {
        final JournalPretoucher pretoucher = new JournalPretoucher("ceiling pretoucher", JournalPretoucher.DEFAULT_AHEAD_BYTES);
        try (ChronicleQueue queue = Journals.open(journal);
             AgentThread touching = pretouch ? AgentThread.startBackground(pretoucher) : null) {
            final ExcerptAppender appender = queue.createAppender();
            final EngineToGateway writer = Journals.methodWriter(appender, EngineToGateway.class);
            final ExecutionReport report = new ExecutionReport().execType(ExecType.TRADE).lastQty(100).cumQty(100);
            report.gatewayId(1).orderId(1).ordStatus(OrdStatus.FILLED);
            final long start = System.nanoTime();
            for (long i = 1; i <= count; i++) {
                report.execId(i).metaData().eventId(i);
                writer.executionReport(report);
                pretoucher.follow(appender);
            }
            return System.nanoTime() - start;
        }
    }
}
