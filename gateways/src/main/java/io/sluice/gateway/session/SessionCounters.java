package io.sluice.gateway.session;

import io.sluice.contracts.MassCancelCause;

/**
 * What a FIX session counts as it goes. Messages in and out, session-level Rejects (35=3) by SessionRejectReason,
 * ResendRequests, logons, disconnects by {@link DisconnectReason}, mass cancels (35=q, and the gateway's own for
 * cancel-on-disconnect), the room left in its send buffer, and where it stands (state, next sequence numbers, which
 * {@code ./sluice admin sessions} lists). The gateway
 * config's {@code counters} chooses, once at start, between counters in the gateway's counters file
 * ({@link MappedSessionCounters}) and {@link #NONE}, which keeps nothing: on the I/O thread no counter write and no
 * flag tested per message (a process only ever uses one implementation, so the JIT inlines it, the empty one to
 * nothing). A session the gateway has not given counters to (tests, embedded use) counts into {@link #NONE}.
 */
public interface SessionCounters {
    /** Counts nothing. */
    SessionCounters NONE = new Uncounted();
    /** The gauge of the session's {@link FixSessionState}, as its ordinal. */
    String STATE_METRIC = "sluice_fix_session_state";
    /** The gauge of the MsgSeqNum the session's next message to the client gets. */
    String NEXT_SENDER_SEQ_METRIC = "sluice_fix_next_sender_seq";
    /** The gauge of the MsgSeqNum expected on the client's next message. */
    String NEXT_TARGET_SEQ_METRIC = "sluice_fix_next_target_seq";

    /** Why a logged-on session's connection ended. */
    enum DisconnectReason {
        /** The client sent Logout. */
        CLIENT_LOGOUT,
        /** The connection was lost (closed by the peer, reset, dropped by keepalive). */
        CONNECTION_LOST,
        /** The gateway logged the client out (heartbeat timeout, bad message, send buffer full, disk full...). */
        GATEWAY_LOGOUT
    }

    /** Counts a message received. */
    void messageIn();

    /** Counts a message sent (resends included). */
    void messageOut();

    /** Counts a session-level Reject sent, for SessionRejectReason (373) {@code reason}. */
    void sessionReject(int reason);

    /** Counts a ResendRequest received. */
    void resendRequest();

    /** Counts a logon of the session. */
    void logon();

    /** Counts the end of a logged-on session's connection, for {@code reason}. */
    void disconnect(DisconnectReason reason);

    /** Sets how many bytes the session's connection's send buffer has room for (0 without a connection). */
    void sendBufferFree(long bytes);

    /** Counts an OrderMassCancelRequest (35=q) of the session journaled for the engine. */
    void massCancelRequest();

    /**
     * Counts a mass cancel the gateway journaled by itself for the absent session (cancel-on-disconnect).
     *
     * @param cause {@link io.sluice.contracts.MassCancelCause#LOGOUT} if the session had logged out,
     *              {@link io.sluice.contracts.MassCancelCause#DISCONNECT} if its connection was lost (or the gateway
     *              restarted)
     */
    void cancelOnDisconnect(MassCancelCause cause);

    /** Sets where the session stands: its state and next sequence numbers (sampled, not per message). */
    void standing(FixSessionState sessionState, long nextSender, long nextTarget);

    /** {@link #NONE}: every update does nothing. */
    final class Uncounted implements SessionCounters {
        private Uncounted() {
        }

        @Override
        public void messageIn() {
        }

        @Override
        public void messageOut() {
        }

        @Override
        public void sessionReject(final int reason) {
        }

        @Override
        public void resendRequest() {
        }

        @Override
        public void logon() {
        }

        @Override
        public void disconnect(final DisconnectReason reason) {
        }

        @Override
        public void sendBufferFree(final long bytes) {
        }

        @Override
        public void massCancelRequest() {
        }

        @Override
        public void cancelOnDisconnect(final MassCancelCause cause) {
        }

        @Override
        public void standing(final FixSessionState sessionState, final long nextSender, final long nextTarget) {
        }
    }
}
