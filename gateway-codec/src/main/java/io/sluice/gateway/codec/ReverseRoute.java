package io.sluice.gateway.codec;

/**
 * Routes an answer back the way a client's message came, in the answer's header. Each routing field the message has
 * (with a value) comes back as its counterpart, OnBehalfOf (115, 116, 144) as DeliverTo (128, 129, 145), DeliverTo as
 * OnBehalfOf, and SenderSubID (50) / SenderLocationID (142) as TargetSubID (57) / TargetLocationID (143) and the other
 * way. Copied from the message buffer, allocating nothing.
 */
public final class ReverseRoute {
    /** Pairs of (tag received, tag it comes back as), in the order they are written. */
    private static final int[] REVERSED = {
            FixTags.ON_BEHALF_OF_COMP_ID, FixTags.DELIVER_TO_COMP_ID,
            FixTags.ON_BEHALF_OF_SUB_ID, FixTags.DELIVER_TO_SUB_ID,
            FixTags.ON_BEHALF_OF_LOCATION_ID, FixTags.DELIVER_TO_LOCATION_ID,
            FixTags.DELIVER_TO_COMP_ID, FixTags.ON_BEHALF_OF_COMP_ID,
            FixTags.DELIVER_TO_SUB_ID, FixTags.ON_BEHALF_OF_SUB_ID,
            FixTags.DELIVER_TO_LOCATION_ID, FixTags.ON_BEHALF_OF_LOCATION_ID,
            FixTags.SENDER_SUB_ID, FixTags.TARGET_SUB_ID,
            FixTags.SENDER_LOCATION_ID, FixTags.TARGET_LOCATION_ID,
            FixTags.TARGET_SUB_ID, FixTags.SENDER_SUB_ID,
            FixTags.TARGET_LOCATION_ID, FixTags.SENDER_LOCATION_ID,
    };

    private ReverseRoute() {
    }

    /** Writes {@code message}'s routing fields, reversed, to {@code answer}: call it right after the header. */
    public static void write(final FixMessage message, final FixEncoder answer) {
        for (int i = 0; i < REVERSED.length; i += 2) {
            final int index = message.indexOf(REVERSED[i]);
            if (index >= 0 && message.valueLength(index) > 0) {
                answer.field(REVERSED[i + 1], message.buffer(), message.valueOffset(index), message.valueLength(index));
            }
        }
    }
}
