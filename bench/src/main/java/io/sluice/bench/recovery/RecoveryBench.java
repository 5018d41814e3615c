package io.sluice.bench.recovery;

import io.sluice.bench.engine.JournalDirectory;
import io.sluice.bench.engine.PreWrittenJournals;
import io.sluice.bench.report.BenchResult;
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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./sluice bench recovery [--sizes 1000000,10000000]}: how long an engine restart takes as history grows, with
 * and without snapshots, in the same run. One journal set grows through the sizes: the {@code MixedOrderFlow} mix is
 * appended to two gateway journals and consumed by the engine's own loop in this process (the recording). At each
 * size, twice:
 * <ol>
 *   <li>without snapshots: one more command is appended (the first live command), an engine process is launched
 *   ({@code EngineMain}, {@code restartFromSnapshots: false}) and timed from its launch to the moment its answer to
 *   that command is in the engine journal; it is then stopped (SIGTERM);</li>
 *   <li>the snapshotter process ({@code ./sluice snapshot --at-end}) brings the snapshots up to date (timed apart: it
 *   runs beside the live engine, not in a restart), then the same with {@code restartFromSnapshots: true}.</li>
 * </ol>
 * Each engine also prints its own recovery time (journals open to live), reported beside the launch-to-answer time,
 * which includes the JVM's start. Child JVMs use the shipped {@code jvm.options}, no AOT cache.
 */
@Command(name = "recovery", mixinStandardHelpOptions = true,
        description = "Engine restart time after N inputs, with and without snapshots, in the same run.")
public final class RecoveryBench implements Callable<Integer> {
    private static final Pattern RECOVERED = Pattern.compile("engine: recovered (\\d+) inputs in (\\d+) ms");
    private static final List<String> ENGINE_JVM = List.of("-Xmx2g");

    @Option(names = "--sizes", split = ",", defaultValue = "1000000,10000000",
            description = "inputs of history at which restarts are timed, ascending (default ${DEFAULT-VALUE})")
    private List<Long> sizes;

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
        final List<BenchResult> rows = new ArrayList<>();
        try (Flow flow = new Flow(config, root)) {
            for (final long size : sizes) {
                final long start = System.nanoTime();
                flow.append(size - flow.written());
                record(config.restartFromSnapshots(true), flow.written());
                System.out.printf(Locale.ROOT, "  %,d inputs: written and recorded in %.1f s (%,d MB of journals)%n",
                        flow.written(), (System.nanoTime() - start) / 1e9, du(root) >> 20);
                final Restart without = restart(flow, root, logs, withoutFile, "without-" + size);
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
                final Restart with = restart(flow, root, logs, withFile, "with-" + size);
                System.out.printf(Locale.ROOT, "  %,d inputs: restart to first live answer without snapshots %,d ms (engine"
                                + " recovery %,d ms, %,d inputs re-run); with %,d ms (engine recovery %,d ms, %,d re-run):"
                                + " %.2fx; snapshotter %.1f s%n    %s%n",
                        size, without.launchToAnswerMs, without.recoveryMs, without.rerun, with.launchToAnswerMs,
                        with.recoveryMs, with.rerun, (double) with.launchToAnswerMs / without.launchToAnswerMs,
                        snapshotSeconds, lastLine(snapshotLog));
                rows.add(BenchResult.section().put("inputs", size)
                        .put("withoutSnapshots", without.json()).put("withSnapshots", with.json())
                        .put("ratio", (double) with.launchToAnswerMs / without.launchToAnswerMs)
                        .put("snapshotterSeconds", snapshotSeconds));
            }
        }
        final BenchResult result = BenchResult.of("recovery").put("sizes", sizes).put("rows", rows)
                .put("note", "restart = engine process launch to its answer to the first live command in the engine journal");
        System.out.println("  results: " + result.write(BenchResult.resultsDir()));
        return 0;
    }

    /** The engine's own loop, in this process, answers every command written so far (the recording). */
    private static void record(final EngineConfig config, final long inputs) {
        try (EngineService service = new EngineService(config)) {
            final long recovered = service.recover();
            final long base = recovered + (service.restoredFrom() == null ? 0 : service.restoredFrom().inputs());
            while (base + service.processed() < inputs) {
                service.poll();
            }
        }
    }

    private record Restart(long launchToAnswerMs, long recoveryMs, long rerun) {
        BenchResult json() {
            return BenchResult.section().put("launchToFirstAnswerMs", launchToAnswerMs).put("engineRecoveryMs", recoveryMs)
                    .put("inputsReRun", rerun);
        }
    }

    /** Appends one command, launches an engine, times it to that command's answer, stops it. */
    private static Restart restart(final Flow flow, final Path root, final Path logs, final Path configFile,
                                   final String name) throws Exception {
        try (ChronicleQueue engineJournal = Journals.openReadOnly(Journals.engineJournal(root));
             ExcerptTailer tailer = engineJournal.createTailer().toEnd()) {
            flow.append(1);
            final long start = System.nanoTime();
            try (JavaProcess engine = JavaProcess.start("engine", logs.resolve(name + ".log"), ENGINE_JVM,
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
                engine.stop(30);
                final Matcher m = RECOVERED.matcher(engine.logText());
                return m.find() ? new Restart(ms, Long.parseLong(m.group(2)), Long.parseLong(m.group(1)))
                        : new Restart(ms, -1, -1);
            }
        }
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

    private static long du(final Path root) throws java.io.IOException {
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
