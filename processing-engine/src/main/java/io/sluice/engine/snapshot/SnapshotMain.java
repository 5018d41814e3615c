package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.JournalingInput;
import io.sluice.runtime.journal.StaleWriteLock;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.recovery.RecordedInputs;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.LockHeldException;
import io.sluice.runtime.process.ProcessLock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice snapshot --config engine.yaml [--root DIR] [--every N] [--at-end] [--follow [--interval S]]}: the
 * snapshotter. The engine is
 * deterministic, so any engine fed the same inputs in the same order has the same state: this process never touches
 * the live engine. It opens the recorded journals under the root read-only (the deployment's, or a replica's), starts
 * a fresh engine from the newest valid snapshot already written (or from nothing), re-runs the recorded inputs after
 * it in the recorded consumption order, comparing every report with the recorded one as the engine's own recovery
 * does ({@link RecordedInputs#recover}), and writes a snapshot ({@link SnapshotWriter}) into {@code <root>/snapshots}
 * after every {@code N}-th input of the engine journal and/or after the last one recorded. Then it exits: run it
 * again (from cron, or after a busy hour) to go on from where it got to. With {@code --follow} it does not exit but keeps
 * up with the journals as the engine writes them ({@link SnapshotFollower}, an Agrona agent idling with a sleeping
 * strategy), a snapshot after every {@code N}-th input and/or every {@code --interval} seconds, until SIGTERM.
 * <p>
 * It takes the snapshot journal's writer lock first ({@link ProcessLock#journalWriter}): one snapshotter per root.
 * <p>
 * Exit codes: 0 done (or stopped by SIGTERM); 1 another process writes the snapshot journal (the message names it and
 * its pid), or an unforeseen failure; 2 bad config or options, or an admin journal others could write; 3 a journal is
 * damaged, or re-running gave other reports than recorded (the message says where).
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Write snapshots of the engine's state by re-running the recorded journals (never touching the live engine).")
public final class SnapshotMain implements Callable<Integer> {
    /** Exit code when another process writes the snapshot journal, or something unforeseen stopped a follower. */
    public static final int EXIT_FAILED = 1;
    /** Exit code for a bad config or options. */
    public static final int EXIT_BAD_CONFIG = 2;
    /** Exit code for a damaged journal or a re-run that differs from the record. */
    public static final int EXIT_CORRUPT_JOURNAL = 3;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the engine config (YAML): instruments and gateways")
    private Path configFile;

    @Option(names = "--root", paramLabel = "DIR", description = "journal root to read (e.g. a replica's); default: the config's journalRoot")
    private Path root;

    @Option(names = "--every", paramLabel = "N", description = "write a snapshot after every N-th input of the engine journal")
    private long every;

    @Option(names = "--at-end", description = "write a snapshot after the last input recorded (the default without --every)")
    private boolean atEnd;

    @Option(names = "--follow", description = "do not exit: keep up with the live journals, writing snapshots as"
            + " --every and --interval say, until SIGTERM")
    private boolean follow;

    @Option(names = "--interval", paramLabel = "SECONDS", description = "with --follow: also write a snapshot after"
            + " the last input re-run once this long has passed since the last one (if inputs came since);"
            + " default 60 without --every")
    private Double intervalSeconds;

    @Option(names = "--idle", paramLabel = "ALIAS", description = "with --follow: what its thread does with nothing"
            + " new to re-run, one of Agrona's aliases (default ${DEFAULT-VALUE}: 1 ms sleeps, never a core taken"
            + " from the live engine)")
    private String idle = "sleep-ms";

    @Option(names = "--priority", paramLabel = "normal|idle", description = "with --follow: the scheduling class of its"
            + " threads: normal, or idle (Linux's SCHED_IDLE, as the live tail runs: it takes only CPU time nothing else"
            + " wants, and falls behind while the machine is busy) (default ${DEFAULT-VALUE})")
    private String priority = "normal";

    public static void main(final String[] args) {
        System.exit(new CommandLine(new SnapshotMain()).execute(args));
    }

    @Override
    public Integer call() {
        final EngineConfig config;
        try {
            config = EngineConfig.load(configFile);
        } catch (final RuntimeException e) {
            System.err.println("snapshot: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
        if (every < 0) {
            System.err.println("snapshot: --every must be positive, got " + every);
            return EXIT_BAD_CONFIG;
        }
        final Path journals = root != null ? root : config.journalRoot();
        try (ProcessLock writer = ProcessLock.journalWriter(Journals.snapshotJournal(journals), "snapshot")) {
            return follow ? follow(config, journals) : once(config, journals);
        } catch (final LockHeldException e) {
            System.err.println("snapshot: cannot start: " + e.getMessage());
            return EXIT_FAILED;
        }
    }

    private int once(final EngineConfig config, final Path journals) {
        if (intervalSeconds != null) {
            System.err.println("snapshot: --interval needs --follow");
            return EXIT_BAD_CONFIG;
        }
        try {
            final Summary summary = run(config, journals, every, atEnd || every == 0);
            System.out.println(summary.describe());
            return 0;
        } catch (final CorruptJournalException | IllegalArgumentException e) {
            System.err.println("snapshot: " + e.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        } catch (final IllegalStateException e) { // an admin journal others could write (AdminJournal.requireOwnerOnly)
            System.err.println("snapshot: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
    }

    private int follow(final EngineConfig config, final Path journals) {
        final double interval = intervalSeconds != null ? intervalSeconds : every == 0 ? 60 : 0;
        final IdleConfig idleConfig;
        try {
            idleConfig = IdleConfig.of(idle);
        } catch (final IllegalArgumentException e) {
            System.err.println("snapshot: --idle: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
        if (!(interval >= 0) || atEnd) {
            System.err.println("snapshot: with --follow, --interval takes seconds (at least 0) and --at-end does not"
                    + " apply");
            return EXIT_BAD_CONFIG;
        }
        final AgentThread.Priority schedulingClass = switch (priority) {
            case "normal" -> AgentThread.Priority.NORMAL;
            case "idle" -> AgentThread.Priority.IDLE_PROCESS;
            default -> null;
        };
        if (schedulingClass == null) {
            System.err.println("snapshot: --priority takes normal or idle, got " + priority);
            return EXIT_BAD_CONFIG;
        }
        final SnapshotFollower follower = new SnapshotFollower(config, journals, every, Math.round(interval * 1e9));
        final AgentThread thread = AgentThread.start(follower, idleConfig.newStrategy(), CpuPinning.NONE,
                schedulingClass);
        final SigtermHook hook = SigtermHook.install("snapshot", thread);
        try {
            thread.awaitClosed();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        hook.close();
        System.out.println(follower.summary().describe());
        final Throwable failure = thread.failure();
        if (failure instanceof CorruptJournalException || failure instanceof IllegalArgumentException) {
            System.err.println("snapshot: " + failure.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        }
        if (failure != null) {
            System.err.println("snapshot: stopped by an unforeseen failure:");
            failure.printStackTrace();
            return EXIT_FAILED;
        }
        return 0;
    }

    /** What a run did. */
    public record Summary(Path journal, SnapshotRestore.Restored from, long rerun, long inputs, int written,
                          long lastEngineIndex, long nanos) {
        public String describe() {
            return String.format(Locale.ROOT, "snapshot: %s, re-ran %,d inputs (%,d in all) in %.3f s, wrote %d snapshot%s%s into %s",
                    from == null ? "started from the first input" : "started from the " + from.describe(), rerun, inputs,
                    nanos / 1e9, written, written == 1 ? "" : "s",
                    written == 0 ? "" : String.format(" (the last at engine index 0x%x)", lastEngineIndex), journal);
        }
    }

    /**
     * Re-runs the journals under {@code root} from the newest valid snapshot, writing snapshots as it goes.
     *
     * @param every write after every {@code every}-th input (0: never on the way)
     * @param atEnd write after the last input recorded, unless a snapshot is there already
     */
    public static Summary run(final EngineConfig config, final Path root, final long every, final boolean atEnd) {
        final long start = System.nanoTime();
        final Path snapshotDir = Journals.snapshotJournal(root);
        try (ChronicleQueue engineJournal = Journals.openReadOnly(Journals.engineJournal(root));
             InputSources sources = new InputSources(root, true, config.gatewayIds());
             ChronicleQueue snapshots = Journals.open(snapshotDir);
             ConsumptionOrder order = new ConsumptionOrder(engineJournal)) {
            if (StaleWriteLock.breakIfHolderDead(snapshots)) {
                System.err.println("snapshot: broke the write lock of " + snapshotDir + ", left by a dead snapshotter");
            }
            final Wire rerun = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticDirect(64 * 1024));
            final Engine engine = new Engine(config, rerun.methodWriter(EngineToGateway.class));
            final ExcerptComparison comparison = new ExcerptComparison(false);
            final JournalingInput input = new JournalingInput(rerun, engine, comparison);
            final SnapshotRestore.Restored from = SnapshotRestore.restore(snapshots, config, engine, order, sources,
                    SnapshotRestore.LATEST, problem -> System.err.println("snapshot: " + problem));
            final long base = from == null ? 0 : from.inputs();
            final SnapshotWriter writer = new SnapshotWriter(snapshots.createAppender(), config);
            final long[] last = {from == null ? -1 : from.engineIndex(), 0, -1}; // last input's index; written; last written
            final long rerunCount = RecordedInputs.recover(engineJournal, order, sources, input, comparison, rerun,
                    (at, count) -> {
                        last[0] = at.index();
                        if (every > 0 && (base + count) % every == 0) {
                            writer.write(engine, at, base + count, sources);
                            last[1]++;
                            last[2] = at.index();
                        }
                    });
            final long inputs = base + rerunCount;
            final boolean snapshotAtEnd = last[0] >= 0 && last[2] != last[0] && (from == null || last[0] != from.engineIndex());
            if (atEnd && snapshotAtEnd) {
                if (!order.at(last[0])) {
                    throw order.corrupt("the last input re-run is no longer at its index", null);
                }
                writer.write(engine, order, inputs, sources);
                last[1]++;
                last[2] = last[0];
            }
            return new Summary(snapshotDir.toAbsolutePath(), from, rerunCount, inputs, (int) last[1], last[2],
                    System.nanoTime() - start);
        }
    }
}
