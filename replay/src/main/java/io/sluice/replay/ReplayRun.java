package io.sluice.replay;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.EngineInput;
import io.sluice.engine.JournalOutput;
import io.sluice.engine.JournalingInput;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.ExcerptText;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.recovery.RecordedInputs;
import io.sluice.engine.snapshot.SnapshotRestore;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.journal.JournalPretoucher;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Path;
import java.util.List;

/**
 * One replay in progress, one recorded input at a time: the recorded journals opened read-only, a fresh
 * {@link Engine} writing a new engine journal, and the recorded {@link ConsumptionOrder}. Each {@link #step()}
 * feeds the next recorded input and compares the excerpt of reports it causes with the recorded one, in the
 * appender's memory before the commit ({@link ExcerptComparison}). The loop around it is {@link Replay}'s, over a
 * finished recording, or the {@link ShadowEngine}'s, over journals still being written: a step can find the
 * recorded engine journal at its end for now, or name an input its gateway journal does not hold yet, and the same
 * step can be tried again later. Allocation-free per input, until a divergence is explained.
 */
final class ReplayRun implements AutoCloseable {
    /** What one {@link #step()} did. */
    enum Step {
        /** An input was fed and its reports were identical to the recorded ones. */
        COMPARED,
        /** The recorded input was from a gateway not replayed ({@link Replay#sources}); it was passed over. */
        SKIPPED,
        /** An input was fed and its reports differ from the recorded ones: see {@link #divergence()}. */
        DIVERGED,
        /** The recorded engine journal holds no further input (yet). */
        ENGINE_JOURNAL_ENDS,
        /** The recorded engine journal names an input its gateway journal does not hold (yet): {@link #awaitedSource()}. */
        INPUT_NOT_ARRIVED
    }

    /** No snapshot to start from: the first recorded input is fed first. */
    static final long NO_SNAPSHOT = -2;

    private final RecordedJournals journals;
    private final int[] skipped;
    private final boolean ignoreEngineIds;
    private ChronicleQueue recordedEngine;
    private InputSources inputs;
    private ChronicleQueue fresh;
    private ConsumptionOrder order;
    private PretouchThread pretoucher;
    private ExcerptAppender appender;
    private ExcerptComparison comparison;
    private EngineInput input;
    private boolean atUnfedInput;
    private long recordedInputs;
    private long fed;
    private long reports;
    private Divergence divergence;
    private SnapshotRestore.Restored restoredFrom;

    /**
     * Opens the journals; the caller ({@link Replay#open}) has checked the options, the gateway journals and the
     * output directory.
     *
     * @param selected the gateways whose inputs are fed
     * @param skipped  the configured gateways whose inputs are passed over (their reports not compared)
     * @param freshDir where the new engine journal goes
     * @param fromSnapshot {@link #NO_SNAPSHOT}, {@link SnapshotRestore#LATEST} or the engine journal index of the
     *                     snapshot whose state the fresh engine starts from, passing over the inputs it holds
     * @param clock        paces a {@link Pace#RECORDED} replay and times the snapshot's restore
     * @throws ReplayException if the recorded engine journal is missing or of another journal format, or the
     *                         snapshot asked for is not usable
     */
    ReplayRun(final RecordedJournals journals, final EngineConfig config, final int[] selected, final int[] skipped,
              final Path freshDir, final Pace pace, final long fromSnapshot, final NanoClock clock) {
        this.journals = journals;
        this.skipped = skipped;
        ignoreEngineIds = skipped.length > 0;
        try {
            recordedEngine = journals.openEngineJournal();
            inputs = inputSources(journals.root(), selected);
            fresh = Journals.open(freshDir);
            order = new ConsumptionOrder(recordedEngine);
            pretoucher = new PretouchThread(config.pretouch());
            appender = fresh.createAppender();
            final JournalOutput journalOutput = new JournalOutput();
            journalOutput.goLive(appender);
            comparison = new ExcerptComparison(ignoreEngineIds);
            final Engine engine = new Engine(config, journalOutput);
            final EngineInput journaling = new JournalingInput(appender, engine, comparison);
            input = pace == Pace.RECORDED ? new RecordedPace(journaling, clock) : journaling;
            if (fromSnapshot != NO_SNAPSHOT) {
                restoredFrom = restore(journals, config, engine, fromSnapshot, clock);
            }
        } catch (final RuntimeException e) {
            close();
            throw e;
        }
    }

    /** @return the recorded input journals, read-only; an admin journal others could write is refused, saying so */
    private static InputSources inputSources(final Path root, final int[] selected) {
        try {
            return new InputSources(root, true, selected);
        } catch (final IllegalStateException adminJournalNotOwnerOnly) {
            throw new ReplayException(adminJournalNotOwnerOnly.getMessage());
        }
    }

    /**
     * Feeds the next recorded input, or, if the last step found it had not arrived, tries that one again.
     *
     * @throws io.sluice.contracts.journal.CorruptJournalException if a journal cannot be read, or a gateway journal
     *                                                             holds another input than the one recorded next
     */
    Step step() {
        if (!atUnfedInput) {
            if (!order.next()) {
                return Step.ENGINE_JOURNAL_ENDS;
            }
            recordedInputs++;
            if (contains(skipped, order.sourceId())) {
                return Step.SKIPPED;
            }
            atUnfedInput = true;
        }
        comparison.expect(order);
        if (!RecordedInputs.feedIfArrived(order, inputs, input)) {
            return Step.INPUT_NOT_ARRIVED;
        }
        atUnfedInput = false;
        fed++;
        if (!comparison.matched()) {
            divergence = explain();
            return Step.DIVERGED;
        }
        reports += comparison.reports();
        pretoucher.follow(appender);
        return Step.COMPARED;
    }

    private SnapshotRestore.Restored restore(final RecordedJournals journals, final EngineConfig config,
                                             final Engine engine, final long fromSnapshot, final NanoClock clock) {
        final SnapshotRestore.Restored restored;
        try {
            restored = SnapshotRestore.restore(journals.root(), config, engine, order, inputs, fromSnapshot, clock,
                    problem -> System.err.println("replay: " + problem));
        } catch (final IllegalArgumentException e) {
            throw new ReplayException(e.getMessage());
        }
        if (restored == null) {
            throw new ReplayException("no usable snapshot in " + Journals.snapshotJournal(journals.root()).toAbsolutePath()
                    + " (see above, or run ./sluice snapshot first)");
        }
        return restored;
    }

    /** @return the snapshot the fresh engine started from, or null */
    SnapshotRestore.Restored restoredFrom() {
        return restoredFrom;
    }

    /** @return the error for the input the last step found missing, in a recording that is finished */
    RuntimeException inputMissing() {
        return RecordedInputs.notInGatewayJournal(order, inputs);
    }

    private Divergence explain() {
        final List<String> expected = ExcerptText.reports(recordedEngine, order.index(), ignoreEngineIds);
        final List<String> actual = ExcerptText.reports(fresh, appender.lastIndexAppended(), ignoreEngineIds);
        final int at = ExcerptText.firstDifference(expected, actual);
        return new Divergence(reports + at, order.index(), at, order.sourceId(), order.eventId(),
                journals.inputYaml(order.sourceId(), order.eventId()), ExcerptText.at(expected, at), ExcerptText.at(actual, at));
    }

    /** @return the recorded inputs read from the engine journal so far, fed or passed over */
    long recordedInputs() {
        return recordedInputs;
    }

    /** @return the inputs fed to the fresh engine */
    long fed() {
        return fed;
    }

    /** @return the reports compared and found identical */
    long reports() {
        return reports;
    }

    /** @return the first divergent report, once a step has found one; else null */
    Divergence divergence() {
        return divergence;
    }

    /** @return when the primary engine wrote the reports of the input last compared (0.1 µs ticks), until the next step */
    long recordedReportWriting() {
        return order.reportWriting();
    }

    /** @return the gateway of the input a step found not arrived (after {@link Step#INPUT_NOT_ARRIVED}) */
    int awaitedSource() {
        return order.sourceId();
    }

    /** @return that input's event id */
    long awaitedEvent() {
        return order.eventId();
    }

    /** @return how many excerpts the recorded engine journal holds now, over all its cycle files (0 if that cannot be counted) */
    long recordedExcerpts() {
        return RecordedJournals.excerpts(recordedEngine);
    }

    /** @return how many recorded inputs the engine journal holds beyond the last one fed or passed over */
    long recordedInputsAhead() {
        final long restored = restoredFrom == null ? 0 : restoredFrom.inputs();
        return Math.max(0, recordedExcerpts() - restored - recordedInputs + (atUnfedInput ? 1 : 0));
    }

    /** @return the error for a recorded engine journal in which no input was answered */
    ReplayException noRecordedInputs() {
        return journals.noRecordedInputs();
    }

    @Override
    public void close() {
        if (order != null) {
            order.close();
        }
        if (pretoucher != null) {
            pretoucher.close();
        }
        if (fresh != null) {
            fresh.close();
        }
        if (inputs != null) {
            inputs.close();
        }
        if (recordedEngine != null) {
            recordedEngine.close();
        }
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
