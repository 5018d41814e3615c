package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineToGateway;
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
import io.sluice.runtime.counters.CounterLabel;
import io.sluice.runtime.counters.CountersFile;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code ./sluice snapshot --follow}: the snapshotter as a long-running Agrona agent beside a live engine (or on a
 * replica). It starts as a run of {@link SnapshotMain} does (the newest valid snapshot, or nothing, then every recorded
 * input after it, each compared with the recorded reports), then keeps up with the journals as the engine writes them:
 * each turn re-runs whatever inputs the engine journal has recorded since the last turn, and writes a snapshot after
 * every {@code every}-th input and, with {@code intervalNanos}, after the last input re-run once that long has passed
 * since the last snapshot (only if inputs came since). Between turns with nothing new its thread idles as told (a
 * sleeping strategy by default: it must never take a core from the live engine). Everything is opened on the agent's
 * own thread ({@link #onStart}), as Chronicle wants, and closed there.
 * <p>
 * Its progress is in its counters file, {@code <root>/counters/snapshotter.counters}, for {@code ./sluice stat} and
 * {@code ./sluice metrics}: {@code sluice_snapshotter_engine_index} (the engine journal index of the last input it
 * re-ran: it has caught up when that is the engine's {@code sluice_engine_journal_index}),
 * {@code sluice_snapshotter_inputs_total} and {@code sluice_snapshotter_snapshots_total}, set once per turn.
 */
final class SnapshotFollower implements Agent {
    /** Its process name, and so its counters file's: {@code <root>/counters/snapshotter.counters}. */
    static final String PROCESS = "snapshotter";
    private final EngineConfig config;
    private final Path root;
    private final long every;
    private final long intervalNanos;
    private ChronicleQueue engineJournal;
    private InputSources sources;
    private ChronicleQueue snapshots;
    private ConsumptionOrder order;
    private Wire rerun;
    private Engine engine;
    private ExcerptComparison comparison;
    private JournalingInput input;
    private SnapshotWriter writer;
    private RecordedInputs.Recovered onInput;
    private SnapshotRestore.Restored from;
    private long base;
    private long rerunCount;
    private long lastIndex = -1;
    private long lastWrittenIndex = -1;
    private long lastWriteNanos;
    private long written;
    private long startNanos;
    private CountersFile counters;
    private AtomicCounter engineIndexGauge;
    private AtomicCounter inputsCounter;
    private AtomicCounter snapshotsCounter;

    /**
     * @param every         write after every {@code every}-th input of the engine journal (0: not by count)
     * @param intervalNanos write after the last input re-run once this long has passed since the last snapshot
     *                      (0: not by time)
     */
    SnapshotFollower(final EngineConfig config, final Path root, final long every, final long intervalNanos) {
        this.config = config;
        this.root = root;
        this.every = every;
        this.intervalNanos = intervalNanos;
    }

    @Override
    public void onStart() {
        startNanos = System.nanoTime();
        final Path snapshotDir = Journals.snapshotJournal(root);
        engineJournal = Journals.openReadOnly(Journals.engineJournal(root));
        sources = new InputSources(root, true, config.gatewayIds());
        snapshots = Journals.open(snapshotDir);
        order = new ConsumptionOrder(engineJournal);
        if (StaleWriteLock.breakIfHolderDead(snapshots)) {
            System.err.println("snapshot: broke the write lock of " + snapshotDir + ", left by a dead snapshotter");
        }
        rerun = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticDirect(64 * 1024));
        engine = new Engine(config, rerun.methodWriter(EngineToGateway.class));
        comparison = new ExcerptComparison(false);
        input = new JournalingInput(rerun, engine, comparison);
        from = SnapshotRestore.restore(snapshots, config, engine, order, sources, SnapshotRestore.LATEST,
                problem -> System.err.println("snapshot: " + problem));
        base = from == null ? 0 : from.inputs();
        lastIndex = from == null ? -1 : from.engineIndex();
        lastWrittenIndex = lastIndex;
        lastWriteNanos = System.nanoTime();
        writer = new SnapshotWriter(snapshots.createAppender(), config);
        counters = CountersFile.create(root, PROCESS);
        engineIndexGauge = counters.gauge(CounterLabel.of("sluice_snapshotter_engine_index"));
        inputsCounter = counters.counter(CounterLabel.of("sluice_snapshotter_inputs_total"));
        snapshotsCounter = counters.counter(CounterLabel.of("sluice_snapshotter_snapshots_total"));
        engineIndexGauge.setRelease(lastIndex);
        onInput = (at, count) -> {
            lastIndex = at.index();
            rerunCount++;
            if (every > 0 && (base + rerunCount) % every == 0) {
                write(at);
            }
        };
        System.out.println("snapshot: following " + root.toAbsolutePath() + ", "
                + (from == null ? "from the first input" : "from the " + from.describe()) + "; a snapshot "
                + (every > 0 ? "after every " + every + "-th input" : "")
                + (every > 0 && intervalNanos > 0 ? " and " : "")
                + (intervalNanos > 0 ? String.format(Locale.ROOT, "every %.3f s with new inputs", intervalNanos / 1e9) : "")
                + " into " + snapshotDir.toAbsolutePath());
    }

    @Override
    public int doWork() {
        final long before = rerunCount;
        RecordedInputs.recover(engineJournal, order, sources, input, comparison, rerun, onInput);
        if (intervalNanos > 0 && lastIndex >= 0 && lastIndex != lastWrittenIndex
                && System.nanoTime() - lastWriteNanos >= intervalNanos) {
            if (!order.at(lastIndex)) {
                throw order.corrupt("the last input re-run is no longer at its index", null);
            }
            write(order);
        }
        if (rerunCount != before) {
            inputsCounter.setRelease(rerunCount);
            snapshotsCounter.setRelease(written);
            engineIndexGauge.setRelease(lastIndex);
        }
        return (int) Math.min(Integer.MAX_VALUE, rerunCount - before);
    }

    private void write(final ConsumptionOrder at) {
        writer.write(engine, at, base + rerunCount, sources);
        written++;
        lastWrittenIndex = at.index();
        lastWriteNanos = System.nanoTime();
    }

    @Override
    public void onClose() {
        if (counters != null) {
            snapshotsCounter.setRelease(written);
            counters.close();
        }
        if (order != null) {
            order.close();
        }
        if (snapshots != null) {
            snapshots.close();
        }
        if (sources != null) {
            sources.close();
        }
        if (engineJournal != null) {
            engineJournal.close();
        }
    }

    @Override
    public String roleName() {
        return "snapshotter";
    }

    /** @return what it has done so far (for the line printed when it stops) */
    SnapshotMain.Summary summary() {
        return new SnapshotMain.Summary(Journals.snapshotJournal(root).toAbsolutePath(), from, rerunCount,
                base + rerunCount, (int) written, lastWrittenIndex, System.nanoTime() - startNanos);
    }
}
