package io.sluice.bench.tail;

import com.sun.management.ThreadMXBean;
import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.latency.Hop;
import io.sluice.testkit.LatencyPattern;
import io.sluice.testkit.SyntheticJournals;
import io.sluice.tools.report.LatencyTable;
import io.sluice.tools.tail.LatencyJoin;
import io.sluice.tools.tail.Tail;
import io.sluice.tools.tail.TailOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code ./sluice bench tail-offline [--inputs N] [--gateways N]}: writes a synthetic journal set with
 * known latencies (default 2 gateways x 2.5 M inputs, i.e. 5 M inputs, 6.25 M reports, 6.25 M deliveries)
 * into a temporary directory, then times the tail reading it offline, five times after a warm-up on a
 * smaller set, and prints inputs/s and records/s of each run, the median, the best, and per second of the reading
 * thread's CPU time, with the machine's load average: on a small shared machine other processes move the
 * wall-clock figures a lot; the CPU-time figure is what the tail would do with a core of its own. The target is
 * 5 M messages/s, a message being one record read from any journal (command, report or delivery); inputs/s
 * (commands) are printed beside it.
 */
@Command(name = "tail-offline", mixinStandardHelpOptions = true,
        description = "The latency tail reading a finished synthetic journal set offline: inputs/s and records/s.")
public final class TailOfflineBenchmark implements Callable<Integer> {
    private static final int WARM_UP_INPUTS = 400_000;
    private static final int RUNS = 5;
    private static final double TARGET_MESSAGES_PER_SECOND = 5e6;

    @Option(names = "--inputs", description = "inputs (commands) per gateway in the journal set (default ${DEFAULT-VALUE})")
    private long inputsPerGateway = 2_500_000;

    @Option(names = "--gateways", description = "gateways in the journal set (default ${DEFAULT-VALUE})")
    private int gateways = 2;

    public static void main(final String[] args) {
        final int code = new CommandLine(new TailOfflineBenchmark()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws IOException {
        final Path warmUp = Files.createTempDirectory("sluice-tail-warmup");
        final Path root = Files.createTempDirectory("sluice-tail-bench");
        try {
            final SyntheticJournals journals = new SyntheticJournals(gateways, LatencyPattern.realistic());
            journals.write(warmUp, 1, WARM_UP_INPUTS / gateways);
            final long writeStart = System.nanoTime();
            journals.write(root, 1, inputsPerGateway);
            final double writeSeconds = (System.nanoTime() - writeStart) / 1e9;
            System.out.printf(Locale.ROOT, "wrote %d inputs from %d gateways in %.1f s%n",
                    inputsPerGateway * gateways, gateways, writeSeconds);

            read(warmUp);
            Tail tail = null;
            double best = Double.MAX_VALUE;
            final double[] seconds = new double[RUNS];
            final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
            double cpuSeconds = 0;
            long allocated = 0;
            for (int run = 0; run < RUNS; run++) {
                final long cpuStart = threads.getCurrentThreadCpuTime();
                final long allocatedStart = allocatedBytes(threads);
                final long readStart = System.nanoTime();
                tail = read(root);
                seconds[run] = (System.nanoTime() - readStart) / 1e9;
                cpuSeconds += (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
                allocated = allocatedBytes(threads) - allocatedStart;
                best = Math.min(best, seconds[run]);
                report("run " + (run + 1), tail.join(), seconds[run]);
            }
            Arrays.sort(seconds);
            final LatencyJoin join = tail.join();
            final long records = join.commandsRead() + join.reportsRead() + join.deliveriesRead();
            report("median", join, seconds[RUNS / 2]);
            report("best", join, best);
            report("per CPU", join, cpuSeconds / RUNS);
            System.out.printf(Locale.ROOT, "allocated %.1f MB by the reading thread in the last run, %.3f bytes per "
                    + "record on average: opening journals, join windows, histograms (it barely grows with the run's size)%n",
                    allocated / 1e6, allocated / (double) records);
            final LatencyTable table = new LatencyTable(System.out, 12);
            table.header();
            final BenchResult result = BenchResult.of("tail-offline")
                    .put("gateways", gateways).put("inputs", join.commandsRead()).put("records", records)
                    .put("medianSeconds", seconds[RUNS / 2]).put("inputsPerSecond", join.commandsRead() / seconds[RUNS / 2])
                    .put("recordsPerSecond", records / seconds[RUNS / 2]).put("bestInputsPerSecond", join.commandsRead() / best)
                    .put("cpuInputsPerSecond", join.commandsRead() / (cpuSeconds / RUNS))
                    .put("cpuRecordsPerSecond", records / (cpuSeconds / RUNS))
                    .put("bytesAllocatedPerRecord", allocated / (double) records)
                    .put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            for (final Hop hop : Hop.all()) {
                table.rowNanos(hop.label(), tail.statistics(hop).total());
                result.putLatencyNanos(hop.tag(), tail.statistics(hop).total());
            }
            final double medianRecords = records / seconds[RUNS / 2] / 1e6;
            final double cpuRecords = records / (cpuSeconds / RUNS) / 1e6;
            System.out.printf(Locale.ROOT, "target >= 5 M messages/s, a message being a record read from any journal (a command, "
                            + "report or delivery; %.2f per input here): median %.2f M/s (%s), per CPU second %.2f M/s (%s); "
                            + "load average %.1f on %d CPUs%n", records / (double) join.commandsRead(),
                    medianRecords, medianRecords >= TARGET_MESSAGES_PER_SECOND / 1e6 ? "met" : "NOT met",
                    cpuRecords, cpuRecords >= TARGET_MESSAGES_PER_SECOND / 1e6 ? "met" : "NOT met",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    Runtime.getRuntime().availableProcessors());
            System.out.println("results: " + result.write(BenchResult.resultsDir()));
            return 0;
        } finally {
            delete(warmUp);
            delete(root);
        }
    }

    private static void report(final String what, final LatencyJoin join, final double seconds) {
        final long records = join.commandsRead() + join.reportsRead() + join.deliveriesRead();
        System.out.printf(Locale.ROOT, "%-7s %d inputs, %d records in %.3f s: %.2f M inputs/s, %.2f M records/s%n",
                what, join.commandsRead(), records, seconds, join.commandsRead() / seconds / 1e6, records / seconds / 1e6);
    }

    private static long allocatedBytes(final ThreadMXBean threads) {
        return threads.getCurrentThreadAllocatedBytes();
    }

    private static Tail read(final Path root) {
        final Tail tail = new Tail(new TailOptions().root(root).offline(true),
                new PrintStream(OutputStream.nullOutputStream(), false));
        tail.run();
        return tail;
    }

    private static void delete(final Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
