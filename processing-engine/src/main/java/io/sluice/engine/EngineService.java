package io.sluice.engine;

import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.journal.JournalDiskFullException;
import io.sluice.runtime.journal.JournalPretoucher;
import io.sluice.runtime.journal.JournalSpace;
import io.sluice.runtime.journal.JournalSpaceKeeper;
import io.sluice.runtime.journal.SpaceLevel;
import io.sluice.runtime.journal.StaleWriteLock;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.RecordedInputs;
import io.sluice.engine.snapshot.SnapshotRestore;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import io.sluice.engine.schedule.TradingSchedule;
import io.sluice.engine.schedule.TradingScheduler;
import io.sluice.runtime.admin.AdminJournal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The engine process's work, apart from its command line, as an Agrona {@link Agent} (run by an {@link AgentThread},
 * or driven by a benchmark): construction opens the journals, {@link #onStart()} recovers, and each
 * {@link #doWork()} polls every input journal round-robin (the admin journal, then the gateway journals), one command
 * from each, and runs each command through
 * the {@link Engine} inside one excerpt of the engine journal ({@link JournalingInput}); when no journal has anything
 * the runner idles with the configured strategy. Unless configured off, a {@link JournalPretoucher} faults in the
 * engine journal's pages ahead of it, on the background thread that also keeps its disk reserved.
 * <p>
 * Errors: a command whose processing throws stops the engine with an
 * {@link io.sluice.engine.recovery.InputFailedException} naming the gateway journal, the excerpt and the command:
 * the engine's state may be half changed, so it never skips the command and goes on.
 * <p>
 * Recovery: the engine journal records which input every excerpt answered, in order
 * ({@link io.sluice.engine.recovery.ConsumptionOrder}). On start the newest valid snapshot is loaded
 * ({@link SnapshotRestore}, if {@code ./sluice snapshot} wrote any) and the inputs after it are re-run through the
 * engine, their reports written to memory and compared with the recorded ones ({@link RecordedInputs#recover},
 * {@link ExcerptComparison}), which rebuilds the books and counters, proves the journals are the ones that
 * history was made from (or refuses to go live, naming the first difference), and leaves each gateway journal
 * positioned after its last consumed command: the first live command is the first one not yet answered,
 * however the last run ended.
 * <p>
 * Full disks: a {@link JournalSpaceKeeper} thread keeps {@code journalReserveBytes} of disk reserved ahead of the
 * engine journal's writer ({@link JournalSpace}). Each turn of the loop first reads how much is left: while the
 * keeper catches up it does nothing, and when an eighth of the reserve is left and no more can be had it stops
 * before writing ({@link JournalDiskFullException}, naming the journal and the free space). What it has not
 * answered stays in the gateway journals, and a restart with space resumes with it.
 * <p>
 * Trading day: with a {@code tradingSchedule} configured, a {@link TradingScheduler} on the same background thread
 * appends OPEN_TRADING / CLOSE_TRADING admin commands to the admin journal at the schedule's boundaries (and the state of
 * now at start); the engine reads them as inputs like any other.
 */
public final class EngineService implements Agent, AutoCloseable {
    private final EngineConfig config;
    private final ChronicleQueue engineJournal;
    private final InputSources sources;
    private final ExcerptAppender appender;
    private final JournalOutput output;
    private final Engine engine;
    private final EngineInput logic;
    private final JournalingInput input;
    private final JournalPretoucher pretoucher;
    private final JournalSpace space;
    private final AgentThread background;
    private final EngineCounters counters;
    private final int sourceCount;
    private boolean closed;
    private long recovered = -1;
    private SnapshotRestore.Restored restoredFrom;
    private long processed;

    public EngineService(final EngineConfig config) {
        this(config, UnaryOperator.identity());
    }

    /**
     * For tests of what happens when the engine fails on an input: {@code wrapEngine} wraps the engine where the live
     * loop and recovery call it (e.g. to throw on one command). Production code uses {@link #EngineService(EngineConfig)}.
     */
    public EngineService(final EngineConfig config, final UnaryOperator<EngineInput> wrapEngine) {
        this(config, wrapEngine, SystemEpochClock.INSTANCE);
    }

    /**
     * For tests that drive the trading day: {@code scheduleClock} is the wall clock the {@link TradingScheduler} reads
     * (only with a {@code tradingSchedule} configured). Production code uses {@link #EngineService(EngineConfig)}.
     */
    public EngineService(final EngineConfig config, final UnaryOperator<EngineInput> wrapEngine,
                         final EpochClock scheduleClock) {
        this.config = config;
        io.sluice.runtime.replication.RootRole.requireNotReplica(config.journalRoot(), "engine");
        final java.nio.file.Path journal = Journals.engineJournal(config.journalRoot());
        JournalSpace.requireRoomToCreate(journal, config.journalReserveBytes());
        engineJournal = Journals.open(journal);
        if (StaleWriteLock.breakIfHolderDead(engineJournal)) {
            System.out.println("engine: broke the write lock of " + journal + ", left by a dead engine process");
        }
        // The admin journal first: a wider mode than owner-only stops the engine here, naming it (AdminJournal).
        sources = new InputSources(config.journalRoot(), config.gatewayIds());
        appender = engineJournal.createAppender();
        output = new JournalOutput(appender);
        engine = new Engine(config, output);
        logic = wrapEngine.apply(engine);
        counters = EngineCounters.open(config);
        output.countInto(counters);
        input = new JournalingInput(appender, counters.counting(logic));
        sourceCount = sources.count();
        space = new JournalSpace(engineJournal, config.journalReserveBytes(), config.diskWarningBytes());
        final JournalSpaceKeeper keeper = new JournalSpaceKeeper("engine journal space keeper", List.of(space));
        // No further ahead than the reserve: the pretoucher reserves what it touches, and the configured reserve is
        // what the engine may take of a filling disk.
        pretoucher = config.pretouch() ? new JournalPretoucher("engine journal pretoucher",
                Math.min(JournalPretoucher.DEFAULT_AHEAD_BYTES, config.journalReserveBytes())) : null;
        final List<Agent> backgroundAgents = new ArrayList<>(List.of(keeper));
        if (pretoucher != null) {
            backgroundAgents.add(pretoucher);
        }
        if (config.tradingSchedule() != null) {
            backgroundAgents.add(new TradingScheduler(TradingSchedule.of(config.tradingSchedule(), config.instruments()),
                    AdminJournal.open(config.journalRoot()), scheduleClock));
        }
        // One background thread for all: fewer runnable threads than a 2-core machine has cores.
        background = AgentThread.startBackground(backgroundAgents.size() == 1 ? keeper : new CompositeAgent(backgroundAgents));
    }

    /**
     * Restores the newest valid snapshot ({@link SnapshotRestore}; unless {@code restartFromSnapshots} is off), then
     * re-runs every input the engine journal records after it (all of them without one), compares the reports each
     * gives with the recorded ones, and positions the gateway journals after them. Then it proves every excerpt header
     * of the journals it reads readable to the last: the engine journal ends where the re-run ended, and each input
     * journal's excerpts ahead can be read ({@link io.sluice.engine.recovery.InputSource#checkAhead}), so that a damaged
     * excerpt header, which a tailer takes for a journal's end, stops the start instead of the live engine waiting.
     *
     * @return how many inputs were re-run (not counting those the snapshot holds)
     * @throws io.sluice.contracts.journal.CorruptJournalException if a journal is damaged or an input gives
     *                                                             other reports than recorded: nothing goes live
     */
    public long recover() {
        return recover(StartupPhases.IGNORED);
    }

    /**
     * As {@link #recover()}, timing its phases into {@code phases}: "snapshot" (finding, checking and loading the
     * snapshot) and "re-run" (the inputs after it), for the engine process's start-up line.
     *
     * @return how many inputs were re-run
     */
    public long recover(final StartupPhases phases) {
        final ExcerptComparison comparison = new ExcerptComparison(false);
        final JournalingInput rerun = new JournalingInput(output.recoveryWire(), logic, comparison);
        try (ConsumptionOrder order = new ConsumptionOrder(engineJournal)) {
            restoredFrom = config.restartFromSnapshots() ? SnapshotRestore.restore(config.journalRoot(), config, engine,
                    order, sources, SnapshotRestore.LATEST, problem -> System.err.println("engine: " + problem)) : null;
            phases.end("snapshot", !config.restartFromSnapshots() ? "restartFromSnapshots off"
                    : restoredFrom == null ? "none used" : restoredFrom.describeTimes());
            recovered = RecordedInputs.recover(engineJournal, order, sources, rerun, comparison, output.recoveryWire(),
                    RecordedInputs.Recovered.NONE);
            order.requireEnd();
        }
        for (int i = 0; i < sourceCount; i++) {
            sources.get(i).checkAhead();
        }
        output.goLive();
        counters.afterRecovery(engine);
        phases.end("re-run", String.format(java.util.Locale.ROOT, "%,d inputs", recovered));
        return recovered;
    }

    /** @return the snapshot the last {@link #recover()} started from, or null if it re-ran every input */
    public SnapshotRestore.Restored restoredFrom() {
        return restoredFrom;
    }

    /** Recovers, unless already done ({@link #recover()}): on the engine's thread, before its first {@link #doWork()}. */
    @Override
    public void onStart() {
        if (recovered < 0) {
            recover();
        }
    }

    @Override
    public int doWork() {
        return poll();
    }

    @Override
    public void onClose() {
        close();
    }

    @Override
    public String roleName() {
        return "engine";
    }

    /**
     * One turn of the loop, for callers that drive the engine themselves (benchmarks): recovers if not done
     * yet, then reads at most one command from each gateway journal and processes it.
     *
     * @return how many commands were processed
     * @throws JournalDiskFullException if no disk space can be had for the engine journal (nothing was written)
     * @throws io.sluice.contracts.journal.CorruptJournalException if a journal cannot be read on
     * @throws io.sluice.engine.recovery.InputFailedException if processing a command failed: the engine must stop
     */
    public int poll() {
        if (recovered < 0) {
            recover();
        }
        final SpaceLevel level = space.level();
        if (level == SpaceLevel.EXHAUSTED) {
            throw new JournalDiskFullException("engine stopped before writing, journal disk full: "
                    + space.describeShortage());
        }
        if (level == SpaceLevel.PENDING) {
            return 0;
        }
        int work = 0;
        for (int i = 0; i < sourceCount; i++) {
            if (sources.get(i).poll(input)) {
                work++;
            }
        }
        processed += work;
        if (work == 0) {
            counters.onIdle(engine);
        } else {
            counters.afterWork(engine, appender.lastIndexAppended());
            space.follow(appender);
            if (pretoucher != null) {
                pretoucher.follow(appender);
            }
        }
        return work;
    }

    /** @return how many live commands (not counting recovered ones) this service has processed. */
    public long processed() {
        return processed;
    }

    /** @return how many reports this service has written to the journal. */
    public long reportsWritten() {
        return output.written();
    }

    /** @return the engine, for inspection by tests and benchmarks (single-threaded: not while running). */
    public Engine engine() {
        return engine;
    }

    /** Stops the background thread and closes the journals; once (an agent runner and a caller may both close). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        background.close();
        counters.close();
        sources.close();
        engineJournal.close();
    }
}
