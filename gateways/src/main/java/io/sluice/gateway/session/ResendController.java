package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochClock;

/**
 * Answers one session's ResendRequests from its {@link SessionStore}, over as many rounds as the connection needs.
 * <p>
 * A valid range goes out again in order: stored application messages with PossDupFlag (43) and OrigSendingTime (122),
 * everything else as SequenceReset-GapFill. EndSeqNo 0, infinity, or beyond the last message sent means up to the last
 * one sent. A range that cannot be answered so (missing or invalid bounds, BeginSeqNo above EndSeqNo or beyond the last
 * message sent) gets a session Reject naming the tag and why: a gap fill could not answer it, as it may not lower the
 * client's expected MsgSeqNum. A large resend (a client back after a busy day offline) goes out as far as the
 * connection has room and continues on the session's timer ({@link #continueResend}); messages numbered meanwhile join
 * it ({@link #extendTo}), keeping the order. It also stores again, with new numbers, what a client that reset its
 * sequence had not received yet ({@link #renumber}). Messages are encoded by the session's {@link SessionProxy}.
 */
final class ResendController implements SessionStore.StoredMessageHandler {
    private final FixSession session;
    private final SessionStore store;
    private final SessionProxy proxy;
    private final EpochClock clock;
    private final StringBuilder reason = new StringBuilder(128);
    private final SessionStore.StoredMessageHandler renumberer = this::renumbered;
    /** The next MsgSeqNum to resend, 0 when no resend is under way. */
    private long nextSeq;
    /** The last MsgSeqNum the resend under way goes to. */
    private long lastSeq;
    /** Within a round: the first MsgSeqNum not yet sent again or gap-filled. */
    private long gapFillFrom;
    /** Within a {@link #renumber}: the MsgSeqNum the next message stored again gets. */
    private long renumberedSeq;
    private int sent;

    ResendController(final FixSession session, final SessionStore store, final SessionProxy proxy,
                     final EpochClock clock) {
        this.session = session;
        this.store = store;
        this.proxy = proxy;
        this.clock = clock;
    }

    /** @return true while a resend has messages left to send. */
    boolean inProgress() {
        return nextSeq != 0;
    }

    /** @return the next MsgSeqNum the resend under way sends (0 if none). */
    long nextSeq() {
        return nextSeq;
    }

    /** @return the last MsgSeqNum the resend under way goes to. */
    long lastSeq() {
        return lastSeq;
    }

    /** A message numbered {@code seqNum} while a resend is under way waits for it, and becomes its last. */
    void extendTo(final long seqNum) {
        lastSeq = seqNum;
    }

    /** Drops the resend under way: the connection is gone, or the sequence it belongs to ended. */
    void cancel() {
        nextSeq = 0;
    }

    /**
     * Answers a valid ResendRequest of the client's, or rejects it through the session.
     *
     * @param lastSentSeq the MsgSeqNum of the last message the session sent
     * @return how many messages went out on the connection
     */
    int onResendRequest(final FixMessage message, final long lastSentSeq) {
        final long begin = message.unsignedValue(FixTags.BEGIN_SEQ_NO);
        final long end = message.unsignedValue(FixTags.END_SEQ_NO);
        if (begin < 1 || end < 0) {
            session.reject(message, begin == FixMessage.ABSENT || end == FixMessage.ABSENT
                            ? SessionRejectReason.REQUIRED_TAG_MISSING : SessionRejectReason.VALUE_IS_INCORRECT,
                    begin < 1 ? FixTags.BEGIN_SEQ_NO : FixTags.END_SEQ_NO,
                    "ResendRequest needs BeginSeqNo (7) >= 1 and EndSeqNo (16) >= 0");
            return 0;
        }
        if (end != 0 && begin > end) {
            reason.setLength(0);
            session.reject(message, SessionRejectReason.VALUE_IS_INCORRECT, FixTags.END_SEQ_NO, reason.append(
                    "EndSeqNo (16) ").append(end).append(" is below BeginSeqNo (7) ").append(begin)
                    .append(" and not 0 (infinity)"));
            return 0;
        }
        if (begin > lastSentSeq) {
            reason.setLength(0);
            session.reject(message, SessionRejectReason.VALUE_IS_INCORRECT, FixTags.BEGIN_SEQ_NO, reason.append(
                    "BeginSeqNo (7) ").append(begin).append(" is beyond the last MsgSeqNum sent, ").append(lastSentSeq));
            return 0;
        }
        return resend(begin, end == 0 || end > lastSentSeq ? lastSentSeq : end);
    }

    /** Starts resending {@code fromSeq} to {@code toSeq}; @return how many messages went out now. */
    int resend(final long fromSeq, final long toSeq) {
        nextSeq = fromSeq;
        lastSeq = toSeq;
        return continueResend();
    }

    /** Sends the next part of the resend under way, as much as the connection has room for; @return how many. */
    int continueResend() {
        sent = 0;
        if (session.connection() == null) {
            nextSeq = 0;
            return 0;
        }
        gapFillFrom = nextSeq;
        nextSeq = 0;
        store.replay(session, gapFillFrom, lastSeq, this);
        if (nextSeq == 0 && session.connection() != null && gapFillFrom <= lastSeq
                && !gapFill(gapFillFrom, lastSeq + 1)) {
            nextSeq = gapFillFrom;
        }
        return sent;
    }

    @Override
    public boolean onStoredMessage(final long seqNum, final int msgType, final long origSendingTimeMillis,
                                   final DirectBuffer body, final int offset, final int length) {
        if (seqNum > gapFillFrom) {
            if (!gapFill(gapFillFrom, seqNum)) {
                nextSeq = gapFillFrom;
                return false;
            }
            gapFillFrom = seqNum;
        }
        proxy.possDup(seqNum, msgType, clock.time(), origSendingTimeMillis, body, offset, length);
        if (!offer()) {
            nextSeq = seqNum;
            return false;
        }
        gapFillFrom = seqNum + 1;
        return true;
    }

    /**
     * Stores again the application messages {@code oldFrom} to {@code oldTo} of the sequence the session's last reset
     * ended, numbered from {@code firstSeq} on, so that a client that reset its sequence still gets them.
     *
     * @return the MsgSeqNum after the last one given
     */
    long renumber(final long oldFrom, final long oldTo, final long firstSeq) {
        renumberedSeq = firstSeq;
        store.replayBeforeReset(session, oldFrom, oldTo, renumberer);
        return renumberedSeq;
    }

    private boolean renumbered(final long oldSeqNum, final int msgType, final long origSendingTimeMillis,
                               final DirectBuffer body, final int offset, final int length) {
        store.sent(session, renumberedSeq++, msgType, origSendingTimeMillis, body, offset, length, 0);
        return true;
    }

    /** @return false if the connection had no room for the gap fill. */
    private boolean gapFill(final long fromSeq, final long newSeqNo) {
        proxy.gapFill(fromSeq, newSeqNo, clock.time());
        return offer();
    }

    /** Sends the resent message or gap fill if the connection has room; a full connection just pauses the resend. */
    private boolean offer() {
        final FixConnection connection = session.connection();
        final int length = proxy.encoder().messageLength();
        if (connection == null || connection.writableBytes() < length) {
            return false;
        }
        if (!connection.send(proxy.encoder().buffer(), proxy.encoder().messageOffset(), length)) {
            return false;
        }
        session.counters().messageOut();
        sent++;
        return true;
    }
}
