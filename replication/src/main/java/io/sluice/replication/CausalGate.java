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
 *   sent only once Kafka has acknowledged the {@code gateway-<sourceId>} excerpt carrying that event (the {@code admin}
 *   excerpt for source 0, an admin command);</li>
 *   <li>a {@code gateway-N-out} record of a message sent for a report ({@code sent}, with the report's engine index) is
 *   sent only once Kafka has acknowledged the engine journal up to that index; the report's {@code delivered} record
 *   comes after its {@code sent} record in the same journal, so it is held behind it;</li>
 *   <li>a {@code gateway-N} or {@code admin} excerpt (a command) waits for nothing.</li>
 * </ul>
 * "Acknowledged" here means committed: the shipper publishes in Kafka transactions and tells the gate what each commit
 * made visible. A held excerpt holds its whole journal behind it (one partition keeps the journal's order). The
 * shipper's agent thread alone uses it.
 */
final class CausalGate {
    private final Long2LongHashMap gatewayAcknowledgedEvent = new Long2LongHashMap(0);
    private long engineAcknowledgedIndex = -1;
    private long adminAcknowledgedEvent;

    /** Kafka acknowledged gateway {@code gatewayId}'s command journal up to the command of event {@code eventId}. */
    void gatewayAcknowledged(final int gatewayId, final long eventId) {
        if (eventId > gatewayAcknowledgedEvent.get(gatewayId)) {
            gatewayAcknowledgedEvent.put(gatewayId, eventId);
        }
    }

    /** Kafka acknowledged the admin journal up to the command of event {@code eventId}. */
    void adminAcknowledged(final long eventId) {
        adminAcknowledgedEvent = Math.max(adminAcknowledgedEvent, eventId);
    }

    /** Kafka acknowledged the engine journal up to {@code index}. */
    void engineAcknowledged(final long index) {
        engineAcknowledgedIndex = Math.max(engineAcknowledgedIndex, index);
    }

    /**
     * @param journal the journal of the excerpt
     * @param call    the excerpt's first call, read ({@link ExcerptCall#read} returned true)
     * @return true if the excerpt may be sent now
     */
    boolean mayShip(final JournalName journal, final ExcerptCall call) {
        return switch (journal.kind()) {
            case GATEWAY_COMMANDS, ADMIN -> true;
            case ENGINE -> {
                final int source = call.intAt(RecordLayout.SOURCE_ID);
                final long eventId = call.longAt(RecordLayout.EVENT_ID);
                yield source == Journals.ADMIN_SOURCE_ID ? adminAcknowledgedEvent >= eventId
                        : gatewayAcknowledgedEvent.get(source) >= eventId;
            }
            case GATEWAY_OUT -> {
                if (call.methodId() != RecordLayout.SENT) {
                    yield true;
                }
                final long engineIndex = call.longAt(RecordLayout.SENT_ENGINE_INDEX);
                yield engineIndex == 0 || engineAcknowledgedIndex >= engineIndex;
            }
        };
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
