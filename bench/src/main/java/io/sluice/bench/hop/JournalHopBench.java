package io.sluice.bench.hop;

import io.sluice.bench.IdleOption;
import io.sluice.bench.report.BenchResult;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.tools.report.LatencyTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench journal-hop}: the cost of Sluice's contract layer on one journal hop. A writer
 * thread sends new orders with MetaData into a real Chronicle Queue on disk and a reader thread receives
 * them, once through the contract (generated method writer and reader on {@code GatewayToEngine}) and
 * once through raw {@code DocumentContext} writes and reads of the same DTO bytes, interleaved A/B in
 * the same JVM, at fixed rates and flat out. Prints latency percentiles (intended send time to read,
 * free of coordinated omission), throughput, bytes allocated per message on each thread, and the ratio
 * contract/raw at p50 and p99; writes it all as JSON under {@code bench/results/}.
 * <p>
 * Notes for reading the figures. The send time travels in {@code MetaData.fixReceived} as raw
 * {@code System.nanoTime()} nanoseconds (writer and reader share one JVM), not as SluiceClock ticks.
 * Writer and reader both spin by default: on a 2-core machine that is the right set-up for a hop benchmark
 * (any back-off adds its wake-up to every latency) but it leaves no core for anything else, so other
 * processes show up as millisecond stalls in p99 and above; compare the two variants by the median of the
 * per-round ratios, which A/B interleaving makes fair. Chronicle allocates about 1 KB on each thread when
 * a cycle file grows by another 64 MiB chunk (every ~550,000 orders): per chunk, not per message.
 */
@Command(name = "journal-hop", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"One journal hop, writer thread -> Chronicle Queue on disk -> reader thread:",
                "contract (method writer/reader) against raw DocumentContext, interleaved A/B."})
public final class JournalHopBench implements Callable<Integer> {
    /** The most the contract may cost relative to raw, at p50 and p99. */
    static final double TARGET_RATIO = 1.3;
    private static final int LABEL_WIDTH = 22;

    @Option(names = "--messages", defaultValue = "500000", description = "Measured orders per pass (default: ${DEFAULT-VALUE}).")
    int messages;

    @Option(names = "--rates", split = ",", defaultValue = "100000,1000000,0",
            description = "Send rates in orders/s, 0 = flat out (default: ${DEFAULT-VALUE}).")
    List<Long> rates;

    @Option(names = "--rounds", defaultValue = "5", description = "A/B rounds; each runs every rate for both variants (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup", defaultValue = "300000",
            description = "Unrecorded orders per variant before measuring, spread over the rates (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--settle", defaultValue = "10000",
            description = "Unrecorded orders at the start of every pass, while the new journal file is opened (default: ${DEFAULT-VALUE}).")
    int settle;

    @Option(names = "--codec-messages", defaultValue = "200000",
            description = "Orders per single-thread CPU cost pass per round and variant, 0 = none (default: ${DEFAULT-VALUE}).")
    int codecMessages;

    @Option(names = "--reader-idle", defaultValue = "spin", converter = IdleOption.class,
            description = "What the reader does when nothing is there, an Agrona idle strategy by alias: noop, spin, yield,"
                    + " sleep-ns, sleep-ms or backoff (default: ${DEFAULT-VALUE}: any back-off adds its wake-up time to every"
                    + " latency).")
    IdleConfig readerIdle;

    @Option(names = "--dir", defaultValue = ".",
            description = "Where to create the temporary journals, deleted after each pass (default: the working directory).")
    Path dir;

    @Option(names = "--results", description = "Directory for the JSON result (default: bench/results).")
    Path results;

    private final List<HopFigures> figures = new ArrayList<>();
    private final List<CodecCost> codecCosts = new ArrayList<>();
    private final PrintStream out = System.out;
    private Path resultFile;
    private double loadBefore;
    private double loadAfter;

    public static void main(final String[] args) {
        final int exitCode = new CommandLine(new JournalHopBench()).execute(args);
        if (exitCode != 0) {
            System.exit(exitCode);
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        if (messages <= 0 || rounds <= 0 || warmup < 0 || settle < 0 || codecMessages < 0 || rates.isEmpty()
                || rates.stream().anyMatch(rate -> rate < 0)) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--messages and --rounds must be positive, --warmup, --settle, --codec-messages and every rate >= 0");
        }
        loadBefore = loadAverage();
        out.printf(Locale.ROOT, "journal-hop: %,d orders per pass, rates %s, %d rounds, warm-up %,d, reader idle %s, "
                + "journals under %s, load average %.2f on %d CPUs%n", messages, rates, rounds, warmup, readerIdle.describe(),
                dir.toAbsolutePath().normalize(), loadBefore, Runtime.getRuntime().availableProcessors());
        warmUp();
        for (final long rate : rates) {
            for (final HopVariant variant : HopVariant.values()) {
                figures.add(new HopFigures(variant, rate));
            }
        }
        for (int round = 0; round < rounds; round++) {
            for (int r = 0; r < rates.size(); r++) {
                for (final HopVariant variant : abOrder((round + r) % 2 == 0)) {
                    final PassResult pass = new HopPass(variant, rates.get(r), messages, settle, readerIdle).run(dir);
                    figuresOf(variant, rates.get(r)).add(pass);
                    printPass(round, pass);
                }
            }
            measureCodecCost(round % 2 == 0);
        }
        loadAfter = loadAverage();
        printSummary();
        resultFile = toResult().write(results == null ? BenchResult.resultsDir() : results);
        out.println("result: " + resultFile.toAbsolutePath().normalize());
        final long outOfSequence = figures.stream().mapToLong(HopFigures::outOfSequence).sum();
        if (outOfSequence != 0) {
            System.err.println("journal-hop: " + outOfSequence + " orders arrived out of sequence");
            return 1;
        }
        return 0;
    }

    /** @return one entry per variant and rate, in the order of {@code --rates}, contract before raw. */
    List<HopFigures> figures() {
        return figures;
    }

    /** @return the time-stamped JSON file the last run wrote. */
    Path resultFile() {
        return resultFile;
    }

    private void warmUp() throws InterruptedException {
        if (warmup == 0) {
            return;
        }
        final int perPass = Math.max(1, warmup / rates.size());
        final long started = System.nanoTime();
        for (final long rate : rates) {
            for (final HopVariant variant : HopVariant.values()) {
                new HopPass(variant, rate, perPass, 0, readerIdle).run(dir);
            }
        }
        for (final HopVariant variant : HopVariant.values()) {
            if (codecMessages > 0) {
                CodecCost.measure(variant, codecMessages, dir);
            }
        }
        out.printf(Locale.ROOT, "warm-up: %,d orders per variant in %.1f s, not recorded%n",
                (long) perPass * rates.size(), (System.nanoTime() - started) / 1e9);
    }

    private void measureCodecCost(final boolean contractFirst) {
        if (codecMessages == 0) {
            return;
        }
        for (final HopVariant variant : abOrder(contractFirst)) {
            final CodecCost cost = CodecCost.measure(variant, codecMessages, dir);
            codecCosts.add(cost);
            out.printf(Locale.ROOT, "  single-thread CPU %-8s write %7.1f ns  read %7.1f ns per order%n",
                    variant.label(), cost.writeNanos(), cost.readNanos());
        }
    }

    /** Alternating which variant goes first cancels drift (page cache, neighbours, JIT) between A and B. */
    private static List<HopVariant> abOrder(final boolean contractFirst) {
        return contractFirst ? List.of(HopVariant.CONTRACT, HopVariant.RAW) : List.of(HopVariant.RAW, HopVariant.CONTRACT);
    }

    private List<Double> codecNanos(final HopVariant variant, final boolean write) {
        return codecCosts.stream().filter(cost -> cost.variant() == variant)
                .map(cost -> write ? cost.writeNanos() : cost.readNanos()).toList();
    }

    private HopFigures figuresOf(final HopVariant variant, final long rate) {
        return figures.stream().filter(f -> f.variant() == variant && f.ratePerSecond() == rate).findFirst()
                .orElseThrow();
    }

    private void printPass(final int round, final PassResult pass) {
        out.printf(Locale.ROOT, "  round %d %-8s %-12s p50 %8.2f  p99 %8.2f  max %10.2f µs  %,12.0f msg/s"
                        + "  CPU writer %3.0f%% reader %3.0f%%%s%n",
                round + 1, pass.variant().label(), HopFigures.rateLabel(pass.ratePerSecond()),
                pass.latencyNanos().getValueAtPercentile(50) / 1e3, pass.latencyNanos().getValueAtPercentile(99) / 1e3,
                pass.latencyNanos().getMaxValue() / 1e3, pass.throughputPerSecond(),
                pass.writerCpuShare() * 100, pass.readerCpuShare() * 100, pass.starved() ? "  (starved)" : "");
    }

    private void printSummary() {
        out.println();
        out.println("Latency, intended send time to read (all rounds merged):");
        final LatencyTable table = new LatencyTable(out, LABEL_WIDTH);
        table.header();
        for (final HopFigures row : figures) {
            table.rowNanos(label(row), row.latencyNanos());
        }
        out.println();
        out.printf(Locale.ROOT, "%-" + LABEL_WIDTH + "s %14s %14s %14s %11s %11s %10s%n",
                "", "msg/s", "writer B/msg", "reader B/msg", "writer CPU", "reader CPU", "excerpt B");
        for (final HopFigures row : figures) {
            out.printf(Locale.ROOT, "%-" + LABEL_WIDTH + "s %,14.0f %14.3f %14.3f %10.0f%% %10.0f%% %10d%n", label(row),
                    row.throughputPerSecond(), row.writerBytesPerMessage(), row.readerBytesPerMessage(),
                    row.writerCpuShare() * 100, row.readerCpuShare() * 100, row.excerptBytes());
        }
        final long starved = figures.stream().flatMap(row -> row.passes().stream()).filter(PassResult::starved).count();
        if (starved > 0) {
            out.printf(Locale.ROOT, "%nWARNING: in %d of %d passes the writer or reader was off the CPU more than %.0f%% of"
                            + " the time (load average %.2f -> %.2f on %d CPUs): those figures measure the scheduler.%n",
                    starved, (long) figures.size() * rounds, (1 - PassResult.BUSY_MACHINE_CPU_SHARE) * 100,
                    loadBefore, loadAfter, Runtime.getRuntime().availableProcessors());
        }
        out.println();
        for (final long rate : rates) {
            final HopFigures contract = figuresOf(HopVariant.CONTRACT, rate);
            final HopFigures raw = figuresOf(HopVariant.RAW, rate);
            out.printf(Locale.ROOT, "contract/raw %-12s merged p50 %.2fx p99 %.2fx | median of rounds p50 %.2fx p99 %.2fx"
                            + " | per round p50 %s p99 %s (target <= %.1fx)%n",
                    HopFigures.rateLabel(rate), ratio(contract, raw, 50), ratio(contract, raw, 99),
                    median(perRoundRatioValues(contract, raw, 50)), median(perRoundRatioValues(contract, raw, 99)),
                    perRoundRatios(contract, raw, 50), perRoundRatios(contract, raw, 99), TARGET_RATIO);
        }
        if (!codecCosts.isEmpty()) {
            final double writeContract = median(codecNanos(HopVariant.CONTRACT, true));
            final double writeRaw = median(codecNanos(HopVariant.RAW, true));
            final double readContract = median(codecNanos(HopVariant.CONTRACT, false));
            final double readRaw = median(codecNanos(HopVariant.RAW, false));
            out.printf(Locale.ROOT, "single-thread CPU per order, median of rounds: write contract %.1f ns raw %.1f ns (%.2fx),"
                    + " read contract %.1f ns raw %.1f ns (%.2fx)%n", writeContract, writeRaw, writeContract / writeRaw,
                    readContract, readRaw, readContract / readRaw);
        }
        final PassResult anyContract = figuresOf(HopVariant.CONTRACT, rates.getFirst()).passes().getFirst();
        out.println("contract writer: " + anyContract.writerImplementation());
        out.println("contract reader: " + anyContract.readerImplementation());
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static String label(final HopFigures row) {
        return row.variant().label() + " " + HopFigures.rateLabel(row.ratePerSecond());
    }

    private static double ratio(final HopFigures contract, final HopFigures raw, final double percentile) {
        return (double) contract.latencyNanos().getValueAtPercentile(percentile)
                / Math.max(1, raw.latencyNanos().getValueAtPercentile(percentile));
    }

    private static List<Double> perRoundRatioValues(final HopFigures contract, final HopFigures raw, final double percentile) {
        final List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < Math.min(contract.passes().size(), raw.passes().size()); round++) {
            ratios.add((double) contract.passes().get(round).latencyNanos().getValueAtPercentile(percentile)
                    / Math.max(1, raw.passes().get(round).latencyNanos().getValueAtPercentile(percentile)));
        }
        return ratios;
    }

    /** The median resists the odd round a neighbour's compile or a page-cache flush spoils. */
    private static double median(final List<Double> values) {
        final List<Double> sorted = values.stream().sorted().toList();
        final int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static String perRoundRatios(final HopFigures contract, final HopFigures raw, final double percentile) {
        return perRoundRatioValues(contract, raw, percentile).stream()
                .map(ratio -> String.format(Locale.ROOT, "%.2f", ratio)).toList().toString();
    }

    private BenchResult toResult() {
        final PassResult anyContract = figuresOf(HopVariant.CONTRACT, rates.getFirst()).passes().getFirst();
        final BenchResult result = BenchResult.of("journal-hop");
        result.put("config", BenchResult.section()
                .put("messagesPerPass", messages).put("rates", rates).put("rounds", rounds)
                .put("warmupPerVariant", warmup).put("settlePerPass", settle).put("readerIdle", readerIdle.strategy())
                .put("writerIdle", "busy spin until each intended send time")
                .put("journal", "Journals.open (FAST_DAILY), a fresh directory per pass, deleted afterwards")
                .put("latency", "System.nanoTime at read minus the intended send time, carried as nanos in "
                        + "MetaData.fixReceived; measured orders only")
                .put("loadAverageBefore", loadBefore).put("loadAverageAfter", loadAfter)
                .put("contractWriter", anyContract.writerImplementation())
                .put("contractReader", anyContract.readerImplementation()));
        final List<BenchResult> rows = new ArrayList<>();
        final List<BenchResult> passes = new ArrayList<>();
        for (final HopFigures row : figures) {
            rows.add(BenchResult.section().put("variant", row.variant().label()).put("targetRate", row.ratePerSecond())
                    .put("passes", row.passes().size()).put("messages", row.messages())
                    .put("throughputPerSecond", row.throughputPerSecond())
                    .put("writerBytesPerMessage", row.writerBytesPerMessage())
                    .put("readerBytesPerMessage", row.readerBytesPerMessage())
                    .put("writerCpuShare", row.writerCpuShare()).put("readerCpuShare", row.readerCpuShare())
                    .put("excerptBytes", row.excerptBytes()).put("outOfSequence", row.outOfSequence())
                    .putLatencyNanos("latency", row.latencyNanos()));
            for (int round = 0; round < row.passes().size(); round++) {
                final PassResult pass = row.passes().get(round);
                passes.add(BenchResult.section().put("round", round + 1).put("variant", row.variant().label())
                        .put("targetRate", row.ratePerSecond()).put("throughputPerSecond", pass.throughputPerSecond())
                        .put("writerBytes", pass.writerBytes()).put("readerBytes", pass.readerBytes())
                        .put("writerCpuShare", pass.writerCpuShare()).put("readerCpuShare", pass.readerCpuShare())
                        .putLatencyNanos("latency", pass.latencyNanos()));
            }
        }
        final List<BenchResult> ratios = new ArrayList<>();
        for (final long rate : rates) {
            final HopFigures contract = figuresOf(HopVariant.CONTRACT, rate);
            final HopFigures raw = figuresOf(HopVariant.RAW, rate);
            ratios.add(BenchResult.section().put("targetRate", rate)
                    .put("p50", ratio(contract, raw, 50)).put("p99", ratio(contract, raw, 99))
                    .put("p50MedianOfRounds", median(perRoundRatioValues(contract, raw, 50)))
                    .put("p99MedianOfRounds", median(perRoundRatioValues(contract, raw, 99)))
                    .put("p50PerRound", perRoundRatioValues(contract, raw, 50))
                    .put("p99PerRound", perRoundRatioValues(contract, raw, 99))
                    .put("target", TARGET_RATIO));
        }
        final BenchResult codec = BenchResult.section().put("messagesPerPass", codecMessages);
        for (final HopVariant variant : HopVariant.values()) {
            codec.put(variant.label(), BenchResult.section()
                    .put("writeMedian", codecCosts.isEmpty() ? null : median(codecNanos(variant, true)))
                    .put("readMedian", codecCosts.isEmpty() ? null : median(codecNanos(variant, false)))
                    .put("writePerRound", codecNanos(variant, true)).put("readPerRound", codecNanos(variant, false)));
        }
        return result.put("rows", rows).put("ratiosContractOverRaw", ratios)
                .put("singleThreadCpuNanosPerOrder", codec).put("passes", passes);
    }
}
