package io.sluice.engine;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.InputSource;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.recovery.RecordedInputs;
import io.sluice.engine.snapshot.SnapshotRestore;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A standby's engine before the promotion, re-running read-only what the receiver appends to the replica root.
 * <p>
 * An Agrona agent, run on a background thread while the engine process waits for the standby's word that the root is
 * promoted ({@code EngineMain}, {@code --await-promotion}). Until the engine journal and every gateway journal of the
 * config are there it only looks for them; then it opens them read-only ({@link Journals#openReadOnly}: a standby that
 * is never promoted leaves the root as its receiver made it), restores the newest valid snapshot into a fresh engine and
 * re-runs every input the engine journal records, in the recorded order, each compared with the recorded reports, as
 * recovery does ({@link RecordedInputs#rerunIfArrived}). An input the engine journal names before its gateway journal
 * holds it is waited for. A failure (a journal it cannot read, a divergence) ends the following and is said: the
 * promotion then recovers from the journals as a cold start does, and stops there with the failure's exit code.
 * <p>
 * Once the root is promoted, {@link EngineContext#conclude()} takes the writer lock, re-runs on these readers what came
 * since ({@link #finish}: the receiver has stopped, so the engine journal must end there), and goes live with this
 * engine: the promotion is left with what needs the lock, not with the whole re-run.
 */
final class ReplicaFollower implements Agent, AutoCloseable {
    /** Where the follower is. */
    enum State {
        /** The engine journal or a gateway journal is not there yet. */
        AWAITING_JOURNALS,
        /** Between inputs: every input the engine journal holds so far is re-run. */
        FOLLOWING,
        /** At an input the engine journal names that its gateway journal does not hold yet. */
        AWAITING_INPUT,
        /** Stopped by a failure it said; the promotion recovers from the journals instead. */
        FAILED,
        /** Its engine taken over by the promoted engine, or closed. */
        CLOSED
    }

    /**
     * What the follower built, which the promoted engine takes over.
     *
     * @param output       the engine's reports, on their recovery wire until the promoted engine goes live
     * @param engine       the engine, holding the state of every input re-run
     * @param logic        the engine as the live loop calls it: {@code wrapEngine} applied
     * @param restoredFrom the snapshot it started from, or null if it re-ran every input
     */
    record Followed(JournalOutput output, Engine engine, EngineInput logic, SnapshotRestore.Restored restoredFrom) {
    }

    /** Inputs re-run in one duty cycle at most, so that a close is not held back by a long catch-up. */
    private static final int INPUTS_PER_DUTY_CYCLE = 1024;
    /** How often a follower waiting for its journals to appear looks for them. */
    private static final long JOURNAL_LOOK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final EngineConfig config;
    private final UnaryOperator<EngineInput> wrapEngine;
    private final NanoClock nanoClock;
    private volatile State state = State.AWAITING_JOURNALS;
    private long nextLookNanos;

    private ChronicleQueue engineJournal;
    private InputSources sources;
    private ConsumptionOrder order;
    private ExcerptComparison comparison;
    private JournalingInput rerun;
    private Followed built;
    private long inputs;

    /** @param wrapEngine applied to the fresh engine, as {@link EngineContext#wrapEngine} says */
    ReplicaFollower(final EngineConfig config, final UnaryOperator<EngineInput> wrapEngine, final NanoClock nanoClock) {
        this.config = config;
        this.wrapEngine = wrapEngine;
        this.nanoClock = nanoClock;
        nextLookNanos = nanoClock.nanoTime();
    }

    @Override
    public int doWork() {
        try {
            return switch (state) {
                case AWAITING_JOURNALS -> lookForJournals();
                case FOLLOWING, AWAITING_INPUT -> follow(INPUTS_PER_DUTY_CYCLE);
                case FAILED, CLOSED -> 0;
            };
        } catch (final RuntimeException e) {
            state = State.FAILED;
            closeJournals();
            System.out.println("engine: stopped following " + root() + " before the promotion (" + e.getMessage()
                    + "); the promotion recovers from the journals instead");
            System.out.flush();
            return 1;
        }
    }

    private int lookForJournals() {
        final long now = nanoClock.nanoTime();
        if (now - nextLookNanos < 0) {
            return 0;
        }
        nextLookNanos = now + JOURNAL_LOOK_INTERVAL_NANOS;
        final Path root = config.journalRoot();
        if (!Journals.isCreated(Journals.engineJournal(root))) {
            return 0;
        }
        for (final int gatewayId : config.gatewayIds()) {
            if (!Journals.isCreated(Journals.gatewayJournal(root, gatewayId))) {
                return 0;
            }
        }
        openJournals();
        state = State.FOLLOWING;
        System.out.println("engine: following " + root() + " read-only before the promotion, "
                + (built.restoredFrom() == null ? "from the first input" : "from the " + built.restoredFrom().describe()));
        System.out.flush();
        return 1;
    }

    private void openJournals() {
        final Path root = config.journalRoot();
        try {
            engineJournal = Journals.openReadOnly(Journals.engineJournal(root));
            sources = new InputSources(root, true, config.gatewayIds());
            order = new ConsumptionOrder(engineJournal);
            final JournalOutput output = new JournalOutput();
            final Engine engine = new Engine(config, output);
            final EngineInput logic = wrapEngine.apply(engine);
            comparison = new ExcerptComparison(false);
            rerun = new JournalingInput(output.recoveryWire(), logic, comparison);
            built = new Followed(output, engine, logic, config.restartFromSnapshots() ? SnapshotRestore.restore(root,
                    config, engine, order, sources, SnapshotRestore.LATEST, nanoClock,
                    problem -> System.err.println("engine: " + problem)) : null);
        } catch (final RuntimeException | Error e) {
            closeJournals();
            throw e;
        }
    }

    /**
     * Re-runs at most {@code limit} inputs the engine journal holds, waiting at one its gateway journal does not hold yet.
     *
     * @return how many were re-run
     */
    private int follow(final int limit) {
        int work = 0;
        while (work < limit) {
            if (state == State.FOLLOWING && !order.next()) {
                return work;
            }
            if (!RecordedInputs.rerunIfArrived(engineJournal, order, sources, rerun, comparison, built.output().recoveryWire())) {
                state = State.AWAITING_INPUT;
                return work;
            }
            state = State.FOLLOWING;
            inputs++;
            work++;
        }
        return work;
    }

    /** @return where it is; safe to read from any thread */
    State state() {
        return state;
    }

    /** @return how many inputs it has re-run (not counting those the snapshot holds) */
    long inputs() {
        return inputs;
    }

    /**
     * On the promoted root, the receiver stopped and the engine journal's writer lock held, its thread stopped: re-runs
     * every input recorded since it last looked, as recovery does, and positions {@code live}, the engine's input journals
     * opened for writing, where its own readers are; then closes its readers. Its engine is the promoted engine's.
     *
     * @return how many inputs it re-ran now
     * @throws io.sluice.contracts.journal.CorruptJournalException as recovery does (an input missing, a divergence, a
     *                                                             damaged excerpt where the engine journal should end)
     */
    long finish(final InputSources live) {
        order.singleThreadedCheckReset();
        sources.singleThreadedCheckReset();
        final long before = inputs;
        follow(Integer.MAX_VALUE);
        if (state == State.AWAITING_INPUT) {
            throw RecordedInputs.notInGatewayJournal(order, sources);
        }
        order.requireEnd();
        for (int i = 0; i < live.count(); i++) {
            final InputSource source = live.get(i);
            final InputSource read = sources.bySourceId(source.sourceId());
            final String problem = read == null || read.lastEventId() == 0 ? null
                    : source.resumeAfter(read.lastReadIndex(), read.lastEventId());
            if (problem != null) {
                throw new IllegalStateException("engine: cannot go on where the replica was followed: " + problem);
            }
        }
        close();
        return inputs - before;
    }

    /** @return what it built, once it found the journals (else null) */
    Followed followed() {
        return built;
    }

    private String root() {
        return config.journalRoot().toAbsolutePath().toString();
    }

    @Override
    public String roleName() {
        return "engine follower";
    }

    /** Leaves the readers open: the promoted engine finishes with them ({@link #finish}) or {@link #close()}s them. */
    @Override
    public void onClose() {
    }

    /** Closes its readers; its engine's state stays as it is. */
    @Override
    public void close() {
        if (state != State.FAILED) {
            state = State.CLOSED;
        }
        closeJournals();
    }

    private void closeJournals() {
        CloseHelper.closeAll(order, sources, engineJournal);
        order = null;
        sources = null;
        engineJournal = null;
    }
}
