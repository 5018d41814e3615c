package io.sluice.gateway.session;

import io.sluice.contracts.MassCancelCause;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.Locale;

/**
 * One FIX session's {@link SessionCounters} when the gateway keeps counters, each a counter of the gateway's counters
 * file. They are messages in and out, session-level Rejects (35=3) sent by SessionRejectReason, ResendRequests
 * received, logons, disconnects by {@link DisconnectReason}, mass cancels asked for (35=q) and written by
 * cancel-on-disconnect (by cause), the room left in its connection's send buffer (a client that does not read fills it)
 * and where it stands (state, next sequence numbers), allocated at start ({@code io.sluice.gateway.GatewayCounters});
 * the I/O thread updates them with single-writer ordered writes, allocating nothing.
 */
public final class MappedSessionCounters implements SessionCounters {
    /** Session-level reject reasons with a counter of their own; any other counts as {@link #OTHER_REJECT_REASON}. */
    public static final int[] COUNTED_REJECT_REASONS = {
            SessionRejectReason.REQUIRED_TAG_MISSING, SessionRejectReason.VALUE_IS_INCORRECT,
            SessionRejectReason.INCORRECT_DATA_FORMAT, SessionRejectReason.COMP_ID_PROBLEM,
            SessionRejectReason.SENDING_TIME_ACCURACY_PROBLEM, SessionRejectReason.INVALID_MSG_TYPE};
    /** The slot of reasons not in {@link #COUNTED_REJECT_REASONS}. */
    public static final int OTHER_REJECT_REASON = -1;
    private static final int MAX_REASON = 99;

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
    public MappedSessionCounters(final CounterFactory newCounter) {
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
                    reason.name().toLowerCase(Locale.ROOT));
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

    @Override
    public void messageIn() {
        messagesIn.incrementRelease();
    }

    @Override
    public void messageOut() {
        messagesOut.incrementRelease();
    }

    @Override
    public void sessionReject(final int reason) {
        final AtomicCounter counter = reason >= 0 && reason <= MAX_REASON ? rejectsByReason[reason] : null;
        (counter == null ? otherRejects : counter).incrementRelease();
    }

    @Override
    public void resendRequest() {
        resendRequests.incrementRelease();
    }

    @Override
    public void logon() {
        logons.incrementRelease();
    }

    @Override
    public void disconnect(final DisconnectReason reason) {
        disconnects[reason.ordinal()].incrementRelease();
    }

    @Override
    public void sendBufferFree(final long bytes) {
        sendBufferFree.setRelease(bytes);
    }

    @Override
    public void massCancelRequest() {
        massCancelRequests.incrementRelease();
    }

    @Override
    public void cancelOnDisconnect(final MassCancelCause cause) {
        (cause == MassCancelCause.LOGOUT ? cancelOnDisconnectAfterLogout
                : cancelOnDisconnectAfterDisconnect).incrementRelease();
    }

    @Override
    public void standing(final FixSessionState sessionState, final long nextSender, final long nextTarget) {
        state.setRelease(sessionState.ordinal());
        nextSenderSeq.setRelease(nextSender);
        nextTargetSeq.setRelease(nextTarget);
    }
}
