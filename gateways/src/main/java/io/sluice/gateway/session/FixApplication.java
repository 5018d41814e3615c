package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixMessage;

/**
 * Receives the application (non-session) messages a session accepted, in sequence and exactly once per
 * MsgSeqNum. It may answer through {@link FixSession#reject} or {@link FixSession#businessReject}; the
 * session advances its sequence after the call returns, so whatever the application persisted for the
 * message is persisted before the session records the message as processed.
 */
public interface FixApplication {
    void onApplicationMessage(FixSession session, FixMessage message);

    /**
     * @return the id of the last input the application journaled (0 if none): the session records it with its
     *         progress ({@link SessionStore#received}), which is how a restart tells the journaled inputs whose
     *         client message was recorded as processed from those whose progress a crash cut off
     */
    long lastEventId();
}
