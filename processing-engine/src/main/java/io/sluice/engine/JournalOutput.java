package io.sluice.engine;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

/**
 * Where the running engine's reports go: the engine journal, through a Chronicle method writer on one appender. Each
 * report is stamped with {@code reportWriting} on the way (the only clock read, kept out of the pure {@link Engine}).
 * The reports of one input share one stamp, read at the first of them: they are written
 * within a few tenths of a microsecond into one excerpt, which gateways see only once it is committed
 * whole, and a clock read costs 20 ns here.
 * <p>
 * It starts out {@link Phase#RECOVERING}: recovery re-runs inputs whose reports are in the journal already, so
 * their reports go instead to {@link #recoveryWire()}, direct memory reused for every input, laid out exactly as
 * in the journal, where recovery compares them with the recorded ones; {@link #goLive(ExcerptAppender)} starts
 * writing to the journal through an appender it is given only then, so that an engine can recover before it may write
 * (a standby's, following its replica read-only). Use it with a {@link JournalingInput} on the same appender (or,
 * recovering, on the recovery wire), as {@link EngineService} and replay do.
 */
public final class JournalOutput implements EngineToGateway {
    /** Room for the reports of one input; the wire grows if an input ever causes more. */
    private static final int RECOVERY_WIRE_BYTES = 64 * 1024;

    /** Where reports go. */
    public enum Phase {
        /** Into {@link #recoveryWire()}, to be compared with the recorded ones. */
        RECOVERING,
        /** Into the engine journal. */
        LIVE
    }

    private final Wire recoveryWire = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticDirect(RECOVERY_WIRE_BYTES));
    private final EngineToGateway recoveryWriter = recoveryWire.methodWriter(EngineToGateway.class);
    private EngineToGateway writer = recoveryWriter;
    private Phase phase = Phase.RECOVERING;
    private long written;
    private EngineCounters counters = EngineCounters.NONE;
    private int stampedSource;
    private long stampedEvent;
    private long stampTicks;

    /** From now on, write reports to the engine journal through {@code appender}. */
    public void goLive(final ExcerptAppender appender) {
        // Bound to this appender, so that reports written while JournalingInput holds an excerpt open on it
        // land in that excerpt.
        writer = Journals.methodWriter(appender, EngineToGateway.class);
        phase = Phase.LIVE;
    }

    /** Counts every report written live into {@code counters} from now on. */
    public void countInto(final EngineCounters counters) {
        this.counters = counters;
    }

    /** @return where reports go now */
    public Phase phase() {
        return phase;
    }

    /**
     * @return where reports go while {@link Phase#RECOVERING}: a wire in direct memory; whoever re-runs an input
     * clears it first and opens one document on it around the input (a {@link JournalingInput} on it)
     */
    public Wire recoveryWire() {
        return recoveryWire;
    }

    /** @return how many reports have been written to the journal. */
    public long written() {
        return written;
    }

    @Override
    public void executionReport(final ExecutionReport report) {
        stamp(report.metaData());
        writer.executionReport(report);
        if (count()) {
            counters.onReport(report);
        }
    }

    @Override
    public void cancelReject(final CancelReject reject) {
        stamp(reject.metaData());
        writer.cancelReject(reject);
        if (count()) {
            counters.onReport(reject);
        }
    }

    @Override
    public void massCancelReport(final MassCancelReport report) {
        stamp(report.metaData());
        writer.massCancelReport(report);
        if (count() && counters != null) {
            counters.onReport(report);
        }
    }

    @Override
    public void adminOutcome(final AdminOutcome outcome) {
        stamp(outcome.metaData());
        writer.adminOutcome(outcome);
        if (count() && counters != null) {
            counters.onReport(outcome);
        }
    }

    /** @return true if the report was written live (and so counted) */
    private boolean count() {
        if (phase == Phase.LIVE) {
            written++;
            return true;
        }
        return false;
    }

    /** Stamps reportWriting: now, unless a report of the same input was stamped just before. */
    private void stamp(final MetaData metaData) {
        if (metaData.eventId() != stampedEvent || metaData.sourceId() != stampedSource || written == 0) {
            stampedSource = metaData.sourceId();
            stampedEvent = metaData.eventId();
            stampTicks = SluiceClock.nowTicks();
        }
        metaData.reportWriting(stampTicks);
    }
}
