package io.sluice.engine;

import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.lease.PrimaryLeaseWatch;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.recovery.RecordedInputs;
import io.sluice.engine.schedule.TradingSchedule;
import io.sluice.engine.schedule.TradingScheduler;
import io.sluice.engine.snapshot.SnapshotRestore;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.journal.JournalDiskFullException;
import io.sluice.runtime.journal.JournalPretoucher;
import io.sluice.runtime.journal.JournalSpace;
import io.sluice.runtime.journal.JournalSpaceKeeper;
import io.sluice.runtime.journal.SpaceLevel;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CompositeAgent;

import java.util.ArrayList;
import java.util.List;

/**
 * The engine process's work, apart from its command line, as an Agrona {@link Agent}.
 * <p>
 * Run by an {@link AgentThread}, or driven by a benchmark: {@link #launch(EngineContext)} concludes its
 * {@link EngineContext} (the writer lock, the journals, the counters file, the recovery) and builds the agents on it,
 * and each {@link #doWork()} polls every input journal round-robin (the admin journal, then the gateway journals), one command
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
 * ({@link io.sluice.engine.recovery.ConsumptionOrder}). At launch the newest valid snapshot is loaded
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
 * <p>
 * Lease: a {@link PrimaryLeaseWatch} on a thread of its own appends LEASE_LAPSED / LEASE_REGAINED when the lease the
 * shipper publishes lapses (Kafka unreachable, or the shipper gone) and is held again; it does nothing on a root no
 * shipper ever published a lease on. Not beside the disk work: a page fault or a reservation that waits on a busy disk
 * must not hold up the decision to stop taking orders.
 */
public final class EngineService implements Agent, AutoCloseable {
    private final EngineContext context;
    private final InputSources sources;
    private final ExcerptAppender appender;
    private final JournalOutput output;
    private final Engine engine;
    private final JournalingInput input;
    private final JournalPretoucher pretoucher;
    private final JournalSpace space;
    private final AgentThread background;
    private final AgentThread leaseWatch;
    private final EngineCounters counters;
    private final int sourceCount;
    private boolean closed;
    private long processed;

    /** Wires the agents on a concluded {@code context}: it opens nothing, checks nothing and re-runs nothing itself. */
    private EngineService(final EngineContext context) {
        context.requireConcluded();
        this.context = context;
        final EngineConfig config = context.config();
        sources = context.sources();
        appender = context.appender();
        output = context.output();
        engine = context.engine();
        counters = context.counters();
        space = context.space();
        input = new JournalingInput(appender, counters.counting(context.logic()));
        sourceCount = sources.count();
        final JournalSpaceKeeper keeper = new JournalSpaceKeeper("engine journal space keeper", List.of(space),
                context.nanoClock());
        // No further ahead than the reserve: the pretoucher reserves what it touches, and the configured reserve is
        // what the engine may take of a filling disk.
        pretoucher = config.pretouch() ? new JournalPretoucher("engine journal pretoucher",
                Math.min(JournalPretoucher.DEFAULT_AHEAD_BYTES, config.journalReserveBytes())) : null;
        final PrimaryLeaseWatch lease = new PrimaryLeaseWatch(config.journalRoot(), context.nanoClock());
        final List<Agent> backgroundAgents = new ArrayList<>(List.of(keeper));
        if (pretoucher != null) {
            backgroundAgents.add(pretoucher);
        }
        if (context.scheduleJournal() != null) {
            backgroundAgents.add(new TradingScheduler(TradingSchedule.of(config.tradingSchedule(), config.instruments()),
                    context.scheduleJournal(), context.epochClock()));
        }
        // One background thread for the disk work: fewer runnable threads than a 2-core machine has cores.
        background = AgentThread.startBackground(new CompositeAgent(backgroundAgents));
        leaseWatch = AgentThread.startBackground(lease);
    }

    /**
     * Concludes {@code context} ({@link EngineContext#conclude()}: the lock, the journals, the snapshot and the re-run)
     * and builds the engine's agents on it; if that fails, closes the context.
     *
     * @return the engine, recovered and ready for its first live {@link #doWork()}
     */
    public static EngineService launch(final EngineContext context) {
        context.conclude();
        try {
            return new EngineService(context);
        } catch (final RuntimeException | Error e) {
            CloseHelper.quietClose(context);
            throw e;
        }
    }

    /** @return {@link #launch(EngineContext)} of a context with {@code config} and the defaults */
    public static EngineService launch(final EngineConfig config) {
        return launch(new EngineContext().config(config));
    }

    /** @return the context it was launched with: its config, clocks and what its recovery did */
    public EngineContext context() {
        return context;
    }

    /** @return how many inputs the launch re-ran (not counting those the snapshot holds) */
    public long recovered() {
        return context.recovered();
    }

    /** @return the snapshot the launch started from, or null if it re-ran every input */
    public SnapshotRestore.Restored restoredFrom() {
        return context.restoredFrom();
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
     * One turn of the loop, for callers that drive the engine themselves (benchmarks): reads at most one command from
     * each input journal and processes it.
     *
     * @return how many commands were processed
     * @throws JournalDiskFullException if no disk space can be had for the engine journal (nothing was written)
     * @throws io.sluice.contracts.journal.CorruptJournalException if a journal cannot be read on
     * @throws io.sluice.engine.recovery.InputFailedException if processing a command failed: the engine must stop
     */
    public int poll() {
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

    /**
     * Stops the background threads and closes the context (the journals, the counters file, the writer lock); once (an
     * agent runner and a caller may both close).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        leaseWatch.close();
        background.close();
        context.close();
    }
}
