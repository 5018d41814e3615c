package io.sluice.engine.recovery;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MetaData;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.core.util.InvocationTargetRuntimeException;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

import java.nio.file.Path;

/**
 * The order in which the engine consumed its inputs, read back from its own journal. The engine writes all
 * the reports caused by one input in one excerpt, each carrying that input's MetaData, so each excerpt
 * names one consumed input by (sourceId, eventId), and the excerpts are in consumption order. A torn last
 * excerpt (the engine was killed while writing it) is invisible here, exactly as it is to gateways: that
 * input counts as not consumed.
 * <p>
 * Use: {@code while (order.next()) { order.sourceId(); order.eventId(); }}. Allocation-free per excerpt.
 */
public final class ConsumptionOrder implements AutoCloseable {
    private final ChronicleQueue engineJournal;
    private final ExcerptTailer tailer;
    private final MethodReader reader;
    private int sourceId;
    private long eventId;
    private long index;
    private boolean mixed;

    /** Starts before the first excerpt of {@code engineJournal} (opened by the caller, who closes it). */
    public ConsumptionOrder(final ChronicleQueue engineJournal) {
        this.engineJournal = engineJournal;
        tailer = engineJournal.createTailer();
        reader = tailer.methodReaderBuilder()
                .defaultParselet((name, in) -> {
                    throw new IllegalStateException("unknown message '" + name + "' in the engine journal");
                })
                .build(new EngineToGateway() {
                    @Override
                    public void executionReport(final ExecutionReport report) {
                        record(report.metaData());
                    }

                    @Override
                    public void cancelReject(final CancelReject reject) {
                        record(reject.metaData());
                    }
                });
    }

    /**
     * Moves to the next recorded input.
     *
     * @return false when there are no more
     * @throws CorruptJournalException if an excerpt cannot be read or names two different inputs
     */
    public boolean next() {
        sourceId = 0;
        eventId = 0;
        mixed = false;
        boolean read;
        do {
            index = tailer.index();
            try {
                read = reader.readOne();
            } catch (final InvocationTargetRuntimeException | IllegalStateException | IllegalArgumentException e) {
                throw corrupt("cannot decode the excerpt: " + e, e);
            } catch (final RuntimeException e) {
                throw corrupt("cannot read the excerpt: " + e, e);
            }
            if (mixed) {
                throw corrupt("reports of two different inputs in one excerpt", null);
            }
        } while (read && sourceId == 0);
        if (read) {
            index = tailer.lastReadIndex();
        }
        return read;
    }

    /** @return the gateway id the current input came from. */
    public int sourceId() {
        return sourceId;
    }

    /** @return the current input's event id within its gateway journal. */
    public long eventId() {
        return eventId;
    }

    /** @return the engine journal index of the current excerpt, for messages. */
    public long index() {
        return index;
    }

    /** @return a {@link CorruptJournalException} at the current excerpt of the engine journal. */
    public CorruptJournalException corrupt(final String problem, final Throwable cause) {
        return CorruptJournalException.at(Path.of(engineJournal.fileAbsolutePath()), engineJournal.rollCycle(),
                index, problem, cause);
    }

    private void record(final MetaData metaData) {
        if (sourceId == 0) {
            sourceId = metaData.sourceId();
            eventId = metaData.eventId();
        } else if (sourceId != metaData.sourceId() || eventId != metaData.eventId()) {
            mixed = true;
        }
    }

    @Override
    public void close() {
        reader.close();
    }
}
