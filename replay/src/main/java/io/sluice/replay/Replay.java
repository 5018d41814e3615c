package io.sluice.replay;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.ExcerptText;
import io.sluice.engine.recovery.ReportLayout;
import io.sluice.engine.snapshot.SnapshotRestore;
import io.sluice.runtime.journal.JournalPretoucher;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Replays a recorded session: the recorded gateway journals' inputs go through a fresh {@link Engine} and its reports
 * are compared with the recorded ones. The inputs go in the order the recorded engine journal says they were consumed;
 * the fresh engine's reports are written to a new engine journal (exactly as the engine process writes it: one excerpt
 * per input) and compared, input by input, in the appender's memory as each excerpt is committed ({@link
 * ExcerptComparison}).
 * Only the timestamps that measure a run are left out of the comparison
 * ({@link ReportLayout}, {@link ExcerptText#clearRunTimestamps}). The recorded journals are opened read-only.
 * As in the engine, a {@link JournalPretoucher} faults in the new journal's pages ahead, unless the config says not to.
 * <p>
 * {@code new Replay(recorded, config).output(dir).run()}; options: {@link #stopAt}, {@link #sources},
 * {@link #pace}, {@link #progress}, {@link #fromSnapshot} (only the window after a snapshot). The engine config's
 * {@code journalRoot} is not used: the journals are
 * the recorded ones. Replaying only some {@link #sources} compares only the reports of their inputs, and
 * leaves out OrderID and ExecID, engine-wide counters that the other gateways' inputs advanced too: such a
 * replay is identical when those gateways' orders never meet the others' (e.g. other instruments).
 * <p>
 * {@link #run()} reads a finished recording to its end, one {@link ReplayRun#step()} per input; a {@link ShadowEngine}
 * runs the same steps live, on journals still being written.
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
    private long fromSnapshot = ReplayRun.NO_SNAPSHOT;
    private NanoClock clock = SystemNanoClock.INSTANCE;
    private SnapshotRestore.Restored restoredFrom;

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

    /**
     * The clock that times the replay, paces it ({@link Pace#RECORDED}) and a shadow's status lines and idle limit.
     * Default: the system's.
     */
    public Replay clock(final NanoClock clock) {
        this.clock = clock;
        return this;
    }

    /** @return the clock that times the replay */
    NanoClock clock() {
        return clock;
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
        restoredFrom = null;
        try (ReplayRun run = open()) {
            restoredFrom = run.restoredFrom();
            progress.start(Math.min(stopAt, run.recordedExcerpts() - (restoredFrom == null ? 0 : restoredFrom.inputs())));
            final long start = clock.nanoTime();
            boolean more = true;
            while (more && run.fed() < stopAt) {
                switch (run.step()) {
                    case COMPARED -> {
                        if (run.fed() % PROGRESS_EVERY == 0) {
                            progress.update(run.fed());
                        }
                    }
                    case SKIPPED -> {
                    }
                    case DIVERGED, ENGINE_JOURNAL_ENDS -> more = false;
                    case INPUT_NOT_ARRIVED -> throw run.inputMissing(); // a finished recording: it never will
                }
            }
            final long elapsed = clock.nanoTime() - start;
            progress.finish(run.fed());
            if (run.recordedInputs() == 0 && restoredFrom == null) {
                throw run.noRecordedInputs();
            }
            return new ReplayResult(run.fed(), run.reports(), elapsed, run.divergence());
        }
    }

    /** @return the input limit given to {@link #stopAt}, or {@link Long#MAX_VALUE} */
    long stopAt() {
        return stopAt;
    }

    /** @return the directory of the recorded journals */
    Path recorded() {
        return recorded;
    }

    /**
     * @return the journals a replay reads that are not (yet) there under the recorded directory, by directory name:
     * what a {@link ShadowEngine} waits for before it {@link #open}s them
     */
    List<String> journalsNotThere() {
        return new RecordedJournals(recorded).notThere(selectedSources());
    }

    /**
     * Checks the options and the output directory and opens the journals, for {@link #run} or a {@link ShadowEngine}.
     *
     * @throws ReplayException if they do not allow a replay
     */
    ReplayRun open() {
        final int[] selected = selectedSources();
        final int[] skipped = Arrays.stream(config.gatewayIds()).filter(id -> !contains(selected, id)).toArray();
        final RecordedJournals journals = new RecordedJournals(recorded);
        for (final int gatewayId : selected) {
            journals.checkGatewayJournal(gatewayId);
        }
        if (fromSnapshot != ReplayRun.NO_SNAPSHOT && skipped.length > 0) {
            throw new ReplayException("a replay from a snapshot replays every gateway: the snapshot holds the state all"
                    + " of them made; leave out --sources");
        }
        return new ReplayRun(journals, config, selected, skipped, checkedOutput(), pace, fromSnapshot, clock);
    }

    private int[] selectedSources() {
        return sources == null ? config.gatewayIds() : checkedSources(config.gatewayIds());
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

    /** @return where the new engine journal goes: {@code <output>/engine} */
    Path outputJournal() {
        return Journals.engineJournal(output);
    }

    /**
     * @return {@code <output>/engine}, checked to be a new journal apart from the recorded ones
     * @throws ReplayException if it is not
     */
    Path checkedOutput() {
        if (output == null) {
            throw new ReplayException("no output directory given for the new engine journal");
        }
        final Path dir = outputJournal();
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
}
