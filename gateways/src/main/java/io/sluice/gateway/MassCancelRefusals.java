package io.sluice.gateway;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.codec.ReverseRoute;
import io.sluice.gateway.session.FixSession;

/**
 * What a client hears when it asks for a mass cancel of a kind Sluice does not do: an OrderMassCancelRequest (q) whose
 * MassCancelRequestType (530) is a valid FIX 4.4 value other than 1 (one security) or 7 (all orders), that is by
 * underlying (2), product (3), CFICode (4), security type (5) or trading session (6), none of which Sluice keeps. The
 * standard answer is the request's own report: an OrderMassCancelReport (r) with MassCancelResponse (531) 0 "cancel
 * request rejected" and MassCancelRejectReason (532) 0 "mass cancel not supported", TotalAffectedOrders (533) 0 and
 * Text {@value #TEXT}. Nothing reaches the engine, so OrderID is {@code NONE}; ClOrdID and 530 are echoed as sent,
 * routing comes back reversed ({@link ReverseRoute}). Allocation-free: the fields are copied from the message buffer.
 */
final class MassCancelRefusals {
    /** The Text (58) of the refusal. */
    static final String TEXT = "Mass cancel not supported for this MassCancelRequestType (530): use 1 (one security) or 7 (all)";
    private static final byte[] NONE = {'N', 'O', 'N', 'E'};
    private static final char REJECTED = '0';
    private static final char NOT_SUPPORTED = '0';

    private MassCancelRefusals() {
    }

    /** Answers {@code request}, whose 530 Sluice does not support, with a rejecting OrderMassCancelReport. */
    static void typeNotSupported(final FixSession session, final FixMessage request) {
        final FixEncoder encoder = session.startApplicationMessage(MsgTypes.ORDER_MASS_CANCEL_REPORT);
        ReverseRoute.write(request, encoder);
        copy(encoder, request, FixTags.CL_ORD_ID, FixTags.CL_ORD_ID);
        encoder.field(FixTags.ORDER_ID, NONE);
        copy(encoder, request, FixTags.MASS_CANCEL_REQUEST_TYPE, FixTags.MASS_CANCEL_REQUEST_TYPE);
        encoder.charField(FixTags.MASS_CANCEL_RESPONSE, REJECTED)
                .charField(FixTags.MASS_CANCEL_REJECT_REASON, NOT_SUPPORTED)
                .longField(FixTags.TOTAL_AFFECTED_ORDERS, 0)
                .textField(FixTags.TEXT, TEXT);
        session.sendApplicationMessage(0);
    }

    private static void copy(final FixEncoder encoder, final FixMessage message, final int fromTag, final int toTag) {
        final int index = message.indexOf(fromTag);
        if (index >= 0 && message.valueLength(index) > 0) {
            encoder.field(toTag, message.buffer(), message.valueOffset(index), message.valueLength(index));
        }
    }
}
