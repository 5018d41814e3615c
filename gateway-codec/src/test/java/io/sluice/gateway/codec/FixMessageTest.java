package io.sluice.gateway.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static io.sluice.gateway.codec.FixBytes.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Parsing a framed body: field syntax, header order, duplicates and repeating groups, each with its own error. */
class FixMessageTest {
    private final FixMessage message = new FixMessage(64);

    private FixError parse(final String pipeBody) {
        final UnsafeBuffer buffer = buffer(pipeBody);
        return message.parse(buffer, 0, buffer.capacity());
    }

    @Test
    void fieldsAreFoundByTagAndTypedValuesRead() {
        assertEquals(FixError.NONE, parse("35=D|49=CLIENT1|56=SLUICE|34=12|43=Y|52=20260101-10:00:00.123|"
                + "11=ORD1|54=1|38=100|44=101.25|"));
        assertEquals(MsgTypes.NEW_ORDER_SINGLE, message.msgType());
        assertEquals(12, message.unsignedValue(FixTags.MSG_SEQ_NUM));
        assertEquals('1', message.charValue(FixTags.SIDE));
        assertTrue(message.isYes(FixTags.POSS_DUP_FLAG));
        assertTrue(message.valueEquals(FixTags.SENDER_COMP_ID, "CLIENT1".getBytes()));
        assertEquals(FixMessage.ABSENT, message.unsignedValue(FixTags.PRICE + 1));
        assertEquals(FixMessage.INVALID, message.unsignedValue(FixTags.PRICE));
        assertEquals(Instant.parse("2026-01-01T10:00:00.123Z").toEpochMilli(),
                message.timestampValue(FixTags.SENDING_TIME));
    }

    @Test
    void msgTypeMustBeTheFirstBodyField() {
        assertEquals(FixError.GARBLED, parse("49=A|35=0|"), "the first three fields must be 8, 9 and 35");
        assertEquals(FixTags.MSG_TYPE, message.errorTag());
    }

    @Test
    void headerFieldsAfterTheBodyHasStartedAreOutOfOrder() {
        assertEquals(FixError.TAG_OUT_OF_ORDER, parse("35=D|49=A|11=X|34=2|"));
        assertEquals(FixTags.MSG_SEQ_NUM, message.errorTag());
    }

    @Test
    void aTagThatIsNotANumberIsAnInvalidTag() {
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|4x9=A|"));
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|=A|"));
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|049=A|"));
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|49A|"));
    }

    @Test
    void anInvalidTagIsNamedAsWrittenWhenItIsANumber() {
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|0=HI|"));
        assertEquals(0, message.errorTag());
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|-1=HI|"));
        assertEquals(-1, message.errorTag());
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|-123456789=HI|"));
        assertEquals(-123456789, message.errorTag());
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|4x9=A|"));
        assertEquals(FixMessage.NO_TAG, message.errorTag());
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|=A|"));
        assertEquals(FixMessage.NO_TAG, message.errorTag());
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|049=A|"));
        assertEquals(FixMessage.NO_TAG, message.errorTag());
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|-0=A|"));
        assertEquals(FixMessage.NO_TAG, message.errorTag());
        assertEquals(FixError.INVALID_TAG_NUMBER, parse("35=0|1234567890=A|"));
        assertEquals(FixMessage.NO_TAG, message.errorTag());
    }

    @Test
    void anEmptyValueIsATagWithoutValue() {
        assertEquals(FixError.TAG_WITHOUT_VALUE, parse("35=0|49=|"));
        assertEquals(49, message.errorTag());
    }

    @Test
    void aRepeatedTagOutsideAGroupAppearsMoreThanOnce() {
        assertEquals(FixError.TAG_APPEARS_MORE_THAN_ONCE, parse("35=D|11=A|11=B|"));
        assertEquals(11, message.errorTag());
    }

    @Test
    void tooManyFieldsAreRefused() {
        final StringBuilder body = new StringBuilder("35=D|");
        for (int tag = 5000; tag < 5064; tag++) {
            body.append(tag).append("=x|");
        }
        assertEquals(FixError.TOO_MANY_FIELDS, parse(body.toString()));
    }

    @Test
    void repeatingGroupFieldsAreSkippedAndDoNotShadowBodyFields() {
        assertEquals(FixError.NONE, parse("35=D|11=ORD1|453=2|448=P1|447=D|452=1|448=P2|447=D|452=3|55=VOD|"));
        assertEquals(1, message.indexOf(FixTags.CL_ORD_ID));
        assertEquals(-1, message.indexOf(448), "group members are not body fields");
        assertEquals(1, message.groupDepth(3));
        assertTrue(message.has(FixTags.SYMBOL));
    }

    @Test
    void nestedGroupsAreFollowed() {
        assertEquals(FixError.NONE, parse("35=D|453=1|448=P1|802=2|523=S1|803=1|523=S2|803=2|452=1|55=VOD|"));
        assertEquals(2, message.groupDepth(4));
        assertEquals(1, message.groupDepth(8), "PartyRole after the nested group belongs to the party again");
    }

    @Test
    void aNumInGroupThatDoesNotMatchTheInstancesIsRejected() {
        assertEquals(FixError.INCORRECT_NUM_IN_GROUP_COUNT, parse("35=D|453=2|448=P1|452=1|55=VOD|"));
        assertEquals(453, message.errorTag());
        assertEquals(FixError.INCORRECT_NUM_IN_GROUP_COUNT, parse("35=D|453=1|448=P1|448=P2|"));
    }

    @Test
    void aGroupInstanceMustStartWithItsDelimiter() {
        assertEquals(FixError.GROUP_FIELDS_OUT_OF_ORDER, parse("35=D|453=1|452=1|448=P1|"));
    }

    @Test
    void aNumInGroupThatIsNotANumberIsIncorrectDataFormat() {
        assertEquals(FixError.INCORRECT_DATA_FORMAT, parse("35=D|453=x|"));
    }

    @Test
    void dataFieldsMayContainTheDelimiterWhenTheirLengthIsGiven() {
        assertEquals(FixError.NONE, parse("35=A|95=3|96=a|b|98=0|"));
        assertEquals(3, message.valueLength(message.indexOf(96)));
        assertTrue(message.has(FixTags.ENCRYPT_METHOD));
    }

    @Test
    void aTooLongMsgTypeIsInvalid() {
        assertEquals(FixError.INVALID_MSG_TYPE, parse("35=ABCD|"));
        assertFalse(message.error() == FixError.NONE);
    }
}
