package io.sluice.gateway.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.sluice.gateway.codec.FixBytes.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** An answer's routing fields are the message's, each turned to its counterpart; empty ones do not come back. */
class ReverseRouteTest {
    private final FixEncoder encoder = new FixEncoder(new UnsafeBuffer(new byte[1024]));

    private String answerTo(final String pipeBody) {
        return answerTo(new FixMessage(32), pipeBody);
    }

    private String answerTo(final FixMessage message, final String pipeBody) {
        final UnsafeBuffer received = buffer(pipeBody);
        message.parse(received, 0, received.capacity());
        encoder.start(MsgTypes.REJECT).header("SLUICE".getBytes(), "CLIENT1".getBytes(), 2, 0);
        final int routingStart = encoder.position();
        ReverseRoute.write(message, encoder);
        return FixBytes.text(encoder.buffer(), routingStart, encoder.position() - routingStart);
    }

    @Test
    void onBehalfOfComesBackAsDeliverTo() {
        assertEquals("128=JCD|129=CS|145=CHI|", answerTo("35=0|115=JCD|116=CS|144=CHI|"));
    }

    @Test
    void deliverToComesBackAsOnBehalfOf() {
        assertEquals("115=JCD|116=CS|144=CHI|", answerTo("35=0|128=JCD|129=CS|145=CHI|"));
    }

    @Test
    void senderAndTargetSubAndLocationIdsTradePlaces() {
        assertEquals("57=TRADER|143=LDN|50=DESK|142=NYC|", answerTo("35=0|50=TRADER|142=LDN|57=DESK|143=NYC|"));
    }

    @Test
    void emptyRoutingFieldsDoNotComeBack() {
        final FixValidation emptyValuesAllowed = new FixValidation(false, false, true, true, true, false);
        assertEquals("128=JCD|", answerTo(new FixMessage(32, emptyValuesAllowed), "35=0|115=JCD|116=|128=|"));
    }
}
