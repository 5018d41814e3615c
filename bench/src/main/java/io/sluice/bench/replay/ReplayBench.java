package io.sluice.bench.replay;

import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.Price;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.JournalOutput;
import io.sluice.engine.JournalingInput;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.recovery.InputSources;
import io.sluice.replay.Replay;
import io.sluice.replay.ReplayResult;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code ./sluice bench replay [--orders N]}: how much replay with comparison costs over the engine alone.
 * Records a journal set (gateway journals from {@link SyntheticGateway}, then an engine journal written by a
 * fresh engine consuming them as the engine process does), then, in the same JVM, times
 * <ul>
 * <li>engine only: a fresh {@link Engine} reading the recorded gateway journals round-robin and writing a new
 *     engine journal (one excerpt per input), no comparison: the engine process's work;</li>
 * <li>replay: {@link Replay} flat out: the same inputs in the recorded order, a new engine journal, and every
 *     report compared with the recorded one.</li>
 * </ul>
 * Both are timed from the first input to the last (the engine is built, the journals opened and checked,
 * before). Each is run {@code --rounds} times, alternating; the best of each is reported with the ratio
 * (target at most 1.25). Output journals of a round are deleted before the next.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Replay with comparison vs engine alone, over a recorded journal set.")
public final class ReplayBench implements Callable<Integer> {
    private static final double TARGET_RATIO = 1.25;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Option(names = "--orders", defaultValue = "10000000", description = "commands in the recorded set (default ${DEFAULT-VALUE})")
    private int orders;

    @Option(names = "--gateways", defaultValue = "2", description = "gateway journals the commands are spread over (default ${DEFAULT-VALUE})")
    private int gateways;

    @Option(names = "--rounds", defaultValue = "2", description = "timed runs of each, alternating; best reported (default ${DEFAULT-VALUE})")
    private int rounds;

    @Option(names = "--dir", description = "where the journals go (default: a new temporary directory, deleted afterwards)")
    private Path dir;

    public static void main(final String[] args) {
        final int code = new CommandLine(new ReplayBench()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws IOException {
        final Path root = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("sluice-replay-bench-");
        try {
            return run(root);
        } finally {
            if (dir == null) {
                deleteTree(root);
            }
        }
    }

    private int run(final Path root) {
        final Path recorded = root.resolve("recorded");
        final EngineConfig config = config(recorded, gateways);
        System.out.printf(Locale.ROOT, "replay bench: %,d commands over %d gateway journals under %s%n", orders, gateways, root);

        long start = System.nanoTime();
        for (int g = 1; g <= gateways; g++) {
            SyntheticGateway.write(recorded, g, orders / gateways + (g <= orders % gateways ? 1 : 0));
        }
        final double writeSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "  gateway journals written in %.2f s%n", writeSeconds);
        final Pass recording = engineOnly(config, recorded, recorded);
        System.out.printf(Locale.ROOT, "  recording (engine, cold):   %s%n", recording);

        Pass bestEngine = null;
        Pass bestReplay = null;
        ReplayResult lastReplay = null;
        for (int round = 1; round <= rounds; round++) {
            final Path engineOut = root.resolve("engine-only-" + round);
            final Pass engine = engineOnly(config, recorded, engineOut);
            deleteTree(engineOut);
            System.out.printf(Locale.ROOT, "  round %d engine only:        %s%n", round, engine);

            final Path replayOut = root.resolve("replay-" + round);
            start = System.nanoTime();
            final long cpuStart = THREADS.getCurrentThreadCpuTime();
            lastReplay = new Replay(recorded, config).output(replayOut).run();
            final long cpuNanos = THREADS.getCurrentThreadCpuTime() - cpuStart;
            final long wallNanos = System.nanoTime() - start;
            final Pass replay = new Pass(lastReplay.inputs(), lastReplay.elapsedNanos(), cpuNanos);
            deleteTree(replayOut);
            System.out.printf(Locale.ROOT, "  round %d replay + compare:   %s  (%s; %.2f s with opening and checking the journals)%n",
                    round, replay, lastReplay.identical() ? "identical, " + lastReplay.reports() + " reports" : "DIVERGED", wallNanos / 1e9);
            bestEngine = engine.betterOf(bestEngine);
            bestReplay = replay.betterOf(bestReplay);
        }
        final double ratio = (double) bestReplay.nanos() / bestEngine.nanos();
        final double cpuRatio = (double) bestReplay.cpuNanos() / bestEngine.cpuNanos();
        System.out.printf(Locale.ROOT, "best: engine only %s; replay + compare %s; ratio %.2fx (target <= %.2fx: %s); "
                        + "thread CPU ratio %.2fx%n",
                bestEngine, bestReplay, ratio, TARGET_RATIO, ratio <= TARGET_RATIO ? "met" : "NOT met", cpuRatio);

        final BenchResult result = BenchResult.of("replay")
                .put("orders", orders).put("gateways", gateways).put("rounds", rounds)
                .put("reports", lastReplay.reports()).put("identical", lastReplay.identical())
                .put("gatewayJournalsWriteSeconds", writeSeconds)
                .put("recording", recording.json())
                .put("engineOnly", bestEngine.json())
                .put("replayWithComparison", bestReplay.json())
                .put("ratio", ratio).put("threadCpuRatio", cpuRatio).put("targetRatio", TARGET_RATIO);
        System.out.println("  results: " + result.write(BenchResult.resultsDir()));
        return lastReplay.identical() ? 0 : 1;
    }

    /**
     * The engine process's work without its idle loop: a fresh engine polls the gateway journals under
     * {@code gatewayRoot} round-robin until all are drained, writing one excerpt per input to the engine
     * journal under {@code outputRoot}.
     */
    private static Pass engineOnly(final EngineConfig config, final Path gatewayRoot, final Path outputRoot) {
        final long cpuStart = THREADS.getCurrentThreadCpuTime();
        try (InputSources sources = new InputSources(gatewayRoot, true, config.gatewayIds());
             ChronicleQueue journal = Journals.open(Journals.engineJournal(outputRoot))) {
            final ExcerptAppender appender = journal.createAppender();
            final JournalOutput output = new JournalOutput(appender);
            output.goLive();
            final JournalingInput input = new JournalingInput(appender, new Engine(config, output));
            final long start = System.nanoTime();
            long inputs = 0;
            int work;
            do {
                work = 0;
                for (int i = 0; i < sources.count(); i++) {
                    if (sources.get(i).poll(input)) {
                        work++;
                    }
                }
                inputs += work;
            } while (work > 0);
            final long nanos = System.nanoTime() - start;
            return new Pass(inputs, nanos, THREADS.getCurrentThreadCpuTime() - cpuStart);
        }
    }

    static EngineConfig config(final Path root, final int gateways) {
        final EngineConfig config = new EngineConfig().journalRoot(root)
                .maxOpenOrders(1 << 20).completedOrderMemory(1 << 16).maxPriceLevels(4096);
        config.gatewayIds(java.util.stream.IntStream.rangeClosed(1, gateways).toArray());
        for (final String symbol : SyntheticGateway.SYMBOLS) {
            config.addInstrument(new InstrumentConfig().symbol(ShortTextLongConverter.INSTANCE.parse(symbol))
                    .tickSize(SyntheticGateway.TICK).lotSize(1)
                    .priceLow(Price.of(1)).priceHigh(Price.of(1_000))
                    .maxOrderQty(1_000_000).maxNotional(Price.of(100_000_000)));
        }
        return config;
    }

    private static void deleteTree(final Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    /**
     * One timed pass over the inputs: wall time from first input to last, and the thread's CPU time for the
     * whole pass (less disturbed by other processes on a shared machine; includes opening the journals).
     */
    private record Pass(long inputs, long nanos, long cpuNanos) {
        double inputsPerSecond() {
            return inputs * 1e9 / nanos;
        }

        Pass betterOf(final Pass other) {
            return other == null || nanos < other.nanos ? this : other;
        }

        BenchResult json() {
            return BenchResult.section().put("inputs", inputs).put("seconds", nanos / 1e9).put("inputsPerSecond", inputsPerSecond())
                    .put("threadCpuSeconds", cpuNanos / 1e9);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%,d inputs in %.2f s = %,.0f inputs/s (thread CPU %.2f s)", inputs, nanos / 1e9,
                    inputsPerSecond(), cpuNanos / 1e9);
        }
    }
}
