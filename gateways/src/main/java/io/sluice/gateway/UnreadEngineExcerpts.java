package io.sluice.gateway;

import io.sluice.contracts.journal.ExcerptCount;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

/**
 * How far a gateway's reader is behind the engine journal, in excerpts (one excerpt holds every report of one engine
 * input): from the index its tailer reads next to the end of the journal. The end is found by a tailer of its own
 * moved to it ({@code ChronicleQueue.lastIndex()} builds a new tailer, and so allocates, at every call); within one
 * cycle the count is then a subtraction of sequence numbers, allocating nothing, and only while the reader is still in
 * an older cycle than the engine's last excerpt does it ask the queue to count across cycles. Read at the gateway's
 * housekeeping pace (the {@code sluice_gateway_engine_excerpts_unread} gauge), never per message.
 */
final class UnreadEngineExcerpts implements AutoCloseable {
    private final ChronicleQueue engineJournal;
    private final ExcerptTailer end;

    UnreadEngineExcerpts(final ChronicleQueue engineJournal) {
        this.engineJournal = engineJournal;
        this.end = engineJournal.createTailer();
    }

    /**
     * @param nextIndex the index the gateway's tailer reads next ({@code ExcerptTailer.index()}; 0 before it has
     *                  found any excerpt)
     * @return how many excerpts the engine journal holds at or after {@code nextIndex}, or
     * {@link ExcerptCount#UNKNOWN} at the instant the engine creates a cycle file (sample again later)
     */
    long unread(final long nextIndex) {
        final long endIndex = ExcerptCount.toEnd(engineJournal, end); // the index the next excerpt appended will have
        if (endIndex == ExcerptCount.UNKNOWN) {
            return ExcerptCount.UNKNOWN;
        }
        if (endIndex <= 0 || endIndex <= nextIndex) {
            return 0;
        }
        final long from = nextIndex > 0 ? nextIndex : ExcerptCount.firstIndex(engineJournal, endIndex);
        return ExcerptCount.between(engineJournal, from, endIndex);
    }

    @Override
    public void close() {
        end.close();
    }
}
