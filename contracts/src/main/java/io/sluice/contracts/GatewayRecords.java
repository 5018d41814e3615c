package io.sluice.contracts;

import net.openhft.chronicle.bytes.MethodId;

/**
 * Everything a gateway writes to its own journal ({@code Journals.gatewayDeliveries}): deliveries and the FIX session
 * state a restart needs. The deliveries are what the latency tail reads; the session state is every message sent (with
 * the body of application messages, for resends, and the engine-journal index of the report it carried) and how far
 * each session's inbound sequence has been processed. A report's {@link #sent} record is written before its FIX
 * message goes out, and is what a restart counts as delivered; its {@link #delivered} record, for the latency
 * tail only, follows in an excerpt of its own once the socket has taken the message.
 */
public interface GatewayRecords extends GatewayDeliveries {
    @MethodId(RecordLayout.SENT)
    void sent(SentMessage message);

    @MethodId(RecordLayout.RECEIVED)
    void received(SessionProgress progress);

    @MethodId(RecordLayout.RESET)
    void reset(SessionProgress progress);

    /**
     * One session's whole recovered state, written for every session in one excerpt when the gateway starts and when
     * its journal rolls to a new day: a restart that finds it needs none of the journal before it.
     */
    @MethodId(RecordLayout.CHECKPOINT)
    void checkpoint(SessionCheckpoint checkpoint);

    /** The gateway's answer to an admin command it carries out ({@link AdminAction.Actor#GATEWAY}). */
    @MethodId(RecordLayout.GATEWAY_ADMIN_OUTCOME)
    void adminAnswered(AdminOutcome outcome);
}
