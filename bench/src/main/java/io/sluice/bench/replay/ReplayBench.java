package io.sluice.bench.replay;

import io.sluice.bench.engine.JournalDirectory;
import io.sluice.bench.engine.PreWrittenJournals;
import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.IdleChoice;
import io.sluice.replay.Replay;
import io.sluice.replay.ReplayResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench replay [--orders N]}: how much replay with comparison costs over the engine alone.
 * Records a journal set: the engine benchmarks' pre-written gateway journals ({@link PreWrittenJournals}, the
 * {@code MixedOrderFlow} mix), consumed by the engine process's own loop ({@link EngineService}), which writes
 * the recorded engine journal. Then, in the same JVM, alternating for {@code --rounds}:
 * <ul>
 * <li>engine alone: a fresh {@link EngineService} over links to the same gateway journals, writing a new
 *     engine journal: the engine benchmark's measurement;</li>
 * <li>replay: {@link Replay} flat out: the same inputs in the recorded order, a new engine journal, and every
 *     report compared with the recorded one.</li>
 * </ul>
 * Both are timed from the first input to the last (engine built, journals opened and checked before) and also
 * by the thread's CPU time for the whole pass, which a shared machine disturbs less. The best round of each
 * is reported with the ratio (target at most 1.25). Each round's output journal is deleted before the next.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Replay with comparison vs the engine alone, over a recorded journal set.")
public final class ReplayBench implements Callable<Integer> {
    private static final double TARGET_RATIO = 1.25;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Option(names = "--orders", defaultValue = "10000000", description = "commands in the recorded set (default ${DEFAULT-VALUE})")
    private long orders;

    @Option(names = "--rounds", defaultValue = "2", description = "timed runs of each, alternating; best reported (default ${DEFAULT-VALUE})")
    private int rounds;

    @CommandLine.Mixin
    private JournalDirectory journals;

    public static void main(final String[] args) {
        final int code = new CommandLine(new ReplayBench()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        return journals.use("sluice-replay-bench", this::run);
    }

    private int run(final Path root) throws IOException {
        final Path recorded = root.resolve("recorded");
        System.out.printf(Locale.ROOT, "replay bench: %,d commands over gateways 1 and 2 under %s%n", orders, root);
        long start = System.nanoTime();
        PreWrittenJournals.write(PreWrittenJournals.config(recorded, IdleChoice.BUSY_SPIN), recorded, orders);
        final double writeSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "  gateway journals written in %.2f s%n", writeSeconds);
        final Pass recording = engineAlone(recorded);
        System.out.printf(Locale.ROOT, "  recording (engine, cold):   %s%n", recording);

        Pass bestEngine = null;
        Pass bestReplay = null;
        ReplayResult lastReplay = null;
        for (int round = 1; round <= rounds; round++) {
            final Path engineRoot = root.resolve("engine-alone-" + round);
            for (final int gatewayId : PreWrittenJournals.GATEWAYS) {
                Files.createDirectories(engineRoot);
                Files.createSymbolicLink(Journals.gatewayJournal(engineRoot, gatewayId),
                        Journals.gatewayJournal(recorded, gatewayId).toAbsolutePath());
            }
            final Pass engine = engineAlone(engineRoot);
            PreWrittenJournals.delete(engineRoot);
            System.out.printf(Locale.ROOT, "  round %d engine alone:       %s%n", round, engine);

            final Path replayOut = root.resolve("replay-" + round);
            start = System.nanoTime();
            final long cpuStart = THREADS.getCurrentThreadCpuTime();
            lastReplay = new Replay(recorded, PreWrittenJournals.config(recorded, IdleChoice.BUSY_SPIN)).output(replayOut).run();
            final long cpuNanos = THREADS.getCurrentThreadCpuTime() - cpuStart;
            final long wallNanos = System.nanoTime() - start;
            final Pass replay = new Pass(lastReplay.inputs(), lastReplay.elapsedNanos(), cpuNanos);
            PreWrittenJournals.delete(replayOut);
            System.out.printf(Locale.ROOT, "  round %d replay + compare:   %s  (%s; %.2f s with opening and checking the journals)%n",
                    round, replay, lastReplay.identical() ? "identical, " + lastReplay.reports() + " reports" : "DIVERGED", wallNanos / 1e9);
            bestEngine = engine.betterOf(bestEngine);
            bestReplay = replay.betterOf(bestReplay);
        }
        final double ratio = (double) bestReplay.nanos() / bestEngine.nanos();
        final double cpuRatio = (double) bestReplay.cpuNanos() / bestEngine.cpuNanos();
        System.out.printf(Locale.ROOT, "best: engine alone %s; replay + compare %s; ratio %.2fx (target <= %.2fx: %s); "
                        + "thread CPU ratio %.2fx%n",
                bestEngine, bestReplay, ratio, TARGET_RATIO, ratio <= TARGET_RATIO ? "met" : "NOT met", cpuRatio);

        final BenchResult result = BenchResult.of("replay")
                .put("orders", orders).put("rounds", rounds)
                .put("reports", lastReplay.reports()).put("identical", lastReplay.identical())
                .put("gatewayJournalsWriteSeconds", writeSeconds)
                .put("recording", recording.json())
                .put("engineAlone", bestEngine.json())
                .put("replayWithComparison", bestReplay.json())
                .put("ratio", ratio).put("threadCpuRatio", cpuRatio).put("targetRatio", TARGET_RATIO);
        System.out.println("  results: " + result.write(BenchResult.resultsDir()));
        return lastReplay.identical() ? 0 : 1;
    }

    /** The engine process's loop ({@link EngineService#poll}) over the gateway journals under {@code root}, until all are consumed. */
    private Pass engineAlone(final Path root) {
        final long cpuStart = THREADS.getCurrentThreadCpuTime();
        try (EngineService service = new EngineService(PreWrittenJournals.config(root, IdleChoice.BUSY_SPIN))) {
            service.recover();
            final long start = System.nanoTime();
            while (service.processed() < orders) {
                service.poll();
            }
            final long nanos = System.nanoTime() - start;
            return new Pass(service.processed(), nanos, THREADS.getCurrentThreadCpuTime() - cpuStart);
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
