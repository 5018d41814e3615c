package io.sluice.engine.recovery;

import io.sluice.contracts.GatewayToEngine;
import net.openhft.chronicle.queue.ChronicleQueue;

/**
 * Feeds a {@link GatewayToEngine} (normally a fresh {@code Engine}) every input an engine journal records
 * as consumed, in the recorded order, read from the gateway journals. Used by the engine on restart, to
 * rebuild its state with the output discarded, and by replay, to regenerate a journal and compare.
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
    public static long replay(final ChronicleQueue engineJournal, final InputSources sources, final GatewayToEngine target) {
        long count = 0;
        try (ConsumptionOrder order = new ConsumptionOrder(engineJournal)) {
            while (order.next()) {
                feed(order, sources, target);
                count++;
            }
        }
        return count;
    }

    /**
     * Reads the input {@code order} is at from its gateway journal into {@code target}: one step of
     * {@link #replay}, for callers that drive the order themselves (replay with comparison).
     *
     * @throws CorruptJournalException if that gateway is not among {@code sources} or its journal does not hold
     *                                 the input next
     */
    public static void feed(final ConsumptionOrder order, final InputSources sources, final GatewayToEngine target) {
        final InputSource source = sources.byGatewayId(order.sourceId());
        if (source == null) {
            throw order.corrupt("records an input from gateway " + order.sourceId()
                    + ", which is not among the configured gateway journals", null);
        }
        if (!source.pollExpecting(target, order.eventId())) {
            throw order.corrupt("records event " + order.eventId() + " of gateway " + order.sourceId()
                    + " as consumed, but " + source.directory() + " ends after event " + source.lastEventId(), null);
        }
    }
}
