package io.sluice.gateway;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.session.FixSession;

/**
 * What a client hears when the gateway refuses an order because its journals' disk is full ({@link GatewaySpace}):
 * a NewOrderSingle gets the ExecutionReport a client expects for an order that was not accepted (ExecType and
 * OrdStatus Rejected, OrdRejReason 99 Other), an OrderCancelReplaceRequest an OrderCancelReject (CxlRejResponseTo
 * 2), each with the Text {@value #TEXT}. Nothing reaches the engine, so OrderID is {@code NONE}, as FIX has it for an
 * order that was never accepted, and the ExecID one of the gateway's own ({@link GatewayExecIds}); the client's own
 * fields are echoed as it sent them. Allocation-free: the fields are copied from the message buffer.
 */
final class DiskFullRejects {
    /** The Text (58) of every refusal for want of disk space. */
    static final String TEXT = "journal disk full";
    private static final byte[] NONE = {'N', 'O', 'N', 'E'};
    private static final byte[] ZERO = {'0'};
    private static final char REJECTED = '8';
    private static final int OTHER = 99;
    private static final char RESPONSE_TO_REPLACE = '2';

    private DiskFullRejects() {
    }

    /** Answers a NewOrderSingle the gateway cannot journal with an ExecutionReport, Rejected. */
    static void rejectNewOrder(final FixSession session, final FixMessage order, final GatewayExecIds execIds) {
        final FixEncoder encoder = session.startApplicationMessage(MsgTypes.EXECUTION_REPORT);
        encoder.field(FixTags.ORDER_ID, NONE);
        echo(encoder, order, FixTags.CL_ORD_ID);
        execIds.write(encoder);
        encoder.charField(FixTags.EXEC_TYPE, REJECTED)
                .charField(FixTags.ORD_STATUS, REJECTED);
        echo(encoder, order, FixTags.ACCOUNT);
        echo(encoder, order, FixTags.SYMBOL);
        echo(encoder, order, FixTags.SIDE);
        echo(encoder, order, FixTags.ORD_TYPE);
        echo(encoder, order, FixTags.ORDER_QTY);
        echo(encoder, order, FixTags.PRICE);
        encoder.field(FixTags.LEAVES_QTY, ZERO)
                .field(FixTags.CUM_QTY, ZERO)
                .field(FixTags.AVG_PX, ZERO)
                .longField(FixTags.ORD_REJ_REASON, OTHER)
                .textField(FixTags.TEXT, TEXT);
        session.sendApplicationMessage(0);
    }

    /** Answers an OrderCancelReplaceRequest the gateway cannot journal with an OrderCancelReject. */
    static void rejectReplace(final FixSession session, final FixMessage replace) {
        final FixEncoder encoder = session.startApplicationMessage(MsgTypes.ORDER_CANCEL_REJECT);
        encoder.field(FixTags.ORDER_ID, NONE);
        echo(encoder, replace, FixTags.CL_ORD_ID);
        echo(encoder, replace, FixTags.ORIG_CL_ORD_ID);
        encoder.charField(FixTags.ORD_STATUS, REJECTED)
                .charField(FixTags.CXL_REJ_RESPONSE_TO, RESPONSE_TO_REPLACE)
                .longField(FixTags.CXL_REJ_REASON, OTHER)
                .textField(FixTags.TEXT, TEXT);
        session.sendApplicationMessage(0);
    }

    private static void echo(final FixEncoder encoder, final FixMessage message, final int tag) {
        final int index = message.indexOf(tag);
        if (index >= 0) {
            encoder.field(tag, message.buffer(), message.valueOffset(index), message.valueLength(index));
        }
    }
}
