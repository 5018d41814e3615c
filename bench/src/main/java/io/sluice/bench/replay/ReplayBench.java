package io.sluice.bench.replay;

import io.sluice.bench.engine.JournalDirectory;
import io.sluice.bench.engine.PreWrittenJournals;
import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.Spread;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.replay.Replay;
import io.sluice.replay.ReplayResult;
import io.sluice.runtime.agent.IdleConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench replay [--orders N]}: how much replay with comparison costs over the engine alone.
 * Records a journal set: the engine benchmarks' pre-written gateway journals ({@link PreWrittenJournals}, the
 * {@code MixedOrderFlow} mix), consumed by the engine process's own loop ({@link EngineService}), which writes
 * the recorded engine journal. Then, in the same JVM, interleaved for {@code --rounds} (A-B, B-A, ...):
 * <ul>
 * <li>engine alone: a fresh {@link EngineService} over links to the same gateway journals, writing a new
 *     engine journal: the engine benchmark's measurement;</li>
 * <li>replay: {@link Replay} flat out: the same inputs in the recorded order, a new engine journal, and every
 *     report compared with the recorded one.</li>
 * </ul>
 * Both are timed from the first input to the last (engine built, journals opened and checked before) and also
 * by the thread's CPU time for the whole pass, which a shared machine disturbs less. Each round gives a ratio
 * replay / engine; the median ratio is reported with its minimum and maximum (target at most 1.25), beside the
 * ratio of the best round of each. Each round's output journal is deleted before the next.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Replay with comparison vs the engine alone, over a recorded journal set.")
public final class ReplayBench implements Callable<Integer> {
    private static final double TARGET_RATIO = 1.25;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Option(names = "--orders", defaultValue = "10000000", description = "commands in the recorded set (default ${DEFAULT-VALUE})")
    private long orders;

    @Option(names = "--rounds", defaultValue = "5", description = "timed runs of each, interleaved, at least 3; "
            + "the median ratio is reported with its spread (default ${DEFAULT-VALUE})")
    private int rounds;

    @CommandLine.Mixin
    private JournalDirectory journals;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(final String[] args) {
        final int code = new CommandLine(new ReplayBench()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        if (rounds < 3) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rounds must be at least 3 (a median and a spread), got " + rounds);
        }
        return journals.use("sluice-replay-bench", this::run);
    }

    private int run(final Path root) throws IOException {
        final Path recorded = root.resolve("recorded");
        System.out.printf(Locale.ROOT, "replay bench: %,d commands over gateways 1 and 2 under %s%n", orders, root);
        long start = System.nanoTime();
        PreWrittenJournals.write(PreWrittenJournals.config(recorded, IdleConfig.of("spin")), recorded, orders);
        final double writeSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "  gateway journals written in %.2f s%n", writeSeconds);
        final Pass recording = engineAlone(recorded);
        System.out.printf(Locale.ROOT, "  recording (engine, cold):   %s%n", recording);

        final List<Pass> engineRounds = new ArrayList<>();
        final List<Pass> replayRounds = new ArrayList<>();
        final List<Double> ratios = new ArrayList<>();
        final List<Double> cpuRatios = new ArrayList<>();
        long reports = -1;
        boolean identical = true;
        for (int round = 1; round <= rounds; round++) {
            // A-B, then B-A: neither side always runs first, after the other has warmed caches or page tables.
            final boolean engineFirst = round % 2 == 1;
            final Pass engine;
            final ReplayPass replay;
            if (engineFirst) {
                engine = engineAloneRound(root, recorded, round);
                replay = replayRound(root, recorded, round);
            } else {
                replay = replayRound(root, recorded, round);
                engine = engineAloneRound(root, recorded, round);
            }
            engineRounds.add(engine);
            replayRounds.add(replay.pass());
            identical &= replay.identical();
            reports = replay.reports();
            final double ratio = (double) replay.pass().nanos() / engine.nanos();
            final double cpuRatio = (double) replay.pass().cpuNanos() / engine.cpuNanos();
            ratios.add(ratio);
            cpuRatios.add(cpuRatio);
            System.out.printf(Locale.ROOT, "  round %d (%s first): engine alone %s%n", round, engineFirst ? "engine" : "replay", engine);
            System.out.printf(Locale.ROOT, "           replay + compare %s  (%s; %.2f s with opening and checking the journals)%n",
                    replay.pass(), replay.identical() ? "identical, " + replay.reports() + " reports" : "DIVERGED", replay.wallNanos() / 1e9);
            System.out.printf(Locale.ROOT, "           ratio %.3fx, thread CPU ratio %.3fx%n", ratio, cpuRatio);
        }
        final Spread ratio = Spread.of(ratios);
        final Spread cpuRatio = Spread.of(cpuRatios);
        final Pass bestEngine = engineRounds.stream().min(Comparator.comparingLong(Pass::nanos)).orElseThrow();
        final Pass bestReplay = replayRounds.stream().min(Comparator.comparingLong(Pass::nanos)).orElseThrow();
        final double bestRatio = (double) bestReplay.nanos() / bestEngine.nanos();
        System.out.printf(Locale.ROOT, "ratio replay/engine over %d interleaved rounds: median %s (target <= %.2fx: %s); "
                        + "thread CPU ratio median %s; best of each: %.3fx%n",
                rounds, ratio.format(3), TARGET_RATIO, ratio.median() <= TARGET_RATIO ? "met" : "NOT met", cpuRatio.format(3), bestRatio);

        final BenchResult result = BenchResult.of("replay")
                .put("orders", orders).put("rounds", rounds)
                .put("reports", reports).put("identical", identical)
                .put("gatewayJournalsWriteSeconds", writeSeconds)
                .put("recording", recording.json())
                .put("engineAlone", engineRounds.stream().map(Pass::json).toList())
                .put("replayWithComparison", replayRounds.stream().map(Pass::json).toList())
                .put("ratio", ratio.json()).put("threadCpuRatio", cpuRatio.json())
                .put("bestOfEachRatio", bestRatio).put("targetRatio", TARGET_RATIO);
        System.out.println("  results: " + result.write(BenchResult.resultsDir()));
        return identical ? 0 : 1;
    }

    /** The engine alone over links to the recorded gateway journals, writing a new engine journal (deleted after). */
    private Pass engineAloneRound(final Path root, final Path recorded, final int round) throws IOException {
        final Path engineRoot = root.resolve("engine-alone-" + round);
        Files.createDirectories(engineRoot);
        for (final int gatewayId : PreWrittenJournals.GATEWAYS) {
            Files.createSymbolicLink(Journals.gatewayJournal(engineRoot, gatewayId),
                    Journals.gatewayJournal(recorded, gatewayId).toAbsolutePath());
        }
        final Pass engine = engineAlone(engineRoot);
        PreWrittenJournals.delete(engineRoot);
        return engine;
    }

    /** Replay with comparison of the recorded set, to a new engine journal (deleted after). */
    private ReplayPass replayRound(final Path root, final Path recorded, final int round) {
        final Path replayOut = root.resolve("replay-" + round);
        final long start = System.nanoTime();
        final long cpuStart = THREADS.getCurrentThreadCpuTime();
        final ReplayResult result = new Replay(recorded, PreWrittenJournals.config(recorded, IdleConfig.of("spin"))).output(replayOut).run();
        final long cpuNanos = THREADS.getCurrentThreadCpuTime() - cpuStart;
        final long wallNanos = System.nanoTime() - start;
        PreWrittenJournals.delete(replayOut);
        return new ReplayPass(new Pass(result.inputs(), result.elapsedNanos(), cpuNanos), wallNanos, result.reports(), result.identical());
    }

    private record ReplayPass(Pass pass, long wallNanos, long reports, boolean identical) {
    }


    /** The engine process's loop ({@link EngineService#poll}) over the gateway journals under {@code root}, until all are consumed. */
    private Pass engineAlone(final Path root) {
        final long cpuStart = THREADS.getCurrentThreadCpuTime();
        try (EngineService service = EngineService.launch(PreWrittenJournals.config(root, IdleConfig.of("spin")))) {
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
