package io.sluice.bench.recovery;

import io.sluice.bench.engine.JournalDirectory;
import io.sluice.bench.engine.PreWrittenJournals;
import io.sluice.bench.report.BenchResult;
import io.sluice.bench.runtime.AotCache;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.load.MixedOrderFlow;
import io.sluice.engine.snapshot.SnapshotMain;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./sluice bench recovery [--sizes 1000000,10000000]}: how long an engine restart takes as history grows. In the
 * same run: with and without snapshots, and with and without the engine's JDK AOT cache. One journal set grows
 * through the sizes: the {@code MixedOrderFlow} mix is appended to two gateway journals and consumed by the engine's
 * own loop in this process (the recording). At each size:
 * <ol>
 *   <li>the snapshotter process ({@code ./sluice snapshot --at-end}) brings the snapshots up to date (timed apart: it
 *   runs beside the live engine, not in a restart);</li>
 *   <li>without snapshots: one more command is appended (the first live command), an engine process is launched
 *   ({@code EngineMain}, {@code restartFromSnapshots: false}) and timed from its launch to the moment its answer to
 *   that command is in the engine journal; it is then stopped (SIGTERM);</li>
 *   <li>the same with {@code restartFromSnapshots: true};</li>
 *   <li>both again with the AOT cache, as {@code ./sluice engine} starts: the engine's cache (the flags of
 *   {@code aot.options}, {@link AotCache}) is recorded once, at the first size, by an unmeasured restart from the
 *   snapshot, and each measured run proves from its log that its JVM opened it.</li>
 * </ol>
 * Each variant is restarted {@code --repeats} times at each size, the variants interleaved, and the median reported:
 * on a machine shared with other work single restarts scatter widely. Every engine runs as {@code ./sluice engine}
 * does: the engine module's jar and class path (the JDK archives classes
 * from jars only) and the shipped {@code jvm.options}. Each prints where its start's time went (its
 * {@code engine: live N ms after the JVM's start ...} line: JVM, command line, config, journals, snapshot, re-run, in
 * wall and CPU time), reported beside the
 * launch-to-answer time.
 */
@Command(name = "recovery", mixinStandardHelpOptions = true,
        description = "Engine restart time after N inputs, with and without snapshots, in the same run.")
public final class RecoveryBench implements Callable<Integer> {
    private static final Pattern RECOVERED = Pattern.compile("engine: recovered (\\d+) inputs in (\\d+) ms");
    private static final Pattern STARTED = Pattern.compile("engine: (live (\\d+) ms after the JVM's start.*)");
    private static final List<String> ENGINE_JVM = List.of("-Xmx2g");
    /** Seconds a stopping JVM that records its AOT cache may take: it assembles the cache in a child JVM. */
    private static final long TRAINING_STOP_SECONDS = 300;

    @Option(names = "--sizes", split = ",", defaultValue = "1000000,10000000",
            description = "inputs of history at which restarts are timed, ascending (default ${DEFAULT-VALUE})")
    private List<Long> sizes;

    @Option(names = "--repeats", defaultValue = "3",
            description = "restarts of each variant at each size, interleaved; medians reported (default ${DEFAULT-VALUE})")
    private int repeats;

    @CommandLine.Mixin
    private JournalDirectory journals;

    public static void main(final String[] args) {
        final int code = new CommandLine(new RecoveryBench()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        return journals.use("sluice-recovery-bench", this::run);
    }

    private int run(final Path root) throws Exception {
        final EngineConfig config = PreWrittenJournals.config(root, IdleConfig.of("backoff"));
        final Path withoutFile = Files.writeString(root.resolve("engine-no-snapshots.yaml"),
                config.restartFromSnapshots(false).toString());
        final Path withFile = Files.writeString(root.resolve("engine.yaml"), config.restartFromSnapshots(true).toString());
        final Path logs = root.resolve("logs");
        System.out.printf(Locale.ROOT, "recovery bench: restarts after %s inputs, journals under %s (disk free %,d MB)%n",
                sizes, root, Files.getFileStore(root).getUsableSpace() >> 20);
        final String classPath = engineClassPath();
        final Path cache = root.resolve("aot").resolve("engine.aot");
        Files.createDirectories(cache.getParent());
        boolean trained = false;
        final List<BenchResult> rows = new ArrayList<>();
        try (Flow flow = new Flow(config, root)) {
            for (final long size : sizes) {
                final long start = System.nanoTime();
                flow.append(size - flow.written());
                record(config.restartFromSnapshots(true), flow.written());
                System.out.printf(Locale.ROOT, "  %,d inputs: written and recorded in %.1f s (%,d MB of journals)%n",
                        flow.written(), (System.nanoTime() - start) / 1e9, du(root) >> 20);
                final long snapStart = System.nanoTime();
                final String snapshotLog;
                try (JavaProcess snapshotter = JavaProcess.start("snapshot", logs.resolve("snapshot-" + size + ".log"),
                        ENGINE_JVM, SnapshotMain.class, "--config", withFile.toString(), "--at-end")) {
                    final int code = snapshotter.waitFor(3600);
                    snapshotLog = snapshotter.logText();
                    if (code != 0) {
                        throw new IllegalStateException("the snapshotter failed: " + snapshotLog);
                    }
                }
                final double snapshotSeconds = (System.nanoTime() - snapStart) / 1e9;
                System.out.printf(Locale.ROOT, "  snapshotter %.1f s: %s%n", snapshotSeconds, lastLine(snapshotLog));
                if (!trained) {
                    trained = train(flow, root, logs, withFile, classPath, cache);
                }
                final List<Arm> arms = new ArrayList<>(List.of(new Arm("without", withoutFile, null),
                        new Arm("with", withFile, null)));
                if (trained) {
                    arms.add(new Arm("without-aot", withoutFile, cache));
                    arms.add(new Arm("with-aot", withFile, cache));
                }
                final Map<Arm, List<Restart>> runs = new LinkedHashMap<>();
                arms.forEach(arm -> runs.put(arm, new ArrayList<>()));
                for (int r = 0; r < repeats; r++) {
                    for (int i = 0; i < arms.size(); i++) { // interleaved, each round starting with another arm
                        final Arm arm = arms.get((i + r) % arms.size());
                        final Restart run = restart(flow, root, logs, arm.configFile, arm.name + "-" + size + "-" + r,
                                classPath, arm.cache);
                        if (arm.cache != null && !run.aotOpened) {
                            throw new IllegalStateException("the engine did not open the AOT cache " + arm.cache
                                    + "; its log: " + logs.resolve(run.name + ".log"));
                        }
                        runs.get(arm).add(run);
                    }
                }
                final Restart without = median(runs.get(arms.get(0)));
                final Restart with = median(runs.get(arms.get(1)));
                final Restart withoutAot = trained ? median(runs.get(arms.get(2))) : null;
                final Restart withAot = trained ? median(runs.get(arms.get(3))) : null;
                System.out.printf(Locale.ROOT, "  %,d inputs, medians of %d restarts: restart to first live answer without"
                                + " snapshots %,d ms (engine recovery %,d ms, %,d inputs re-run); with %,d ms (engine"
                                + " recovery %,d ms, %,d re-run): %.2fx%n",
                        size, repeats, without.launchToAnswerMs, without.recoveryMs, without.rerun, with.launchToAnswerMs,
                        with.recoveryMs, with.rerun, (double) with.launchToAnswerMs / without.launchToAnswerMs);
                if (trained) {
                    System.out.printf(Locale.ROOT, "  %,d inputs, with the AOT cache: without snapshots %,d ms (%.2fx of"
                                    + " without the cache); with %,d ms (%.2fx of without the cache, %.2fx of without"
                                    + " snapshots and cache)%n", size, withoutAot.launchToAnswerMs,
                            (double) withoutAot.launchToAnswerMs / without.launchToAnswerMs, withAot.launchToAnswerMs,
                            (double) withAot.launchToAnswerMs / with.launchToAnswerMs,
                            (double) withAot.launchToAnswerMs / without.launchToAnswerMs);
                }
                System.out.printf(Locale.ROOT, "    where the time went, in each variant's median run (JVM start to live,"
                        + " as the engine logged it; the rest of launch-to-answer is the exec before the JVM starts, its"
                        + " first live command and this bench seeing the answer):%n");
                for (final Arm arm : arms) {
                    final Restart r = median(runs.get(arm));
                    System.out.printf(Locale.ROOT, "    %-11s %,6d ms to answer (all runs %s); %s%n", arm.name,
                            r.launchToAnswerMs, runs.get(arm).stream().map(x -> x.launchToAnswerMs).toList(), r.phases);
                }
                final BenchResult row = BenchResult.section().put("inputs", size).put("repeats", repeats)
                        .put("withoutSnapshots", json(runs.get(arms.get(0))))
                        .put("withSnapshots", json(runs.get(arms.get(1))))
                        .put("ratio", (double) with.launchToAnswerMs / without.launchToAnswerMs)
                        .put("snapshotterSeconds", snapshotSeconds);
                if (trained) {
                    row.put("withoutSnapshotsAot", json(runs.get(arms.get(2))))
                            .put("withSnapshotsAot", json(runs.get(arms.get(3))))
                            .put("aotRatio", (double) withAot.launchToAnswerMs / with.launchToAnswerMs);
                }
                rows.add(row);
            }
        }
        final BenchResult result = BenchResult.of("recovery").put("sizes", sizes).put("rows", rows)
                .put("aotCache", trained)
                .put("note", "restart = engine process launch to its answer to the first live command in the engine journal;"
                        + " engines on the engine module's jar and class path, as ./sluice engine runs them");
        System.out.println("  results: " + result.write(BenchResult.resultsDir()));
        return 0;
    }

    /** The engine's own loop, in this process, answers every command written so far (the recording). */
    private static void record(final EngineConfig config, final long inputs) {
        try (EngineService service = EngineService.launch(config)) {
            final long recovered = service.recovered();
            final long base = recovered + (service.restoredFrom() == null ? 0 : service.restoredFrom().inputs());
            while (base + service.processed() < inputs) {
                service.poll();
            }
        }
    }

    /** A variant of the restart: with or without snapshots (its config file), with an AOT cache or none (null). */
    private record Arm(String name, Path configFile, Path cache) {
    }

    /** @return the run of median launch-to-answer time */
    private static Restart median(final List<Restart> runs) {
        final List<Restart> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingLong(Restart::launchToAnswerMs));
        return sorted.get(sorted.size() / 2);
    }

    /** @return the median run's figures, with every run's launch-to-answer time */
    private static BenchResult json(final List<Restart> runs) {
        return median(runs).json().put("launchToFirstAnswerMsAllRuns",
                runs.stream().map(Restart::launchToAnswerMs).toList());
    }

    private record Restart(String name, long launchToAnswerMs, long recoveryMs, long rerun, long startedMs, String phases,
                           boolean aotOpened) {
        BenchResult json() {
            return BenchResult.section().put("launchToFirstAnswerMs", launchToAnswerMs).put("engineRecoveryMs", recoveryMs)
                    .put("inputsReRun", rerun).put("jvmStartToLiveMs", startedMs).put("phases", phases)
                    .put("aotCacheOpened", aotOpened);
        }
    }

    /**
     * The unmeasured restart that records the engine's AOT cache: from the snapshot, answering one live command, as
     * {@code ./sluice engine}'s first run after a build does; the cache is written as its JVM exits.
     *
     * @return whether the cache was written
     */
    private static boolean train(final Flow flow, final Path root, final Path logs, final Path configFile,
                                 final String classPath, final Path cache) throws Exception {
        final long start = System.nanoTime();
        final Restart training = restart(flow, root, logs, configFile, "aot-training", classPath,
                AotCache.trainingFlags(cache), null, TRAINING_STOP_SECONDS);
        if (!Files.isRegularFile(cache)) {
            System.out.println("  note: the AOT training run wrote no cache, the runs with it are left out; its log: "
                    + logs.resolve("aot-training.log"));
            return false;
        }
        System.out.printf(Locale.ROOT, "  AOT cache recorded by an unmeasured restart (%,d ms to answer) and written as it"
                + " stopped: %,d bytes, %.1f s in all%n", training.launchToAnswerMs, Files.size(cache),
                (System.nanoTime() - start) / 1e9);
        return true;
    }

    /** Restarts with the AOT cache {@code usedCache}, or without one (null). */
    private static Restart restart(final Flow flow, final Path root, final Path logs, final Path configFile,
                                   final String name, final String classPath, final Path usedCache) throws Exception {
        return restart(flow, root, logs, configFile, name, classPath,
                usedCache == null ? List.of() : AotCache.productionFlags(usedCache), usedCache, 30);
    }

    /**
     * Appends one command, launches an engine, times it to that command's answer, stops it.
     *
     * @param usedCache the AOT cache {@code extraJvm} makes the engine use, whose opening its log must show; or null
     */
    private static Restart restart(final Flow flow, final Path root, final Path logs, final Path configFile,
                                   final String name, final String classPath, final List<String> extraJvm,
                                   final Path usedCache, final long stopSeconds) throws Exception {
        final List<String> jvm = new ArrayList<>(ENGINE_JVM);
        jvm.addAll(extraJvm);
        try (ChronicleQueue engineJournal = Journals.openReadOnly(Journals.engineJournal(root));
             ExcerptTailer tailer = engineJournal.createTailer().toEnd()) {
            flow.append(1);
            final long start = System.nanoTime();
            try (JavaProcess engine = JavaProcess.start("engine", logs.resolve(name + ".log"), classPath, jvm,
                    EngineMain.class, "--config", configFile.toString())) {
                while (!answered(tailer)) {
                    if (!engine.isAlive()) {
                        throw new IllegalStateException("the engine exited: " + engine.logText());
                    }
                    if (System.nanoTime() - start > 3_600_000_000_000L) {
                        throw new IllegalStateException("no answer within an hour: " + engine.logText());
                    }
                    LockSupport.parkNanos(100_000); // polling the journal for the answer, not a wait for time to pass
                }
                final long ms = (System.nanoTime() - start) / 1_000_000;
                engine.stop(stopSeconds);
                final String log = engine.logText();
                final Matcher recovered = RECOVERED.matcher(log);
                final Matcher started = STARTED.matcher(log);
                final boolean hasRecovered = recovered.find();
                final boolean hasStarted = started.find();
                return new Restart(name, ms, hasRecovered ? Long.parseLong(recovered.group(2)) : -1,
                        hasRecovered ? Long.parseLong(recovered.group(1)) : -1,
                        hasStarted ? Long.parseLong(started.group(2)) : -1,
                        hasStarted ? started.group(1) : "(no start-up line in " + logs.resolve(name + ".log") + ")",
                        usedCache != null && AotCache.opened(log, usedCache));
            }
        }
    }

    /**
     * @return the class path {@code ./sluice engine} runs the engine on: the engine module's jar, then its dependencies
     * (the build's {@code classpath.txt}), found next to the {@code jvm.options} of this build
     */
    private static String engineClassPath() throws IOException {
        final Path module = JavaProcess.jvmOptionsFile().resolveSibling("processing-engine").resolve("target");
        final Path jar;
        try (var files = Files.list(module)) {
            jar = files.filter(f -> f.getFileName().toString().matches("sluice-processing-engine-.*(?<!-tests)\\.jar"))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no engine jar in " + module
                            + ": build with ./mvnw package -DskipTests (./sluice does)"));
        }
        return jar + File.pathSeparator + Files.readString(module.resolve("classpath.txt")).strip();
    }

    private static boolean answered(final ExcerptTailer tailer) {
        try (DocumentContext dc = tailer.readingDocument()) {
            return dc.isPresent();
        }
    }

    private static String lastLine(final String text) {
        final String[] lines = text.strip().split("\n");
        return lines[lines.length - 1];
    }

    private static long du(final Path root) throws IOException {
        try (var files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    /** The mixed command flow into the two gateway journals, kept open so the history can grow. */
    private static final class Flow implements AutoCloseable {
        private final ChronicleQueue[] queues = new ChronicleQueue[PreWrittenJournals.GATEWAYS.length];
        private final GatewayToEngine[] writers = new GatewayToEngine[PreWrittenJournals.GATEWAYS.length];
        private final MixedOrderFlow[] flows = new MixedOrderFlow[PreWrittenJournals.GATEWAYS.length];
        private long written;

        Flow(final EngineConfig config, final Path root) {
            for (int i = 0; i < queues.length; i++) {
                queues[i] = Journals.open(Journals.gatewayJournal(root, PreWrittenJournals.GATEWAYS[i]));
                writers[i] = Journals.methodWriter(queues[i].createAppender(), GatewayToEngine.class);
                flows[i] = new MixedOrderFlow(42, PreWrittenJournals.GATEWAYS[i], config.instruments(), 64);
            }
        }

        void append(final long commands) {
            for (long n = 0; n < commands; n++) {
                final int i = (int) (written++ % queues.length);
                flows[i].next(writers[i]);
            }
        }

        long written() {
            return written;
        }

        @Override
        public void close() {
            for (final ChronicleQueue queue : queues) {
                queue.close();
            }
        }
    }
}
