package io.sluice.gateway.session;

import io.sluice.contracts.MassCancelCause;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;

import java.nio.ByteBuffer;

/**
 * One FIX session's live counters: messages in and out, session-level Rejects (35=3) sent by SessionRejectReason,
 * ResendRequests received, logons, disconnects by {@link DisconnectReason}, mass cancels it asked for
 * (OrderMassCancelRequest, 35=q, journaled), mass cancels the gateway wrote for it by cancel-on-disconnect (by cause:
 * disconnect or logout), the room left in its connection's send buffer (a client that does not read fills it), and
 * where it stands: its {@link FixSessionState} (as the ordinal) and its next sender and target MsgSeqNum, which
 * {@code ./sluice admin sessions} lists. The gateway allocates them in its counters file at start
 * ({@code io.sluice.gateway.GatewayCounters});
 * the I/O thread updates them with single-writer ordered writes, allocating nothing. A session the gateway has not
 * given counters to (tests, embedded use) counts into {@link #NONE}, which no one reads.
 */
public final class SessionCounters {
    /** Session-level reject reasons with a counter of their own; any other counts as {@link #OTHER_REJECT_REASON}. */
    public static final int[] COUNTED_REJECT_REASONS = {
            SessionRejectReason.REQUIRED_TAG_MISSING, SessionRejectReason.VALUE_IS_INCORRECT,
            SessionRejectReason.INCORRECT_DATA_FORMAT, SessionRejectReason.COMP_ID_PROBLEM,
            SessionRejectReason.SENDING_TIME_ACCURACY_PROBLEM, SessionRejectReason.INVALID_MSG_TYPE};
    /** The slot of reasons not in {@link #COUNTED_REJECT_REASONS}. */
    public static final int OTHER_REJECT_REASON = -1;
    private static final int MAX_REASON = 99;

    /** Why a logged-on session's connection ended. */
    public enum DisconnectReason {
        /** The client sent Logout. */
        CLIENT_LOGOUT,
        /** The connection was lost (closed by the peer, reset, dropped by keepalive). */
        CONNECTION_LOST,
        /** The gateway logged the client out (heartbeat timeout, bad message, send buffer full, disk full...). */
        GATEWAY_LOGOUT
    }

    /** The gauge of the session's {@link FixSessionState}, as its ordinal. */
    public static final String STATE_METRIC = "sluice_fix_session_state";
    /** The gauge of the MsgSeqNum the session's next message to the client gets. */
    public static final String NEXT_SENDER_SEQ_METRIC = "sluice_fix_next_sender_seq";
    /** The gauge of the MsgSeqNum expected on the client's next message. */
    public static final String NEXT_TARGET_SEQ_METRIC = "sluice_fix_next_target_seq";

    /** Counts into memory no one reads. */
    public static final SessionCounters NONE = unread();

    private final AtomicCounter messagesIn;
    private final AtomicCounter messagesOut;
    private final AtomicCounter[] rejectsByReason = new AtomicCounter[MAX_REASON + 1];
    private final AtomicCounter otherRejects;
    private final AtomicCounter resendRequests;
    private final AtomicCounter logons;
    private final AtomicCounter[] disconnects;
    private final AtomicCounter sendBufferFree;
    private final AtomicCounter massCancelRequests;
    private final AtomicCounter cancelOnDisconnectAfterDisconnect;
    private final AtomicCounter cancelOnDisconnectAfterLogout;
    private final AtomicCounter state;
    private final AtomicCounter nextSenderSeq;
    private final AtomicCounter nextTargetSeq;

    /** Allocates one session's counters, each from {@code newCounter} (given its metric, label name and value). */
    public SessionCounters(final CounterFactory newCounter) {
        messagesIn = newCounter.counter("sluice_fix_messages_in_total", null, null);
        messagesOut = newCounter.counter("sluice_fix_messages_out_total", null, null);
        for (final int reason : COUNTED_REJECT_REASONS) {
            rejectsByReason[reason] = newCounter.counter("sluice_fix_session_rejects_total", "reason",
                    Integer.toString(reason));
        }
        otherRejects = newCounter.counter("sluice_fix_session_rejects_total", "reason", "other");
        resendRequests = newCounter.counter("sluice_fix_resend_requests_total", null, null);
        logons = newCounter.counter("sluice_fix_logons_total", null, null);
        final DisconnectReason[] reasons = DisconnectReason.values();
        disconnects = new AtomicCounter[reasons.length];
        for (final DisconnectReason reason : reasons) {
            disconnects[reason.ordinal()] = newCounter.counter("sluice_fix_disconnects_total", "reason",
                    reason.name().toLowerCase(java.util.Locale.ROOT));
        }
        sendBufferFree = newCounter.gauge("sluice_fix_send_buffer_free_bytes");
        massCancelRequests = newCounter.counter("sluice_fix_mass_cancel_requests_total", null, null);
        cancelOnDisconnectAfterDisconnect = newCounter.counter("sluice_fix_cancel_on_disconnect_total", "cause",
                "disconnect");
        cancelOnDisconnectAfterLogout = newCounter.counter("sluice_fix_cancel_on_disconnect_total", "cause", "logout");
        state = newCounter.gauge(STATE_METRIC);
        nextSenderSeq = newCounter.gauge(NEXT_SENDER_SEQ_METRIC);
        nextTargetSeq = newCounter.gauge(NEXT_TARGET_SEQ_METRIC);
    }

    /** Makes one session's counters; {@code labelName} and {@code labelValue} are null for a counter without one. */
    public interface CounterFactory {
        AtomicCounter counter(String metric, String labelName, String labelValue);

        AtomicCounter gauge(String metric);
    }

    void messageIn() {
        messagesIn.incrementRelease();
    }

    void messageOut() {
        messagesOut.incrementRelease();
    }

    void sessionReject(final int reason) {
        final AtomicCounter counter = reason >= 0 && reason <= MAX_REASON ? rejectsByReason[reason] : null;
        (counter == null ? otherRejects : counter).incrementRelease();
    }

    void resendRequest() {
        resendRequests.incrementRelease();
    }

    /** Counts a logon of the session. */
    public void logon() {
        logons.incrementRelease();
    }

    /** Counts the end of a logged-on session's connection, for {@code reason}. */
    public void disconnect(final DisconnectReason reason) {
        disconnects[reason.ordinal()].incrementRelease();
    }

    /** Counts an OrderMassCancelRequest (35=q) of the session journaled for the engine. */
    public void massCancelRequest() {
        massCancelRequests.incrementRelease();
    }

    /**
     * Counts a mass cancel the gateway journaled by itself for the absent session (cancel-on-disconnect).
     *
     * @param cause {@link MassCancelCause#LOGOUT} if the session had logged out, {@link MassCancelCause#DISCONNECT} if
     *              its connection was lost (or the gateway restarted)
     */
    public void cancelOnDisconnect(final MassCancelCause cause) {
        (cause == MassCancelCause.LOGOUT ? cancelOnDisconnectAfterLogout : cancelOnDisconnectAfterDisconnect)
                .incrementRelease();
    }

    /** Sets how many bytes the session's connection's send buffer has room for (0 without a connection). */
    public void sendBufferFree(final long bytes) {
        sendBufferFree.setRelease(bytes);
    }

    /** Sets where the session stands: its state and next sequence numbers (sampled, not per message). */
    public void standing(final FixSessionState sessionState, final long nextSender, final long nextTarget) {
        state.setRelease(sessionState.ordinal());
        nextSenderSeq.setRelease(nextSender);
        nextTargetSeq.setRelease(nextTarget);
    }

    private static SessionCounters unread() {
        final int slots = COUNTED_REJECT_REASONS.length + DisconnectReason.values().length + 15;
        final UnsafeBuffer values = new UnsafeBuffer(ByteBuffer.allocateDirect(slots * CountersReader.COUNTER_LENGTH));
        final int[] next = {0};
        return new SessionCounters(new CounterFactory() {
            @Override
            public AtomicCounter counter(final String metric, final String labelName, final String labelValue) {
                return new AtomicCounter(values, next[0]++);
            }

            @Override
            public AtomicCounter gauge(final String metric) {
                return new AtomicCounter(values, next[0]++);
            }
        });
    }
}
