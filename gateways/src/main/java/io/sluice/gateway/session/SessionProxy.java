package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.codec.ReverseRoute;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Encodes every message one session sends to its client, the session-level ones whole, in one place.
 * <p>
 * A numbered message (Logon, Logout, Heartbeat, TestRequest, ResendRequest, Reject, Business Message Reject, or an
 * application message begun with {@link #header}) is left unfinished: its owner ({@link FixSession}) finishes, stores
 * and sends it, reading MsgType, SendingTime and where the body starts back from the {@link #encoder()}. A resent
 * message ({@link #possDup}) and a gap fill ({@link #gapFill}) are finished here, as they are not stored again. An
 * answer routes back the way the message it answers came ({@link ReverseRoute}). Nothing is allocated.
 */
final class SessionProxy {
    private final FixEncoder encoder;
    private final byte[] gatewayCompId;
    private final byte[] clientCompId;

    /** @param maxMessageLength the largest message the session sends */
    SessionProxy(final byte[] gatewayCompId, final byte[] clientCompId, final int maxMessageLength) {
        this.gatewayCompId = gatewayCompId;
        this.clientCompId = clientCompId;
        this.encoder = new FixEncoder(new UnsafeBuffer(ByteBuffer.allocateDirect(maxMessageLength + 64)));
    }

    /** @return the encoder holding the message written last */
    FixEncoder encoder() {
        return encoder;
    }

    /** Begins any numbered message with the standard header; its body follows through the returned encoder. */
    FixEncoder header(final int msgType, final long seqNum, final long sendingTimeMillis) {
        return encoder.start(msgType).header(gatewayCompId, clientCompId, seqNum, sendingTimeMillis);
    }

    /** The Logon that answers the client's, with ResetSeqNumFlag (141) when the sequences were reset. */
    void logon(final long seqNum, final long sendingTimeMillis, final long heartBtIntSeconds, final boolean reset) {
        header(MsgTypes.LOGON, seqNum, sendingTimeMillis)
                .longField(FixTags.ENCRYPT_METHOD, 0)
                .longField(FixTags.HEART_BT_INT, heartBtIntSeconds);
        if (reset) {
            encoder.booleanField(FixTags.RESET_SEQ_NUM_FLAG, true);
        }
    }

    /** A Logout, with Text (58) unless {@code text} is null. */
    void logout(final long seqNum, final long sendingTimeMillis, final CharSequence text) {
        header(MsgTypes.LOGOUT, seqNum, sendingTimeMillis);
        if (text != null) {
            encoder.textField(FixTags.TEXT, text);
        }
    }

    void heartbeat(final long seqNum, final long sendingTimeMillis) {
        header(MsgTypes.HEARTBEAT, seqNum, sendingTimeMillis);
    }

    /** The Heartbeat that answers {@code testRequest}, echoing the TestReqID (112) at field {@code testReqIdIndex}. */
    void heartbeat(final long seqNum, final long sendingTimeMillis, final FixMessage testRequest,
                   final int testReqIdIndex) {
        header(MsgTypes.HEARTBEAT, seqNum, sendingTimeMillis);
        ReverseRoute.write(testRequest, encoder);
        encoder.field(FixTags.TEST_REQ_ID, testRequest.buffer(), testRequest.valueOffset(testReqIdIndex),
                testRequest.valueLength(testReqIdIndex));
    }

    void testRequest(final long seqNum, final long sendingTimeMillis, final long testReqId) {
        header(MsgTypes.TEST_REQUEST, seqNum, sendingTimeMillis).longField(FixTags.TEST_REQ_ID, testReqId);
    }

    /** A ResendRequest from {@code beginSeqNo} to infinity (EndSeqNo 0). */
    void resendRequest(final long seqNum, final long sendingTimeMillis, final long beginSeqNo) {
        header(MsgTypes.RESEND_REQUEST, seqNum, sendingTimeMillis)
                .longField(FixTags.BEGIN_SEQ_NO, beginSeqNo)
                .longField(FixTags.END_SEQ_NO, 0);
    }

    /**
     * A session-level Reject (35=3) of {@code message}.
     *
     * @param refTagId the tag named in RefTagID (371), or {@link FixMessage#NO_TAG} for none
     * @param reason   SessionRejectReason (373), or negative for none
     */
    void reject(final long seqNum, final long sendingTimeMillis, final FixMessage message, final int reason,
                final int refTagId, final CharSequence text) {
        header(MsgTypes.REJECT, seqNum, sendingTimeMillis);
        ReverseRoute.write(message, encoder);
        refSeqAndType(message, true);
        if (refTagId != FixMessage.NO_TAG) {
            encoder.longField(FixTags.REF_TAG_ID, refTagId);
        }
        if (reason >= 0) {
            encoder.longField(FixTags.SESSION_REJECT_REASON, reason);
        }
        encoder.textField(FixTags.TEXT, text);
    }

    /** A Business Message Reject (35=j) of {@code message}. */
    void businessReject(final long seqNum, final long sendingTimeMillis, final FixMessage message, final int reason,
                        final CharSequence text) {
        header(MsgTypes.BUSINESS_MESSAGE_REJECT, seqNum, sendingTimeMillis);
        // Part of the stored body, so that a resend is routed the same way (still in the header: before 45).
        ReverseRoute.write(message, encoder);
        refSeqAndType(message, false);
        final int clOrdId = message.indexOf(FixTags.CL_ORD_ID);
        if (clOrdId >= 0) {
            encoder.field(FixTags.BUSINESS_REJECT_REF_ID, message.buffer(), message.valueOffset(clOrdId),
                    message.valueLength(clOrdId));
        }
        encoder.longField(FixTags.BUSINESS_REJECT_REASON, reason).textField(FixTags.TEXT, text);
    }

    /** A stored application message sent again, finished: PossDupFlag (43) Y, its first SendingTime as OrigSendingTime. */
    void possDup(final long seqNum, final int msgType, final long sendingTimeMillis, final long origSendingTimeMillis,
                 final DirectBuffer body, final int offset, final int length) {
        possDupHeader(msgType, seqNum, sendingTimeMillis, origSendingTimeMillis)
                .rawFields(body, offset, length)
                .finish();
    }

    /** A SequenceReset-GapFill numbered {@code fromSeq} that moves the client on to {@code newSeqNo}, finished. */
    void gapFill(final long fromSeq, final long newSeqNo, final long sendingTimeMillis) {
        possDupHeader(MsgTypes.SEQUENCE_RESET, fromSeq, sendingTimeMillis, sendingTimeMillis)
                .booleanField(FixTags.GAP_FILL_FLAG, true)
                .longField(FixTags.NEW_SEQ_NO, newSeqNo)
                .finish();
    }

    /** The header of a message sent again: PossDupFlag (43) Y before SendingTime (52), then OrigSendingTime (122). */
    private FixEncoder possDupHeader(final int msgType, final long seqNum, final long sendingTimeMillis,
                                     final long origSendingTimeMillis) {
        return encoder.start(msgType)
                .field(FixTags.SENDER_COMP_ID, gatewayCompId)
                .field(FixTags.TARGET_COMP_ID, clientCompId)
                .longField(FixTags.MSG_SEQ_NUM, seqNum)
                .booleanField(FixTags.POSS_DUP_FLAG, true)
                .timestampField(FixTags.SENDING_TIME, sendingTimeMillis)
                .timestampField(FixTags.ORIG_SENDING_TIME, origSendingTimeMillis);
    }

    /**
     * RefSeqNum (45) and RefMsgType (372) of {@code message}. A MsgSeqNum of 0 is referenced as 0, as a SequenceReset
     * in Reset mode may carry it; where RefSeqNum is required (a session Reject) and the message had no usable
     * MsgSeqNum, it is 0 too.
     */
    private void refSeqAndType(final FixMessage message, final boolean refSeqRequired) {
        final long refSeq = message.unsignedValue(FixTags.MSG_SEQ_NUM);
        if (refSeq >= 0 || refSeqRequired) {
            encoder.longField(FixTags.REF_SEQ_NUM, Math.max(refSeq, 0));
        }
        if (message.fieldCount() > 0 && message.tag(0) == FixTags.MSG_TYPE) {
            encoder.field(FixTags.REF_MSG_TYPE, message.buffer(), message.valueOffset(0), message.valueLength(0));
        }
    }
}
