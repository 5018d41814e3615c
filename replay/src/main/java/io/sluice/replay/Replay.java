package io.sluice.replay;

import io.sluice.contracts.GatewayToEngine;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.journal.JournalPretoucher;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.JournalOutput;
import io.sluice.engine.JournalingInput;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.ExcerptText;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.recovery.RecordedInputs;
import io.sluice.engine.recovery.ReportLayout;
import io.sluice.engine.snapshot.SnapshotRestore;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Replays a recorded session: the recorded gateway journals' inputs go through a fresh {@link Engine}, in the
 * order the recorded engine journal says they were consumed, and the fresh engine's reports are written to a
 * new engine journal (exactly as the engine process writes it: one excerpt per input) and compared, input by
 * input, with the recorded ones, in the appender's memory as each excerpt is committed ({@link ExcerptComparison}). Only the timestamps that measure a run are left out of the comparison
 * ({@link ReportLayout}, {@link ExcerptText#clearRunTimestamps}). The recorded journals are opened read-only.
 * As in the engine, a {@link JournalPretoucher} faults in the new journal's pages ahead, unless the config says not to.
 * <p>
 * {@code new Replay(recorded, config).output(dir).run()}; options: {@link #stopAt}, {@link #sources},
 * {@link #pace}, {@link #progress}, {@link #fromSnapshot} (only the window after a snapshot). The engine config's {@code journalRoot} is not used: the journals are
 * the recorded ones. Replaying only some {@link #sources} compares only the reports of their inputs, and
 * leaves out OrderID and ExecID, engine-wide counters that the other gateways' inputs advanced too: such a
 * replay is identical when those gateways' orders never meet the others' (e.g. other instruments).
 */
public final class Replay {
    private static final int PROGRESS_EVERY = 4096;

    private final Path recorded;
    private final EngineConfig config;
    private Path output;
    private long stopAt = Long.MAX_VALUE;
    private int[] sources;
    private Pace pace = Pace.FLAT;
    private ReplayProgress progress = ReplayProgress.NONE;
    private long fromSnapshot = NO_SNAPSHOT;
    private SnapshotRestore.Restored restoredFrom;

    /** {@link #fromSnapshot} not set: from the first recorded input. */
    private static final long NO_SNAPSHOT = -2;

    /**
     * @param recorded the directory holding the recorded journals ({@code engine/}, {@code gateway-<id>/})
     * @param config   the engine config to replay with: the recording's, unless checking a change
     */
    public Replay(final Path recorded, final EngineConfig config) {
        this.recorded = recorded;
        this.config = config;
    }

    /** Where the new engine journal goes ({@code <output>/engine/}); must not hold one already. Required. */
    public Replay output(final Path output) {
        this.output = output;
        return this;
    }

    /** Stops after the first {@code inputs} recorded inputs. */
    public Replay stopAt(final long inputs) {
        if (inputs <= 0) {
            throw new IllegalArgumentException("stop at a positive number of inputs, got " + inputs);
        }
        this.stopAt = inputs;
        return this;
    }

    /** Replays only the inputs of these gateways (default: all the config names); see the class comment. */
    public Replay sources(final int... gatewayIds) {
        this.sources = gatewayIds.clone();
        return this;
    }

    public Replay pace(final Pace pace) {
        this.pace = pace;
        return this;
    }

    public Replay progress(final ReplayProgress progress) {
        this.progress = progress;
        return this;
    }

    /**
     * Starts from a snapshot of the recording's snapshot journal ({@code <recorded>/snapshots}, written by
     * {@code ./sluice snapshot}) and replays only the inputs after it: {@link SnapshotRestore#LATEST} for the newest
     * valid one, or the engine journal index a snapshot was taken at. Not with {@link #sources}.
     */
    public Replay fromSnapshot(final long engineIndex) {
        this.fromSnapshot = engineIndex;
        return this;
    }

    /** @return the snapshot the last {@link #run()} started from, or null */
    public SnapshotRestore.Restored restoredFrom() {
        return restoredFrom;
    }

    /**
     * @return what the replay found; a divergence is a result, not an exception
     * @throws ReplayException if the journals, config or output directory do not allow a replay
     * @throws io.sluice.contracts.journal.CorruptJournalException if a recorded journal is corrupt or truncated
     */
    public ReplayResult run() {
        final int[] configured = config.gatewayIds();
        final int[] selected = sources == null ? configured : checkedSources(configured);
        final int[] skipped = Arrays.stream(configured).filter(id -> !contains(selected, id)).toArray();
        final RecordedJournals journals = new RecordedJournals(recorded);
        for (final int gatewayId : selected) {
            journals.checkGatewayJournal(gatewayId);
        }
        final Path freshDir = freshEngineJournal();
        final boolean ignoreEngineIds = skipped.length > 0;
        try (ChronicleQueue recordedEngine = journals.openEngineJournal();
             InputSources inputs = new InputSources(recorded, true, selected);
             ChronicleQueue fresh = Journals.open(freshDir);
             ConsumptionOrder order = new ConsumptionOrder(recordedEngine);
             PretouchThread pretoucher = new PretouchThread(config.pretouch())) {
            final ExcerptAppender appender = fresh.createAppender();
            final JournalOutput journalOutput = new JournalOutput(appender);
            journalOutput.goLive();
            final ExcerptComparison comparison = new ExcerptComparison(ignoreEngineIds);
            final Engine engine = new Engine(config, journalOutput);
            final GatewayToEngine journaling = new JournalingInput(appender, engine, comparison);
            final GatewayToEngine input = pace == Pace.RECORDED ? new RecordedPace(journaling) : journaling;
            final long before = restoreSnapshot(engine, order, inputs, ignoreEngineIds);

            progress.start(Math.min(stopAt, RecordedJournals.excerpts(recordedEngine) - before));
            final long start = System.nanoTime();
            long recordedInputs = 0;
            long fed = 0;
            long reports = 0;
            Divergence divergence = null;
            while (fed < stopAt) {
                if (!order.next()) {
                    break;
                }
                recordedInputs++;
                if (contains(skipped, order.sourceId())) {
                    continue;
                }
                comparison.expect(order);
                RecordedInputs.feed(order, inputs, input);
                fed++;
                if (!comparison.matched()) {
                    final List<String> expected = ExcerptText.reports(recordedEngine, order.index(), ignoreEngineIds);
                    final List<String> actual = ExcerptText.reports(fresh, appender.lastIndexAppended(), ignoreEngineIds);
                    final int at = ExcerptText.firstDifference(expected, actual);
                    divergence = new Divergence(reports + at, order.index(), at, order.sourceId(), order.eventId(),
                            journals.inputYaml(order.sourceId(), order.eventId()), ExcerptText.at(expected, at), ExcerptText.at(actual, at));
                    break;
                }
                reports += comparison.reports();
                pretoucher.follow(appender);
                if (fed % PROGRESS_EVERY == 0) {
                    progress.update(fed);
                }
            }
            final long elapsed = System.nanoTime() - start;
            progress.finish(fed);
            if (recordedInputs == 0 && restoredFrom == null) {
                throw journals.noRecordedInputs();
            }
            return new ReplayResult(fed, reports, elapsed, divergence);
        }
    }

    /** @return how many recorded inputs the snapshot started from holds (0 without one) */
    private long restoreSnapshot(final Engine engine, final ConsumptionOrder order, final InputSources inputs,
                                 final boolean someSources) {
        restoredFrom = null;
        if (fromSnapshot == NO_SNAPSHOT) {
            return 0;
        }
        if (someSources) {
            throw new ReplayException("a replay from a snapshot replays every gateway: the snapshot holds the state all"
                    + " of them made; leave out --sources");
        }
        try {
            restoredFrom = SnapshotRestore.restore(recorded, config, engine, order, inputs, fromSnapshot,
                    problem -> System.err.println("replay: " + problem));
        } catch (final IllegalArgumentException e) {
            throw new ReplayException(e.getMessage());
        }
        if (restoredFrom == null) {
            throw new ReplayException("no usable snapshot in " + Journals.snapshotJournal(recorded).toAbsolutePath()
                    + " (see above, or run ./sluice snapshot first)");
        }
        return restoredFrom.inputs();
    }

    private int[] checkedSources(final int[] configured) {
        for (final int id : sources) {
            if (!contains(configured, id)) {
                throw new ReplayException("gateway " + id + " is not among the engine config's gatewayIds "
                        + Arrays.toString(configured) + ": the recording's config must name every gateway replayed");
            }
        }
        return sources;
    }

    /** @return {@code <output>/engine}, checked to be a new journal apart from the recorded ones. */
    private Path freshEngineJournal() {
        if (output == null) {
            throw new ReplayException("no output directory given for the new engine journal");
        }
        final Path dir = Journals.engineJournal(output);
        try {
            if (Files.exists(output) && Files.exists(recorded)
                    && output.toRealPath().equals(recorded.toRealPath())) {
                throw new ReplayException("the output directory " + output.toAbsolutePath()
                        + " is the recorded directory: the new engine journal must go elsewhere");
            }
            if (Files.isDirectory(dir)) {
                try (var files = Files.list(dir)) {
                    if (files.findAny().isPresent()) {
                        throw new ReplayException("the output directory already holds an engine journal, "
                                + dir.toAbsolutePath() + ": give an empty or new directory");
                    }
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot inspect the output directory " + output.toAbsolutePath(), e);
        }
        return dir;
    }

    private static boolean contains(final int[] ids, final int id) {
        for (final int candidate : ids) {
            if (candidate == id) {
                return true;
            }
        }
        return false;
    }

    /** The fresh journal's pretoucher, on a background agent thread of its own when so configured. */
    private static final class PretouchThread implements AutoCloseable {
        private final JournalPretoucher pretoucher = new JournalPretoucher("replay journal pretoucher",
                JournalPretoucher.DEFAULT_AHEAD_BYTES);
        private final AgentThread thread;

        PretouchThread(final boolean start) {
            thread = start ? AgentThread.startBackground(pretoucher) : null;
        }

        void follow(final ExcerptAppender appender) {
            if (thread != null) {
                pretoucher.follow(appender);
            }
        }

        @Override
        public void close() {
            if (thread != null) {
                thread.close();
            }
        }
    }
}
