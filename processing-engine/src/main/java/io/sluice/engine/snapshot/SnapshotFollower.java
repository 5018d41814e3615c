package io.sluice.engine.snapshot;

import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.RecordedInputs;
import io.sluice.runtime.counters.CounterLabel;
import io.sluice.runtime.counters.CountersFile;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.Locale;

/**
 * {@code ./sluice snapshot --follow}: the snapshotter as a long-running Agrona agent beside a live engine (or on a
 * replica). It starts as a run of {@link SnapshotMain} does (the newest valid snapshot, or nothing, then every recorded
 * input after it, each compared with the recorded reports), then keeps up with the journals as the engine writes them:
 * each turn re-runs whatever inputs the engine journal has recorded since the last turn, and writes a snapshot after
 * every {@code every}-th input and, with {@code intervalNanos}, after the last input re-run once that long has passed
 * since the last snapshot (only if inputs came since). Between turns with nothing new its thread idles as told (a
 * sleeping strategy by default: it must never take a core from the live engine). The journals are opened, and the
 * newest snapshot restored, by its {@link SnapshotContext} before it runs; it closes the context when it closes.
 * <p>
 * Its progress is in its counters file, {@code <root>/counters/snapshotter.counters}, for {@code ./sluice stat} and
 * {@code ./sluice metrics}: {@code sluice_snapshotter_engine_index} (the engine journal index of the last input it
 * re-ran: it has caught up when that is the engine's {@code sluice_engine_journal_index}),
 * {@code sluice_snapshotter_inputs_total} and {@code sluice_snapshotter_snapshots_total}, set once per turn.
 */
final class SnapshotFollower implements Agent {
    /** Its process name, and so its counters file's: {@code <root>/counters/snapshotter.counters}. */
    static final String PROCESS = "snapshotter";
    private final SnapshotContext context;
    private final NanoClock clock;
    private final long every;
    private final long intervalNanos;
    private final SnapshotRestore.Restored from;
    private final long base;
    private final RecordedInputs.Recovered onInput;
    private final AtomicCounter engineIndexGauge;
    private final AtomicCounter inputsCounter;
    private final AtomicCounter snapshotsCounter;
    private long rerunCount;
    private long lastIndex;
    private long lastWrittenIndex;
    private long lastWriteNanos;
    private long written;

    /**
     * @param context       concluded ({@link SnapshotContext#conclude()}: the lock, the journals, the newest snapshot)
     *                      with a {@linkplain SnapshotContext#countersFile counters file}; the follower closes it when
     *                      it closes
     * @param every         write after every {@code every}-th input of the engine journal (0: not by count)
     * @param intervalNanos write after the last input re-run once this long has passed since the last snapshot
     *                      (0: not by time)
     */
    SnapshotFollower(final SnapshotContext context, final long every, final long intervalNanos) {
        context.requireConcluded();
        this.context = context;
        this.clock = context.nanoClock();
        this.every = every;
        this.intervalNanos = intervalNanos;
        from = context.restoredFrom();
        base = from == null ? 0 : from.inputs();
        lastIndex = from == null ? -1 : from.engineIndex();
        lastWrittenIndex = lastIndex;
        onInput = (at, count) -> {
            lastIndex = at.index();
            rerunCount++;
            if (every > 0 && (base + rerunCount) % every == 0) {
                write(at);
            }
        };
        final CountersFile counters = context.counters();
        engineIndexGauge = counters.gauge(CounterLabel.of("sluice_snapshotter_engine_index"));
        inputsCounter = counters.counter(CounterLabel.of("sluice_snapshotter_inputs_total"));
        snapshotsCounter = counters.counter(CounterLabel.of("sluice_snapshotter_snapshots_total"));
    }

    @Override
    public void onStart() {
        lastWriteNanos = clock.nanoTime();
        engineIndexGauge.setRelease(lastIndex);
        System.out.println("snapshot: following " + context.root().toAbsolutePath() + ", "
                + (from == null ? "from the first input" : "from the " + from.describe()) + "; a snapshot "
                + (every > 0 ? "after every " + every + "-th input" : "")
                + (every > 0 && intervalNanos > 0 ? " and " : "")
                + (intervalNanos > 0 ? String.format(Locale.ROOT, "every %.3f s with new inputs", intervalNanos / 1e9) : "")
                + " into " + context.snapshotJournal());
    }

    @Override
    public int doWork() {
        final long before = rerunCount;
        final ConsumptionOrder order = context.order();
        RecordedInputs.recover(context.engineJournal(), order, context.sources(), context.input(), context.comparison(),
                context.rerun(), onInput);
        if (intervalNanos > 0 && lastIndex >= 0 && lastIndex != lastWrittenIndex
                && clock.nanoTime() - lastWriteNanos >= intervalNanos) {
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
        context.writer().write(context.engine(), at, base + rerunCount, context.sources());
        written++;
        lastWrittenIndex = at.index();
        lastWriteNanos = clock.nanoTime();
    }

    @Override
    public void onClose() {
        snapshotsCounter.setRelease(written);
        context.close();
    }

    @Override
    public String roleName() {
        return "snapshotter";
    }

    /** @return what it has done so far (for the line printed when it stops) */
    SnapshotMain.Summary summary() {
        return new SnapshotMain.Summary(context.snapshotJournal(), from, rerunCount, base + rerunCount, (int) written,
                lastWrittenIndex, clock.nanoTime() - context.startNanos());
    }
}
