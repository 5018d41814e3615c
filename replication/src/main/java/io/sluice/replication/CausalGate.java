package io.sluice.replication;

import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.journal.Journals;
import io.sluice.marketdata.feed.FeedLayout;
import io.sluice.marketdata.journal.BatchLayout;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;

/**
 * The causal rule of shipping: the log never holds an effect before its cause, so that any prefix of it (a primary
 * lost whole, a replica cut at any instant) is a state the primary itself passed through, from which an engine and
 * gateways can take over.
 * <ul>
 *   <li>an {@code engine} excerpt answers one gateway input, named by its reports' MetaData (sourceId, eventId); it is
 *   shipped only after the {@code gateway-<sourceId>} excerpt carrying that event (the {@code admin} excerpt for source
 *   0, an admin command);</li>
 *   <li>a {@code gateway-N-out} record of a message sent for a report ({@code sent}, with the report's engine index) is
 *   shipped only after the engine journal up to that index; the report's {@code delivered} record comes after its
 *   {@code sent} record in the same journal, so it is held behind it;</li>
 *   <li>a {@code marketdata} batch (the feed messages derived from one engine excerpt, {@link BatchLayout}) is shipped
 *   only after the engine journal up to the excerpt it names; the first batch, every instrument's status, names none;</li>
 *   <li>a {@code gateway-N} or {@code admin} excerpt (a command) waits for nothing.</li>
 * </ul>
 * The log is one partition written by one producer in order ({@link LogTopic}), so "shipped after" is "earlier in
 * the log": the gate needs no acknowledgement and no transaction, only what the log holds (learnt as each journal
 * resumes from it) and what was shipped since. A held excerpt holds its whole journal behind it. The shipper's agent
 * thread alone uses it.
 */
final class CausalGate {
    /** Per input source (gateway id, or {@link Journals#ADMIN_SOURCE_ID}): the last event whose command is shipped. */
    private final Long2LongHashMap shippedEvent = new Long2LongHashMap(0);
    /** The last engine index shipped, -1 if none. */
    private long shippedEngineIndex = -1;

    /**
     * @param journal the journal of the excerpt
     * @param call    the excerpt, read: {@link ExcerptCall#read} returned true, or for a market-data batch was called
     * @return true if the excerpt may be shipped now
     */
    boolean mayShip(final JournalName journal, final ExcerptCall call) {
        return switch (journal.kind()) {
            case GATEWAY_COMMANDS, ADMIN -> true;
            case ENGINE -> shippedEvent.get(call.intAt(RecordLayout.SOURCE_ID)) >= call.longAt(RecordLayout.EVENT_ID);
            case GATEWAY_OUT -> {
                if (call.methodId() != RecordLayout.SENT) {
                    yield true;
                }
                final long engineIndex = call.longAt(RecordLayout.SENT_ENGINE_INDEX);
                yield engineIndex == 0 || shippedEngineIndex >= engineIndex;
            }
            case MARKET_DATA -> {
                final long engineIndex = answeredEngineIndex(call.excerpt());
                yield engineIndex == BatchLayout.NO_ENGINE_INDEX || shippedEngineIndex >= engineIndex;
            }
        };
    }

    /**
     * The excerpt at {@code index} of {@code journal}, whose first call is {@code call} (read, or null if it is no
     * method-writer call), is in the log, or shipped into it: its effects may follow.
     */
    void shipped(final JournalName journal, final ExcerptCall call, final long index) {
        switch (journal.kind()) {
            case GATEWAY_COMMANDS, ADMIN -> {
                if (call != null) {
                    commandShipped(journal.gatewayId(), call.longAt(RecordLayout.EVENT_ID));
                }
            }
            case ENGINE -> shippedEngineIndex = Math.max(shippedEngineIndex, index);
            case GATEWAY_OUT, MARKET_DATA -> {
            }
        }
    }

    /**
     * The log holds input source {@code source}'s command journal (a gateway's, or the admin journal for
     * {@link Journals#ADMIN_SOURCE_ID}) up to the command of event {@code eventId}.
     */
    void commandShipped(final int source, final long eventId) {
        if (eventId > shippedEvent.get(source)) {
            shippedEvent.put(source, eventId);
        }
    }

    /** The shipper relearns everything from the log (a transaction was aborted): nothing shipped counts until then. */
    void forget() {
        shippedEvent.clear();
        shippedEngineIndex = -1;
    }

    /** @return what an excerpt of {@code journal} held by the gate waits for, for the lag report */
    String waitingFor(final JournalName journal, final ExcerptCall call) {
        return switch (journal.kind()) {
            case GATEWAY_COMMANDS, ADMIN -> "nothing";
            case ENGINE -> (call.intAt(RecordLayout.SOURCE_ID) == Journals.ADMIN_SOURCE_ID ? "admin"
                    : "gateway-" + call.intAt(RecordLayout.SOURCE_ID)) + " event " + call.longAt(RecordLayout.EVENT_ID);
            case GATEWAY_OUT -> "engine " + IndexText.of(call.longAt(RecordLayout.SENT_ENGINE_INDEX));
            case MARKET_DATA -> "engine " + IndexText.of(answeredEngineIndex(call.excerpt()));
        };
    }

    /** @return the engine-journal excerpt the market-data batch {@code batch} was derived from, or none (-1) */
    static long answeredEngineIndex(final DirectBuffer batch) {
        return batch.getLong(BatchLayout.ENGINE_INDEX, FeedLayout.ORDER);
    }
}
