package io.sluice.engine;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import net.openhft.chronicle.queue.ExcerptAppender;

/**
 * Where the running engine's reports go: the engine journal, through a Chronicle method writer on one
 * appender, each report stamped with {@code reportWritten} on the way (the only clock read, kept out of the
 * pure {@link Engine}). The reports of one input share one stamp, read at the first of them: they are written
 * within a few tenths of a microsecond into one excerpt, which gateways see only once it is committed
 * whole, and a clock read costs 20 ns here. It starts out discarding reports, which is what recovery needs while it re-runs
 * inputs whose reports are in the journal already; {@link #goLive()} starts writing. Use it with a
 * {@link JournalingInput} on the same appender, as {@link EngineService} and replay do.
 */
public final class JournalOutput implements EngineToGateway {
    private final EngineToGateway writer;
    private boolean live;
    private long written;
    private int stampedSource;
    private long stampedEvent;
    private long stampTicks;

    public JournalOutput(final ExcerptAppender appender) {
        // Bound to this appender, so that reports written while JournalingInput holds an excerpt open on it
        // land in that excerpt.
        writer = Journals.methodWriter(appender, EngineToGateway.class);
    }

    /** From now on, write reports instead of discarding them. */
    public void goLive() {
        live = true;
    }

    /** @return how many reports have been written (not discarded). */
    public long written() {
        return written;
    }

    @Override
    public void executionReport(final ExecutionReport report) {
        if (live) {
            stamp(report.metaData());
            writer.executionReport(report);
            written++;
        }
    }

    @Override
    public void cancelReject(final CancelReject reject) {
        if (live) {
            stamp(reject.metaData());
            writer.cancelReject(reject);
            written++;
        }
    }

    /** Stamps reportWritten: now, unless a report of the same input was stamped just before. */
    private void stamp(final MetaData metaData) {
        if (metaData.eventId() != stampedEvent || metaData.sourceId() != stampedSource || written == 0) {
            stampedSource = metaData.sourceId();
            stampedEvent = metaData.eventId();
            stampTicks = SluiceClock.nowTicks();
        }
        metaData.reportWritten(stampTicks);
    }
}
