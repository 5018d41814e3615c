package io.sluice.bench.tail;

import io.sluice.bench.IdleOption;
import io.sluice.bench.engine.JournalRoundTripBench;
import io.sluice.bench.engine.PreWrittenJournals;
import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.tools.report.LatencyTable;
import io.sluice.tools.tail.LiveTailProcess;
import io.sluice.tools.tail.TailMain;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench tail-live-impact}: what a live tail does to the latency of the writers it follows. The
 * journal round trip ({@link JournalRoundTripBench}: two gateway threads, the engine, back) runs at a fixed
 * offered rate, in rounds, once without and once with a live tail (a real child process running
 * {@code ./sluice tail} on the same journal root), the order alternating from round to round; each run has
 * fresh journals. Prints p50/p99/p99.9 of every run, of all runs of each kind together, the p99 ratio with
 * its spread over the rounds, the tail's CPU use and what it read. The target: p99 changes by at most 10 %.
 */
@Command(name = "tail-live-impact", mixinStandardHelpOptions = true,
        description = "Journal round trip at a fixed rate, A/B without and with a live tail process: p99 ratio.")
public final class TailLiveImpactBenchmark implements Callable<Integer> {
    private static final double TARGET_RATIO = 1.10;
    /** A run that achieves less than this share of the offered rate fell behind: its figures are suspect. */
    private static final double KEPT_RATE = 0.97;

    @Option(names = "--rounds", description = "rounds, each one run without and one with the tail (default ${DEFAULT-VALUE})")
    private int rounds = 5;

    @Option(names = "--orders", description = "commands per gateway per run (default ${DEFAULT-VALUE})")
    private long orders = 150_000;

    @Option(names = "--rate", description = "commands per second per gateway, paced (default ${DEFAULT-VALUE})")
    private long rate = 10_000;

    @Option(names = "--window", description = "most unanswered commands per gateway (default ${DEFAULT-VALUE})")
    private int window = 64;

    @Option(names = "--engine-idle", converter = IdleOption.class,
            description = "engine idle strategy, an Agrona alias: spin, yield, backoff, ... (default ${DEFAULT-VALUE})")
    private IdleConfig engineIdle = IdleConfig.of("backoff");

    @Option(names = "--control", description = "A/A control: the runs 'with tail' start no tail, so the ratio shows "
            + "only this machine's run-to-run noise")
    private boolean control;

    @Option(names = "--tail-jvm", split = " ", paramLabel = "FLAG",
            description = "more JVM flags for the tail's process, space-separated, after those of " + TailMain.LIVE_JVM_OPTIONS
                    + ", e.g. \"-XX:TieredStopAtLevel=4\" to let it compile with C2 too")
    private List<String> tailJvm = List.of();

    private final LatencyTable table = new LatencyTable(System.out, 26);
    private double tailCpuSeconds;
    private double tailWallSeconds;
    private int runsBehind;

    public static void main(final String[] args) {
        final int code = new CommandLine(new TailLiveImpactBenchmark()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || orders < 10 || rate < 1) {
            System.err.println("tail-live-impact: --rounds, --orders and --rate must be positive (orders at least 10)");
            return 2;
        }
        System.out.printf(Locale.ROOT, "journal round trip, 2 gateways x %,d commands at %,d/s each (window %d, engine idle %s), "
                + "%d rounds without and with a live tail process%s%s; warming up ...%n", orders, rate, window, engineIdle.describe(), rounds,
                tailJvm.isEmpty() ? "" : " (tail JVM flags " + String.join(" ", tailJvm) + ")",
                control ? " (A/A CONTROL: no tail is started; 'with tail' runs are a second baseline)" : "");
        run(Math.max(10, orders / 5), false); // JIT warm-up of the round trip in this JVM, not counted
        final Histogram without = new Histogram(3);
        final Histogram with = new Histogram(3);
        final double[] ratios = new double[rounds];
        table.header();
        for (int round = 0; round < rounds; round++) {
            final boolean tailFirst = round % 2 == 1;
            final Run first = runAndShow(round, tailFirst);
            final Run second = runAndShow(round, !tailFirst);
            final Histogram a = (tailFirst ? second : first).figures.total();
            final Histogram b = (tailFirst ? first : second).figures.total();
            without.add(a);
            with.add(b);
            ratios[round] = b.getValueAtPercentile(99) / (double) a.getValueAtPercentile(99);
        }
        System.out.println("all rounds:");
        table.header();
        table.rowNanos("without tail", without);
        table.rowNanos("with tail", with);
        final double pooled = with.getValueAtPercentile(99) / (double) without.getValueAtPercentile(99);
        final double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        final double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        System.out.printf(Locale.ROOT, "p99 with / without tail: %.3f over all rounds (%+.1f %%); per round %s, median %.3f, "
                        + "range %.3f .. %.3f; target <= %.2f: %s%s%n", pooled, 100 * (pooled - 1), text(ratios),
                sorted[rounds / 2], sorted[0], sorted[rounds - 1], TARGET_RATIO,
                control ? "no verdict (A/A control: this is the noise)" : verdict(pooled, sorted[rounds / 2]),
                runsBehind == 0 ? "" : " (inconclusive: " + runsBehind + " runs fell behind the offered rate)");
        final double tailCpuShare = tailWallSeconds > 0 ? tailCpuSeconds / tailWallSeconds : 0;
        System.out.printf(Locale.ROOT, "the tail used %.1f %% of a core while following; load average %.1f on %d CPUs%n",
                100 * tailCpuShare, load, Runtime.getRuntime().availableProcessors());
        // A control run is kept apart from the scenario's results, which the report reads.
        final Path file = BenchResult.of(control ? "tail-live-impact-control" : "tail-live-impact").put("rounds", rounds)
                .put("ordersPerGateway", orders).put("ratePerGateway", rate).put("window", window).put("engineIdle", engineIdle.describe())
                .put("tailJvm", String.join(" ", tailJvm)).put("control", control)
                .put("p99Ratio", pooled).put("p99RatioMedian", sorted[rounds / 2]).put("p99RatioMin", sorted[0])
                .put("p99RatioMax", sorted[rounds - 1]).put("tailCpuShare", tailCpuShare)
                .put("loadAverage", load).put("runsBehindOfferedRate", runsBehind)
                .putLatencyNanos("withoutTail", without).putLatencyNanos("withTail", with)
                .write(BenchResult.resultsDir());
        System.out.println("wrote " + file);
        return 0;
    }

    private Run runAndShow(final int round, final boolean withTail) throws Exception {
        final boolean tailStarted = withTail && !control;
        final Run run = run(orders, tailStarted);
        table.rowNanos("round " + (round + 1) + (withTail ? " with tail" : " without"), run.figures.total());
        final double achieved = orders / run.seconds();
        System.out.printf(Locale.ROOT, "  %,.0f commands/s per gateway achieved of %,d/s offered%s%n", achieved, rate,
                achieved < KEPT_RATE * rate ? ": the machine did not keep up, so this run's latencies are not at the offered rate" : "");
        if (achieved < KEPT_RATE * rate) {
            runsBehind++;
        }
        if (tailStarted) {
            System.out.printf(Locale.ROOT, "  the tail read %,d commands and %,d reports of %,d commands written; "
                            + "it used %.2f s CPU in %.2f s (%.1f %% of a core)%n", run.tailCommands, run.tailReports,
                    orders * PreWrittenJournals.GATEWAYS.length, run.tailCpuSeconds, run.seconds(),
                    100 * run.tailCpuSeconds / run.seconds());
            tailCpuSeconds += run.tailCpuSeconds;
            tailWallSeconds += run.seconds();
        }
        return run;
    }

    /** One round trip run on fresh journals, with or without a live tail following them. */
    private Run run(final long ordersPerGateway, final boolean withTail) throws Exception {
        final Path root = Files.createTempDirectory("sluice-tail-impact");
        try {
            if (!withTail) {
                return new Run(JournalRoundTripBench.measure(root, settings(ordersPerGateway)), 0, 0, 0);
            }
            for (final int gateway : PreWrittenJournals.GATEWAYS) {
                Journals.open(Journals.gatewayJournal(root, gateway)).close();
            }
            Journals.open(Journals.engineJournal(root)).close();
            try (LiveTailProcess tail = LiveTailProcess.start(root, root.resolve("tail.log"), tailJvm)) {
                final double cpuStart = tail.cpuSeconds();
                final JournalRoundTripBench.Figures figures =
                        JournalRoundTripBench.measure(root, settings(ordersPerGateway));
                final double cpu = tail.cpuSeconds() - cpuStart;
                tail.stop();
                return new Run(figures, cpu, tail.commandsRead(), tail.reportsRead());
            }
        } finally {
            PreWrittenJournals.delete(root);
        }
    }

    private JournalRoundTripBench.Settings settings(final long ordersPerGateway) {
        return new JournalRoundTripBench.Settings(ordersPerGateway, window, engineIdle, IdleConfig.of("backoff"),
                CpuPinning.NONE, rate);
    }

    /** Met or not only when all rounds together and the median round agree; otherwise the noise decides. */
    private static String verdict(final double pooled, final double median) {
        if ((pooled <= TARGET_RATIO) != (median <= TARGET_RATIO)) {
            return "inconclusive (all rounds together and the median round disagree)";
        }
        return pooled <= TARGET_RATIO ? "met" : "NOT met";
    }

    private static String text(final double[] ratios) {
        final StringBuilder text = new StringBuilder();
        for (final double ratio : ratios) {
            text.append(text.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.3f", ratio));
        }
        return text.toString();
    }

    /** What one run measured. */
    private record Run(JournalRoundTripBench.Figures figures, double tailCpuSeconds, long tailCommands, long tailReports) {
        double seconds() {
            return figures.nanos() / 1e9;
        }
    }
}
