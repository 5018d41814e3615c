package io.sluice.engine;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.recovery.RecordedInputs;
import io.sluice.engine.snapshot.SnapshotRestore;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.journal.JournalSpace;
import io.sluice.runtime.journal.RootRole;
import io.sluice.runtime.journal.StaleWriteLock;
import io.sluice.runtime.process.ProcessLock;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.CloseHelper;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * What an engine is made of, checked and opened before any of its agents is built, as Aeron's
 * {@code MediaDriver.Context}.
 * <p>
 * Set the config (and, for tests and the process's main, the clocks, the start-up phases and a wrapper of the engine),
 * then {@link #conclude()}: it validates, and does every file-system step in order, each failure naming what it
 * refused: the engine journal's writer lock ({@link ProcessLock#journalWriter}: one engine per root, in a process or
 * in a test's JVM alike); the root must not be a replica ({@link RootRole}); room on the disk to
 * create the journal ({@link JournalSpace#requireRoomToCreate}); the engine journal (breaking a write lock a dead
 * engine left, {@link StaleWriteLock}) and its input journals ({@link InputSources}: an admin journal others could
 * write is refused); the counters file; the admin journal the trading schedule appends to; the disk reserve ahead of
 * the writer ({@link JournalSpace}); then the newest valid snapshot ({@link SnapshotRestore}) and the re-run of every
 * input recorded after it ({@link RecordedInputs#recover}), which leaves each input journal after its last answered
 * command. If a step fails, everything the earlier ones opened is closed, the lock released, and the failure thrown.
 * <p>
 * A standby's engine awaiting the promotion of its root first runs {@link #followReplica()}'s agent: conclude then takes
 * the lock and opens the journals as above, and instead of the snapshot and the full re-run takes over the follower's
 * engine, re-running only the inputs recorded since it last looked ({@link ReplicaFollower#finish}).
 * <p>
 * {@link EngineService#launch(EngineContext)} then builds the agents on what it holds; closing the service closes the
 * context. The journals are handed over at the end of {@code conclude()}, so that whichever thread runs the engine
 * may read and write them (Chronicle binds a tailer or appender to the first thread that uses it).
 */
public final class EngineContext implements AutoCloseable {
    /** Where a context is: being set up, concluded (everything open), or closed. */
    private enum State {
        SETTING_UP,
        CONCLUDED,
        CLOSED
    }

    private State state = State.SETTING_UP;
    private EngineConfig config;
    private UnaryOperator<EngineInput> wrapEngine = UnaryOperator.identity();
    private EpochClock epochClock;
    private NanoClock nanoClock;
    private StartupPhases phases = StartupPhases.IGNORED;

    private ProcessLock writerLock;
    private ChronicleQueue engineJournal;
    private InputSources sources;
    private EngineCounters counters;
    private AdminJournal scheduleJournal;
    private ExcerptAppender appender;
    private JournalOutput output;
    private Engine engine;
    private EngineInput logic;
    private JournalSpace space;
    private SnapshotRestore.Restored restoredFrom;
    private long recovered;
    private long followedBeforePromotion;
    private long recoveryNanos;
    /** A standby's engine's re-run of its replica before the promotion, or null. */
    private ReplicaFollower follower;

    /** The engine config: instruments, gateways, journal root, reserve, counters, schedule. Required. */
    public EngineContext config(final EngineConfig config) {
        requireSettingUp();
        this.config = config;
        return this;
    }

    /** @return the engine config */
    public EngineConfig config() {
        return config;
    }

    /**
     * For tests of what happens when the engine fails on an input: wraps the engine where the live loop and recovery
     * call it (e.g. to throw on one command). Default: the engine itself.
     */
    public EngineContext wrapEngine(final UnaryOperator<EngineInput> wrapEngine) {
        requireSettingUp();
        this.wrapEngine = wrapEngine;
        return this;
    }

    /**
     * The wall clock the trading scheduler reads (only with a {@code tradingSchedule} configured): tests drive the
     * trading day with their own. Default: the system's.
     */
    public EngineContext epochClock(final EpochClock epochClock) {
        requireSettingUp();
        this.epochClock = epochClock;
        return this;
    }

    /** @return the wall clock of the trading scheduler */
    public EpochClock epochClock() {
        return epochClock;
    }

    /** The clock that times the start and paces the disk keeper's checks. Default: the system's. */
    public EngineContext nanoClock(final NanoClock nanoClock) {
        requireSettingUp();
        this.nanoClock = nanoClock;
        return this;
    }

    /** @return the clock that times the start and paces the disk checks */
    public NanoClock nanoClock() {
        return nanoClock;
    }

    /**
     * Where {@link #conclude()} ends the start-up phases {@code journals}, {@code snapshot} and {@code re-run}: the
     * engine process's, for its start-up line. Default: nobody's.
     */
    public EngineContext phases(final StartupPhases phases) {
        requireSettingUp();
        this.phases = phases;
        return this;
    }

    /** @return the start-up phases being timed */
    public StartupPhases phases() {
        return phases;
    }

    /**
     * For a standby's engine awaiting the promotion of its replica root: @return the agent that re-runs, read-only, what
     * the receiver appends ({@link ReplicaFollower}), to be run on a thread of the caller's and stopped before
     * {@link #conclude()}, which then takes its engine over and re-runs only what came since (or, if it never found the
     * journals or failed, closes it and recovers as a cold start does)
     */
    ReplicaFollower followReplica() {
        requireSettingUp();
        if (config == null) {
            throw new IllegalStateException("an engine context needs a config");
        }
        if (follower == null) {
            defaultClocks();
            follower = new ReplicaFollower(config, wrapEngine, nanoClock);
        }
        return follower;
    }

    /** The system's clocks where none was given: a context built by its process's main is always given both. */
    private void defaultClocks() {
        if (epochClock == null) {
            epochClock = SystemEpochClock.INSTANCE;
        }
        if (nanoClock == null) {
            nanoClock = SystemNanoClock.INSTANCE;
        }
    }

    /**
     * Validates, takes the engine journal's writer lock, opens the journals and the counters file, restores the newest
     * valid snapshot and re-runs the inputs after it (see the class comment).
     *
     * @return this, concluded
     * @throws io.sluice.runtime.journal.ReplicaRootException if the root is a replica
     * @throws io.sluice.runtime.process.LockHeldException         if another engine writes the journal, naming it
     * @throws io.sluice.runtime.journal.JournalDiskFullException  if the disk has no room for a new journal
     * @throws IllegalStateException                               if the admin journal is open to others
     * @throws IllegalArgumentException                            if a journal is of another format
     * @throws io.sluice.contracts.journal.CorruptJournalException if a journal is damaged or an input gives other
     *                                                             reports than recorded: nothing goes live
     */
    public EngineContext conclude() {
        requireSettingUp();
        if (config == null) {
            throw new IllegalStateException("an engine context needs a config");
        }
        defaultClocks();
        state = State.CONCLUDED;
        try {
            openJournals();
            phases.end("journals");
            recover();
        } catch (final RuntimeException | Error e) {
            CloseHelper.quietClose(this); // the failure, not a second one from closing, is the news
            throw e;
        }
        return this;
    }

    private void openJournals() {
        final Path root = config.journalRoot();
        final Path journal = Journals.engineJournal(root);
        writerLock = ProcessLock.journalWriter(journal, "engine"); // first: a receiver rebuilding the root holds it
        RootRole.requireNotReplica(root, "engine");
        JournalSpace.requireRoomToCreate(journal, config.journalReserveBytes());
        engineJournal = Journals.open(journal);
        if (StaleWriteLock.breakIfHolderDead(engineJournal)) {
            System.out.println("engine: broke the write lock of " + journal + ", left by a dead engine process");
        }
        // The admin journal first: a wider mode than owner-only stops the engine here, naming it (AdminJournal).
        sources = new InputSources(root, config.gatewayIds());
        counters = EngineCounters.open(config);
        if (config.tradingSchedule() != null) {
            scheduleJournal = AdminJournal.open(root, nanoClock);
        }
        appender = engineJournal.createAppender();
        if (follower != null && follower.state() != ReplicaFollower.State.FOLLOWING
                && follower.state() != ReplicaFollower.State.AWAITING_INPUT) {
            follower.close(); // it found no journals, or failed: recovering as a cold start does
            follower = null;
        }
        if (follower != null) {
            final ReplicaFollower.Followed followed = follower.followed();
            output = followed.output();
            engine = followed.engine();
            logic = followed.logic();
            restoredFrom = followed.restoredFrom();
        } else {
            output = new JournalOutput();
            engine = new Engine(config, output);
            logic = wrapEngine.apply(engine);
        }
        output.countInto(counters);
        space = new JournalSpace(engineJournal, config.journalReserveBytes(), config.diskWarningBytes());
    }

    /**
     * Restores the newest valid snapshot (unless {@code restartFromSnapshots} is off), then re-runs every input the
     * engine journal records after it (all of them without one), compares the reports each gives with the recorded
     * ones, and positions the input journals after them. Then it proves every excerpt header of the journals it reads
     * readable to the last: the engine journal ends where the re-run ended, and each input journal's excerpts ahead
     * can be read ({@link io.sluice.engine.recovery.InputSource#checkAhead}), so that a damaged excerpt header, which a
     * tailer takes for a journal's end, stops the start instead of the live engine waiting.
     */
    private void recover() {
        final long start = nanoClock.nanoTime();
        final String rerun;
        if (follower != null) {
            final long rerunNow = follower.finish(sources);
            recovered = follower.inputs();
            followedBeforePromotion = recovered - rerunNow;
            follower = null;
            rerun = String.format(Locale.ROOT, "%,d inputs, %,d more followed before the promotion", rerunNow,
                    followedBeforePromotion);
        } else {
            rerun = rerunFromSnapshot();
        }
        for (int i = 0; i < sources.count(); i++) {
            sources.get(i).checkAhead();
        }
        output.goLive(appender);
        counters.afterRecovery(engine);
        recoveryNanos = nanoClock.nanoTime() - start;
        phases.end("re-run", rerun);
        sources.singleThreadedCheckReset();
        appender.singleThreadedCheckReset();
    }

    /**
     * A cold start's recovery: the newest valid snapshot, then every input recorded after it re-run and compared.
     *
     * @return how many inputs it re-ran, for the start-up line
     */
    private String rerunFromSnapshot() {
        final ExcerptComparison comparison = new ExcerptComparison(false);
        final JournalingInput rerun = new JournalingInput(output.recoveryWire(), logic, comparison);
        try (ConsumptionOrder order = new ConsumptionOrder(engineJournal)) {
            restoredFrom = config.restartFromSnapshots() ? SnapshotRestore.restore(config.journalRoot(), config, engine,
                    order, sources, SnapshotRestore.LATEST, nanoClock, problem -> System.err.println("engine: " + problem))
                    : null;
            phases.end("snapshot", !config.restartFromSnapshots() ? "restartFromSnapshots off"
                    : restoredFrom == null ? "none used" : restoredFrom.describeTimes());
            recovered = RecordedInputs.recover(engineJournal, order, sources, rerun, comparison, output.recoveryWire(),
                    RecordedInputs.Recovered.NONE);
            order.requireEnd();
        }
        return String.format(Locale.ROOT, "%,d inputs", recovered);
    }

    /** @return how many inputs {@link #conclude()} re-ran (not counting those the snapshot holds) */
    public long recovered() {
        requireConcluded();
        return recovered;
    }

    /**
     * @return how many of the {@link #recovered()} inputs a standby's engine re-ran before the promotion of its root
     * ({@link #followReplica()}); 0 for any other start
     */
    public long followedBeforePromotion() {
        requireConcluded();
        return followedBeforePromotion;
    }

    /** @return how long the snapshot and the re-run took, in nanoseconds of {@link #nanoClock()} */
    public long recoveryNanos() {
        requireConcluded();
        return recoveryNanos;
    }

    /** @return the snapshot {@link #conclude()} started from, or null if it re-ran every input */
    public SnapshotRestore.Restored restoredFrom() {
        requireConcluded();
        return restoredFrom;
    }

    ChronicleQueue engineJournal() {
        return engineJournal;
    }

    InputSources sources() {
        return sources;
    }

    ExcerptAppender appender() {
        return appender;
    }

    JournalOutput output() {
        return output;
    }

    Engine engine() {
        return engine;
    }

    /** @return the engine as the live loop calls it: {@link #wrapEngine} applied */
    EngineInput logic() {
        return logic;
    }

    EngineCounters counters() {
        return counters;
    }

    JournalSpace space() {
        return space;
    }

    /** @return the admin journal the trading scheduler appends to, or null without a schedule */
    AdminJournal scheduleJournal() {
        return scheduleJournal;
    }

    /** @throws IllegalStateException unless {@link #conclude()} has succeeded and nothing has closed the context */
    void requireConcluded() {
        if (state != State.CONCLUDED) {
            throw new IllegalStateException("the engine context is " + (state == State.CLOSED ? "closed" : "not concluded"));
        }
    }

    private void requireSettingUp() {
        if (state != State.SETTING_UP) {
            throw new IllegalStateException("the engine context is already concluded");
        }
    }

    /**
     * Closes what {@link #conclude()} opened, in reverse order, and releases the engine journal's writer lock; once.
     * The agents that use them must have stopped ({@link EngineService#close()} does both).
     */
    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        CloseHelper.closeAll(follower, scheduleJournal, counters, sources, engineJournal, writerLock);
    }
}
