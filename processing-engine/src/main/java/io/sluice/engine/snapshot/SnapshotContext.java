package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.JournalingInput;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.InputSources;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.runtime.journal.StaleWriteLock;
import io.sluice.runtime.process.ProcessLock;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import org.agrona.CloseHelper;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;

/**
 * What a snapshotter is made of, checked and opened before it runs, as Aeron's {@code Archive.Context}.
 * <p>
 * Set the engine config (and the root to read, if not the config's, and the clock), then {@link #conclude()}: it
 * takes the snapshot journal's writer lock ({@link ProcessLock#journalWriter}: one snapshotter per root, in a process
 * or in a test's JVM alike), opens the recorded engine journal and input journals read-only and the snapshot journal
 * for writing (breaking a write lock a dead snapshotter left, {@link StaleWriteLock}), a follower's counters file,
 * builds a fresh engine writing its reports to memory, and restores the newest valid snapshot into it ({@link SnapshotRestore}), leaving the
 * consumption order and the input journals right after it. If a step fails, everything the earlier ones opened is
 * closed, the lock released, and the failure thrown. {@link SnapshotMain#run(SnapshotContext, long, boolean)} and
 * {@link SnapshotFollower} then re-run the inputs after it, on whichever thread: the journals are handed over at the
 * end of {@code conclude()} (Chronicle binds a tailer or appender to the first thread that uses it).
 */
public final class SnapshotContext implements AutoCloseable {
    /** Where a context is: being set up, concluded (everything open), or closed. */
    private enum State {
        SETTING_UP,
        CONCLUDED,
        CLOSED
    }

    /** Room for the reports of one re-run input; the wire grows if an input ever causes more. */
    private static final int RERUN_WIRE_BYTES = 64 * 1024;

    private State state = State.SETTING_UP;
    private EngineConfig config;
    private Path root;
    private NanoClock nanoClock;
    private boolean countersFile;

    private ProcessLock writerLock;
    private CountersFile counters;
    private ChronicleQueue engineJournal;
    private InputSources sources;
    private ChronicleQueue snapshots;
    private ConsumptionOrder order;
    private Wire rerun;
    private Engine engine;
    private ExcerptComparison comparison;
    private JournalingInput input;
    private SnapshotWriter writer;
    private SnapshotRestore.Restored restoredFrom;
    private long startNanos;

    /** The engine config: instruments, gateways, capacities (and the journal root, unless {@link #root} is set). */
    public SnapshotContext config(final EngineConfig config) {
        requireSettingUp();
        this.config = config;
        return this;
    }

    /** @return the engine config */
    public EngineConfig config() {
        return config;
    }

    /** The journal root to read and write the snapshots under (e.g. a replica's). Default: the config's. */
    public SnapshotContext root(final Path root) {
        requireSettingUp();
        this.root = root;
        return this;
    }

    /** @return the journal root */
    public Path root() {
        return root;
    }

    /** The clock that times the run and paces a follower's snapshots by time. Default: the system's. */
    public SnapshotContext nanoClock(final NanoClock nanoClock) {
        requireSettingUp();
        this.nanoClock = nanoClock;
        return this;
    }

    /** @return the clock that times the run */
    public NanoClock nanoClock() {
        return nanoClock;
    }

    /**
     * Whether to keep a counters file, {@code <root>/counters/snapshotter.counters}: a follower does, for
     * {@code ./sluice stat} and {@code ./sluice metrics}. Default: no.
     */
    public SnapshotContext countersFile(final boolean countersFile) {
        requireSettingUp();
        this.countersFile = countersFile;
        return this;
    }

    /**
     * Takes the snapshot journal's writer lock, opens the journals and restores the newest valid snapshot (see the
     * class comment).
     *
     * @return this, concluded
     * @throws io.sluice.runtime.process.LockHeldException         if another snapshotter writes the snapshot journal
     * @throws IllegalStateException                               if the admin journal is open to others
     * @throws IllegalArgumentException                            if a journal is missing or of another format
     * @throws io.sluice.contracts.journal.CorruptJournalException if a journal cannot be read
     */
    public SnapshotContext conclude() {
        requireSettingUp();
        if (config == null) {
            throw new IllegalStateException("a snapshot context needs a config");
        }
        if (root == null) {
            root = config.journalRoot();
        }
        if (nanoClock == null) {
            nanoClock = SystemNanoClock.INSTANCE;
        }
        state = State.CONCLUDED;
        startNanos = nanoClock.nanoTime();
        try {
            final Path snapshotDir = Journals.snapshotJournal(root);
            writerLock = ProcessLock.journalWriter(snapshotDir, "snapshot");
            engineJournal = Journals.openReadOnly(Journals.engineJournal(root));
            sources = new InputSources(root, true, config.gatewayIds());
            snapshots = Journals.open(snapshotDir);
            order = new ConsumptionOrder(engineJournal);
            if (StaleWriteLock.breakIfHolderDead(snapshots)) {
                System.err.println("snapshot: broke the write lock of " + snapshotDir + ", left by a dead snapshotter");
            }
            rerun = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticDirect(RERUN_WIRE_BYTES));
            engine = new Engine(config, rerun.methodWriter(EngineToGateway.class));
            comparison = new ExcerptComparison(false);
            input = new JournalingInput(rerun, engine, comparison);
            restoredFrom = SnapshotRestore.restore(snapshots, config, engine, order, sources, SnapshotRestore.LATEST,
                    nanoClock, problem -> System.err.println("snapshot: " + problem));
            writer = new SnapshotWriter(snapshots.createAppender(), config);
            if (countersFile) {
                counters = CountersFile.create(root, SnapshotFollower.PROCESS);
            }
            order.singleThreadedCheckReset();
            sources.singleThreadedCheckReset();
        } catch (final RuntimeException | Error e) {
            CloseHelper.quietClose(this); // the failure, not a second one from closing, is the news
            throw e;
        }
        return this;
    }

    /** @return when {@link #conclude()} began, by {@link #nanoClock()}: a run's time includes the restore */
    long startNanos() {
        return startNanos;
    }

    /** @return the recorded engine journal, read-only */
    ChronicleQueue engineJournal() {
        return engineJournal;
    }

    /** @return the recorded input journals, read-only, after the snapshot restored */
    InputSources sources() {
        return sources;
    }

    /** @return the engine journal's consumption order, after the snapshot restored */
    ConsumptionOrder order() {
        return order;
    }

    /** @return where the fresh engine writes the reports of an input re-run */
    Wire rerun() {
        return rerun;
    }

    /** @return the fresh engine, holding the snapshot restored */
    Engine engine() {
        return engine;
    }

    /** @return the comparison of each re-run input's reports with the recorded ones */
    ExcerptComparison comparison() {
        return comparison;
    }

    /** @return the engine as {@link io.sluice.engine.recovery.RecordedInputs#recover} feeds it */
    JournalingInput input() {
        return input;
    }

    /** @return the writer of the snapshot journal */
    SnapshotWriter writer() {
        return writer;
    }

    /** @return the snapshot restored, or null if the re-run starts from the first input */
    SnapshotRestore.Restored restoredFrom() {
        return restoredFrom;
    }

    /** @return the counters file, or null without {@link #countersFile(boolean)} */
    CountersFile counters() {
        return counters;
    }

    /** @return the snapshot journal's directory, absolute */
    Path snapshotJournal() {
        return Journals.snapshotJournal(root).toAbsolutePath();
    }

    /** @throws IllegalStateException unless {@link #conclude()} has succeeded and nothing has closed the context */
    void requireConcluded() {
        if (state != State.CONCLUDED) {
            throw new IllegalStateException("the snapshot context is " + (state == State.CLOSED ? "closed" : "not concluded"));
        }
    }

    private void requireSettingUp() {
        if (state != State.SETTING_UP) {
            throw new IllegalStateException("the snapshot context is already concluded");
        }
    }

    /** Closes what {@link #conclude()} opened, in reverse order, and releases the writer lock; once. */
    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        CloseHelper.closeAll(counters, order, snapshots, sources, engineJournal, writerLock);
    }
}
