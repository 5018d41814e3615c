package io.sluice.gateway.session;

import org.agrona.DirectBuffer;

/**
 * Where a session keeps what must survive a restart. The messages it sent (the bodies of application messages, for
 * resends; the sequence number of every message) and how far it has processed the client's messages. Every call must be
 * durable (in the journal) before it returns, because the
 * session sends a message only after {@link #sent} returned.
 */
public interface SessionStore {
    /**
     * Records an outgoing message before it goes out.
     *
     * @param bodyOffset  where the fields after the standard header start (application messages only)
     * @param bodyLength  their length; 0 for administrative messages, which are gap-filled on resend
     * @param engineIndex the engine-journal index of the report the message carries, or 0 if it carries none:
     *                    how a restart knows which reports were delivered
     */
    void sent(FixSession session, long seqNum, int msgType, long sendingTimeMillis, DirectBuffer buffer,
              int bodyOffset, int bodyLength, long engineIndex);

    /**
     * Records that an unresendable message (market data) is numbered {@code seqNum} before it goes out: a resend
     * gap-fills it. The store need not write a record per message, only make sure that no restart uses the number again.
     */
    void sentUnresendable(FixSession session, long seqNum, long sendingTimeMillis);

    /**
     * Records that every client message below {@code nextTargetSeq} has been processed.
     *
     * @param lastEventId the application's last journaled input ({@link FixApplication#lastEventId()}), so that
     *                    a restart knows which journaled inputs came from messages recorded as processed
     */
    void received(FixSession session, long nextTargetSeq, long lastEventId);

    /**
     * Records a sequence reset (ResetSeqNumFlag): earlier messages can no longer be resent.
     *
     * @param lastEventId as for {@link #received}
     */
    void reset(FixSession session, long nextSenderSeq, long nextTargetSeq, long lastEventId);

    /**
     * Calls {@code handler} for each stored application message with {@code beginSeq <= seqNum <= endSeq},
     * in order, until the handler returns false.
     */
    void replay(FixSession session, long beginSeq, long endSeq, StoredMessageHandler handler);

    /**
     * As {@link #replay}, over the application messages stored in the sequence that the session's last
     * {@link #reset} ended: those a client that reset its sequence had not received yet are sent again, with new
     * numbers.
     */
    void replayBeforeReset(FixSession session, long beginSeq, long endSeq, StoredMessageHandler handler);

    /** Receives stored application messages being replayed for a resend. */
    interface StoredMessageHandler {
        /** @return false to stop the replay here (the connection has no room now) */
        boolean onStoredMessage(long seqNum, int msgType, long origSendingTimeMillis, DirectBuffer body,
                                int offset, int length);
    }
}
