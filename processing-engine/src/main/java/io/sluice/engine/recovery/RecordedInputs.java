package io.sluice.engine.recovery;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineInput;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.Wire;

import java.util.List;

/**
 * Feeds a {@link EngineInput} (normally a fresh {@code Engine}) every input an engine journal records
 * as consumed, in the recorded order, read from the gateway journals. Used by the engine on restart, to
 * rebuild its state and check that it gives the reports recorded ({@link #recover}), and by replay, to regenerate
 * a journal and compare.
 * <p>
 * Afterwards each {@link InputSource} is positioned just after the last of its inputs the engine journal
 * records, so the caller can go on polling: nothing twice, nothing skipped.
 */
public final class RecordedInputs {
    private RecordedInputs() {
    }

    /**
     * @param engineJournal the recorded engine journal (read only through a tailer)
     * @param sources       the gateway journals, each positioned before its first unreplayed input (fresh)
     * @param target        what receives the inputs
     * @return how many inputs were fed
     * @throws CorruptJournalException if the engine journal cannot be read, names a gateway that is not among
     *                                 {@code sources}, or names an input its gateway journal does not hold next
     */
    public static long replay(final ChronicleQueue engineJournal, final InputSources sources, final EngineInput target) {
        long count = 0;
        try (ConsumptionOrder order = new ConsumptionOrder(engineJournal)) {
            while (order.next()) {
                feed(order, sources, target);
                count++;
            }
        }
        return count;
    }

    /** Told of each input {@link #recover} has re-run and found to give the recorded reports. */
    @FunctionalInterface
    public interface Recovered {
        /** Tells nobody. */
        Recovered NONE = (order, count) -> {
        };

        /**
         * @param order the consumption order, at the input just re-run (its index, source, event, checksum)
         * @param count how many inputs this recovery has re-run, this one included
         */
        void recovered(ConsumptionOrder order, long count);
    }

    /**
     * Recovery that trusts nothing: re-runs every input the engine journal records after where {@code order} is (its
     * start, or a snapshot's position: see {@code SnapshotRestore}), in the recorded order, and compares the reports
     * each one gives with the recorded ones ({@link ExcerptComparison}, as replay does: every byte but the run
     * timestamps and checksums), stopping at the first difference. Reports go to {@code rerun}, cleared before each
     * input, never to the journal. Allocation-free per input. The engine's restart, the snapshotter and tests use it.
     *
     * @param engineJournal the engine journal (read only through a tailer)
     * @param order         its consumption order, before the first input to re-run
     * @param sources       the gateway journals, each positioned before its first input to re-run
     * @param input         runs an input through the engine inside one document on {@code rerun}, shown to
     *                      {@code comparison} before it is committed (a {@code JournalingInput})
     * @param comparison    the inspector of {@code input}
     * @param rerun         where {@code input} writes the reports
     * @param recovered     told of each input once it has given the recorded reports
     * @return how many inputs were re-run
     * @throws CorruptJournalException if a journal cannot be read, or an input gives other reports than recorded:
     *                                 the message names the engine journal's file, excerpt and byte offset, the
     *                                 input's, and both reports as YAML
     */
    public static long recover(final ChronicleQueue engineJournal, final ConsumptionOrder order, final InputSources sources,
                               final EngineInput input, final ExcerptComparison comparison, final Wire rerun,
                               final Recovered recovered) {
        long count = 0;
        while (order.next()) {
            if (!rerunIfArrived(engineJournal, order, sources, input, comparison, rerun)) {
                throw notInGatewayJournal(order, sources);
            }
            recovered.recovered(order, ++count);
        }
        return count;
    }

    /**
     * One step of {@link #recover}, for journals still being written (a standby's engine following its replica before
     * the promotion, whose gateway journal may lag the engine journal): re-runs the input {@code order} is at and
     * compares its reports with the recorded ones, if its gateway journal holds it yet.
     *
     * @return true if the input was re-run and gave the recorded reports; false if its gateway journal ends before it
     * (for now), in which case nothing was read and the call can be repeated with {@code order} where it is
     * @throws CorruptJournalException as {@link #recover} does
     */
    public static boolean rerunIfArrived(final ChronicleQueue engineJournal, final ConsumptionOrder order,
                                         final InputSources sources, final EngineInput input,
                                         final ExcerptComparison comparison, final Wire rerun) {
        rerun.clear();
        comparison.expect(order);
        if (!feedIfArrived(order, sources, input)) {
            return false;
        }
        if (!comparison.matched()) {
            throw diverged(engineJournal, order, sources.bySourceId(order.sourceId()), rerun);
        }
        return true;
    }

    private static CorruptJournalException diverged(final ChronicleQueue engineJournal, final ConsumptionOrder order,
                                                    final InputSource source, final Wire rerun) {
        final List<String> recorded = ExcerptText.reports(engineJournal, order.index(), false);
        final long rerunStart = rerun.bytes().readPosition();
        final List<String> rerunReports = ExcerptText.reports(rerun, false);
        rerun.bytes().readPosition(rerunStart);
        final boolean idsOnly = ExcerptText.reports(engineJournal, order.index(), true)
                .equals(ExcerptText.reports(rerun, true));
        final int at = ExcerptText.firstDifference(recorded, rerunReports);
        return order.corrupt("re-running the input it records there, event " + order.eventId() + " of "
                + source.source() + " (" + source.lastReadPlace() + "), gives other reports than recorded: "
                + (idsOnly ? "only their OrderIDs and ExecIDs differ, so the journals were written under another idKey"
                        + " (or before ids were permuted: idKey counters), and the engine does not go live on them.\n"
                        : "the journals were changed after they were written, so the engine does not go live on them.\n")
                + "recorded report " + (at + 1) + " of " + recorded.size() + ":\n" + ExcerptText.at(recorded, at).strip()
                + "\nre-run report " + (at + 1) + " of " + rerunReports.size() + ":\n"
                + ExcerptText.at(rerunReports, at).strip(), null);
    }

    /**
     * Reads the input {@code order} is at from its gateway journal into {@code target}: one step of
     * {@link #replay}, for callers that drive the order themselves (replay with comparison).
     *
     * @throws CorruptJournalException if that gateway is not among {@code sources} or its journal does not hold
     *                                 the input next
     */
    public static void feed(final ConsumptionOrder order, final InputSources sources, final EngineInput target) {
        if (!feedIfArrived(order, sources, target)) {
            throw notInGatewayJournal(order, sources);
        }
    }

    /**
     * As {@link #feed}, for journals still being written (a shadow engine following a replica, whose gateway journal
     * may lag the engine journal): an input its gateway journal does not hold yet is not an error.
     *
     * @return true if the input was read and passed on; false if its gateway journal ends before it (for now), in
     * which case nothing was read and the call can be repeated
     * @throws CorruptJournalException if that gateway is not among {@code sources}, or its journal holds another
     *                                 input next
     */
    public static boolean feedIfArrived(final ConsumptionOrder order, final InputSources sources, final EngineInput target) {
        final InputSource source = sources.bySourceId(order.sourceId());
        if (source == null) {
            throw order.corrupt("records an input from " + (order.sourceId() == Journals.ADMIN_SOURCE_ID
                    ? "the admin journal, which is not there" : "gateway " + order.sourceId()
                    + ", which is not among the configured gateway journals"), null);
        }
        return source.pollExpecting(target, order.eventId());
    }

    /**
     * @return the error for an input {@code order} is at that its gateway journal (among {@code sources}) ends before
     * @throws CorruptJournalException naming the gateway journal's damaged excerpt, if it does not end there but holds
     *                                 one its reader cannot read (a damaged header)
     */
    public static CorruptJournalException notInGatewayJournal(final ConsumptionOrder order, final InputSources sources) {
        final InputSource source = sources.bySourceId(order.sourceId());
        source.requireEnd();
        return order.corrupt("records event " + order.eventId() + " of " + source.source()
                + " as consumed, but " + source.directory() + " ends after event " + source.lastEventId(), null);
    }
}
