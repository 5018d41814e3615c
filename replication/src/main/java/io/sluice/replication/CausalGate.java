package io.sluice.replication;

import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.journal.Journals;
import org.agrona.collections.Long2LongHashMap;

/**
 * The causal rule of shipping: Kafka never holds an effect without its cause, so that a replica cut at any instant
 * (a primary lost whole) is a state the primary itself passed through, from which an engine and gateways can take
 * over.
 * <ul>
 *   <li>an {@code engine} excerpt answers one gateway input, named by its reports' MetaData (sourceId, eventId); it is
 *   sent only once the {@code gateway-<sourceId>} excerpt carrying that event (the {@code admin} excerpt for source 0,
 *   an admin command) is committed, or sent in the open transaction;</li>
 *   <li>a {@code gateway-N-out} record of a message sent for a report ({@code sent}, with the report's engine index) is
 *   sent only once the engine journal is committed, or sent in the open transaction, up to that index; the report's
 *   {@code delivered} record comes after its {@code sent} record in the same journal, so it is held behind it;</li>
 *   <li>a {@code gateway-N} or {@code admin} excerpt (a command) waits for nothing.</li>
 * </ul>
 * The shipper publishes in Kafka transactions, and a commit is atomic across partitions: a {@code read_committed}
 * reader sees all of a transaction or none of it, so an effect sent in the same transaction as its cause keeps the
 * rule for every reader. The gate therefore keeps two states: what Kafka has committed ({@link #committed()} moves the
 * open transaction's causes there), and what the open transaction holds, which {@link #aborted()} forgets (every
 * journal then resumes from what Kafka committed). A held excerpt holds its whole journal behind it (one partition
 * keeps the journal's order).
 * <p>
 * It also tells the shipper whether the open transaction holds a cause whose effect has not been shipped yet
 * ({@link #awaitsEffects()}): a command whose engine excerpt, or an engine excerpt whose {@code sent} record, the
 * shipper has not read yet. Keeping the transaction open for those a little lets a report's command, engine excerpt
 * and {@code sent} record share one commit. The shipper's agent thread alone uses it.
 */
final class CausalGate {
    /** Per input source (gateway id, or {@link Journals#ADMIN_SOURCE_ID}): the last event whose command is committed. */
    private final Long2LongHashMap committedEvent = new Long2LongHashMap(0);
    /** Per input source: the last event whose command is sent in the open transaction (none: 0). */
    private final Long2LongHashMap openEvent = new Long2LongHashMap(0);
    /** Per input source: the last event an engine excerpt shipped (committed or open) answers. */
    private final Long2LongHashMap answeredEvent = new Long2LongHashMap(0);
    private long committedEngineIndex = -1;
    /** The last engine index sent in the open transaction, -1 if none. */
    private long openEngineIndex = -1;
    /** The highest engine index a {@code sent} record shipped (committed or open) carries. */
    private long deliveredEngineIndex = -1;

    /**
     * Kafka has committed input source {@code source}'s command journal (a gateway's, or the admin journal for
     * {@link Journals#ADMIN_SOURCE_ID}) up to the command of event {@code eventId}: what a journal resuming learns.
     */
    void commandCommitted(final int source, final long eventId) {
        raise(committedEvent, source, eventId);
        raise(answeredEvent, source, eventId); // what Kafka holds is not waited for
    }

    /** Kafka has committed the engine journal up to {@code index}: what the engine journal resuming learns. */
    void engineCommitted(final long index) {
        committedEngineIndex = Math.max(committedEngineIndex, index);
        deliveredEngineIndex = Math.max(deliveredEngineIndex, index);
    }

    /**
     * @param journal the journal of the excerpt
     * @param call    the excerpt's first call, read ({@link ExcerptCall#read} returned true)
     * @return true if the excerpt may be sent now, in the open transaction
     */
    boolean mayShip(final JournalName journal, final ExcerptCall call) {
        return switch (journal.kind()) {
            case GATEWAY_COMMANDS, ADMIN -> true;
            case ENGINE -> {
                final int source = call.intAt(RecordLayout.SOURCE_ID);
                final long eventId = call.longAt(RecordLayout.EVENT_ID);
                yield committedEvent.get(source) >= eventId || openEvent.get(source) >= eventId;
            }
            case GATEWAY_OUT -> {
                if (call.methodId() != RecordLayout.SENT) {
                    yield true;
                }
                final long engineIndex = call.longAt(RecordLayout.SENT_ENGINE_INDEX);
                yield engineIndex == 0 || committedEngineIndex >= engineIndex || openEngineIndex >= engineIndex;
            }
        };
    }

    /**
     * The excerpt at {@code index} of {@code journal}, whose first call is {@code call} (read, or null if it is no
     * method-writer call), was sent in the open transaction: it now counts as a cause that effects may follow in the same
     * transaction, and as the effect its causes waited for.
     */
    void sent(final JournalName journal, final ExcerptCall call, final long index) {
        switch (journal.kind()) {
            case GATEWAY_COMMANDS, ADMIN -> {
                raise(openEvent, journal.gatewayId(), call.longAt(RecordLayout.EVENT_ID));
            }
            case ENGINE -> {
                openEngineIndex = Math.max(openEngineIndex, index);
                raise(answeredEvent, call.intAt(RecordLayout.SOURCE_ID), call.longAt(RecordLayout.EVENT_ID));
            }
            case GATEWAY_OUT -> {
                if (call != null && call.methodId() == RecordLayout.SENT) {
                    deliveredEngineIndex = Math.max(deliveredEngineIndex, call.longAt(RecordLayout.SENT_ENGINE_INDEX));
                }
            }
        }
    }

    /** The open transaction is committed: what it holds is what Kafka holds now. */
    void committed() {
        final Long2LongHashMap.EntryIterator entries = openEvent.entrySet().iterator();
        while (entries.hasNext()) {
            entries.next();
            raise(committedEvent, entries.getLongKey(), entries.getLongValue());
        }
        openEvent.clear();
        committedEngineIndex = Math.max(committedEngineIndex, openEngineIndex);
        openEngineIndex = -1;
    }

    /**
     * The open transaction is aborted: nothing it held counts, and no effect of it waits; every journal resumes from
     * what Kafka has committed.
     */
    void aborted() {
        openEvent.clear();
        openEngineIndex = -1;
    }

    /**
     * @return true if the open transaction holds a command whose engine excerpt has not been shipped, or an engine
     * excerpt no shipped {@code sent} record carries yet: its effects would share its commit if it stayed open
     */
    boolean awaitsEffects() {
        if (openEngineIndex > deliveredEngineIndex) {
            return true;
        }
        final Long2LongHashMap.EntryIterator entries = openEvent.entrySet().iterator();
        while (entries.hasNext()) {
            entries.next();
            if (entries.getLongValue() > answeredEvent.get(entries.getLongKey())) {
                return true;
            }
        }
        return false;
    }

    /** Sets {@code source}'s event in {@code events} to {@code eventId} if that is later than the one it holds. */
    private static void raise(final Long2LongHashMap events, final long source, final long eventId) {
        if (eventId > events.get(source)) {
            events.put(source, eventId);
        }
    }

    /** @return what an excerpt of {@code journal} held by the gate waits for, for the lag report */
    String waitingFor(final JournalName journal, final ExcerptCall call) {
        return switch (journal.kind()) {
            case GATEWAY_COMMANDS, ADMIN -> "nothing";
            case ENGINE -> (call.intAt(RecordLayout.SOURCE_ID) == Journals.ADMIN_SOURCE_ID ? "admin"
                    : "gateway-" + call.intAt(RecordLayout.SOURCE_ID)) + " event " + call.longAt(RecordLayout.EVENT_ID);
            case GATEWAY_OUT -> "engine " + IndexText.of(call.longAt(RecordLayout.SENT_ENGINE_INDEX));
        };
    }
}
