package io.sluice.gateway.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.sluice.gateway.codec.FixBytes.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every field a client sends is checked against the FIX 4.4 dictionary: one problem per message, the error and the
 * tag a Reject names (SessionRejectReason in brackets), and the switch that turns the check off.
 */
class FixValidationTest {
    private static final String HEADER = "49=CLIENT1|56=SLUICE|34=2|52=20261122-10:00:00.000|";
    private static final String ORDER = "11=O1|55=VOD|54=1|60=20261122-10:00:00.000|38=100|40=2|44=10.5|";

    private FixError error(final FixValidation validation, final String pipeBody, final int expectedTag) {
        final FixMessage message = new FixMessage(64, validation);
        final UnsafeBuffer buffer = buffer(pipeBody);
        final FixError error = message.parse(buffer, 0, buffer.capacity());
        assertEquals(expectedTag, message.errorTag(), "RefTagID of " + error);
        return error;
    }

    private FixError error(final String pipeBody, final int expectedTag) {
        return error(FixValidation.STANDARD, pipeBody, expectedTag);
    }

    private static FixValidation with(final boolean userDefined, final boolean unknownMsgFields,
                                      final boolean outOfOrder, final boolean unorderedGroups) {
        return new FixValidation(true, userDefined, unknownMsgFields, outOfOrder, unorderedGroups, true);
    }

    @Test
    void wellFormedMessagesPass() {
        assertEquals(FixError.NONE, error("35=0|" + HEADER, FixMessage.NO_TAG));
        assertEquals(FixError.NONE, error("35=D|" + HEADER + ORDER, FixMessage.NO_TAG));
        assertEquals(FixError.NONE, error("35=D|" + HEADER + ORDER + "453=2|448=P1|447=D|452=1|448=P2|447=D|452=3|", FixMessage.NO_TAG));
        assertEquals(FixError.NONE, error("35=A|" + HEADER + "98=0|108=30|141=Y|554=secret|", FixMessage.NO_TAG));
    }

    @Test
    void aTagFix44DoesNotDefineIsAnInvalidTagNumber0() {
        assertEquals(FixError.INVALID_TAG_NUMBER, error("35=0|" + HEADER + "4999=x|", 4999));
    }

    @Test
    void userDefinedTagsAreAllowedUnlessValidateUserDefinedFields() {
        assertEquals(FixError.NONE, error("35=D|" + HEADER + ORDER + "5001=x|", FixMessage.NO_TAG));
        assertEquals(FixError.NONE, error("35=D|" + HEADER + ORDER + "453=1|448=P1|5002=y|452=1|", FixMessage.NO_TAG));
        assertEquals(FixError.INVALID_TAG_NUMBER, error(with(true, false, true, true), "35=D|" + HEADER + ORDER + "5001=x|", 5001));
    }

    @Test
    void aTagTheMessageTypeDoesNotDefineIs2UnlessAllowUnknownMsgFields() {
        assertEquals(FixError.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, error("35=0|" + HEADER + "11=X|", 11));
        assertEquals(FixError.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, error("35=D|" + HEADER + ORDER + "448=P1|", 448),
                "a group member outside its group");
        assertEquals(FixError.NONE, error(with(false, true, true, true), "35=0|" + HEADER + "11=X|", FixMessage.NO_TAG));
    }

    @Test
    void aRequiredTagMissingIs1InTheHeaderTheBodyAndAGroupInstance() {
        assertEquals(FixError.REQUIRED_TAG_MISSING, error("35=0|49=CLIENT1|56=SLUICE|34=2|", FixTags.SENDING_TIME));
        assertEquals(FixError.REQUIRED_TAG_MISSING, error("35=D|" + HEADER + "11=O1|54=1|60=20261122-10:00:00.000|40=1|",
                FixTags.SYMBOL));
        assertEquals(FixError.REQUIRED_TAG_MISSING, error("35=1|" + HEADER, FixTags.TEST_REQ_ID));
        // ResendRequest's BeginSeqNo and EndSeqNo are both required.
        assertEquals(FixError.REQUIRED_TAG_MISSING, error("35=2|" + HEADER + "7=1|", FixTags.END_SEQ_NO));
        // NewOrderList: each order of NoOrders (73) needs its ListSeqNo (67).
        assertEquals(FixError.REQUIRED_TAG_MISSING, error("35=E|" + HEADER + "66=L1|394=1|68=1|73=1|" + ORDER, 67));
    }

    @Test
    void aValueOfTheWrongFormatIs6() {
        assertEquals(FixError.INCORRECT_DATA_FORMAT, error("35=D|" + HEADER + ORDER.replace("38=100", "38=1x0"), 38));
        assertEquals(FixError.INCORRECT_DATA_FORMAT, error("35=D|" + HEADER + ORDER.replace("60=20261122-", "60=2026-11-22 "), 60));
        assertEquals(FixError.INCORRECT_DATA_FORMAT, error("35=0|49=CLIENT1|56=SLUICE|34=two|52=20261122-10:00:00.000|", 34));
        assertEquals(FixError.INCORRECT_DATA_FORMAT, error("35=D|" + HEADER + ORDER + "432=20261341|", 432),
                "ExpireDate is a date");
    }

    @Test
    void aValueOutsideTheEnumeratedOnesIs5() {
        assertEquals(FixError.VALUE_IS_INCORRECT, error("35=D|" + HEADER + ORDER.replace("54=1", "54=Z"), FixTags.SIDE));
        assertEquals(FixError.VALUE_IS_INCORRECT, error("35=D|" + HEADER + ORDER.replace("40=2", "40=Z"), FixTags.ORD_TYPE));
        assertEquals(FixError.INCORRECT_DATA_FORMAT, error("35=0|49=CLIENT1|56=SLUICE|34=2|43=X|52=20261122-10:00:00.000|",
                FixTags.POSS_DUP_FLAG), "a Boolean is Y or N");
        assertEquals(FixError.VALUE_IS_INCORRECT, error("35=D|" + HEADER + ORDER + "18=1 #|", 18),
                "each value of a MultipleValueString");
        assertEquals(FixError.NONE, error("35=D|" + HEADER + ORDER + "18=1 G|", FixMessage.NO_TAG));
    }

    @Test
    void headerBodyAndTrailerOutOfOrderIs14UnlessValidateFieldsOutOfOrderIsOff() {
        assertEquals(FixError.TAG_OUT_OF_ORDER, error("35=D|49=CLIENT1|56=SLUICE|52=20261122-10:00:00.000|" + ORDER + "34=2|",
                FixTags.MSG_SEQ_NUM));
        assertEquals(FixError.TAG_OUT_OF_ORDER, error("35=D|" + HEADER + "93=1|89=s|" + ORDER, FixTags.CL_ORD_ID));
        assertEquals(FixError.NONE, error(with(false, false, false, true),
                "35=D|49=CLIENT1|56=SLUICE|52=20261122-10:00:00.000|" + ORDER + "34=2|", FixMessage.NO_TAG));
    }

    @Test
    void groupMembersOutOfOrderAre15UnlessValidateUnorderedGroupFieldsIsOff() {
        final String parties = "35=D|" + HEADER + ORDER + "453=1|448=P1|452=1|447=D|";
        assertEquals(FixError.GROUP_FIELDS_OUT_OF_ORDER, error(parties, 447));
        assertEquals(FixError.NONE, error(with(false, false, true, false), parties, FixMessage.NO_TAG));
        assertEquals(FixError.GROUP_FIELDS_OUT_OF_ORDER, error(with(false, false, true, false),
                "35=D|" + HEADER + ORDER + "453=1|452=1|448=P1|", 452), "an instance starts with its delimiter");
    }

    @Test
    void aNumInGroupThatDoesNotMatchIs16() {
        assertEquals(FixError.INCORRECT_NUM_IN_GROUP_COUNT, error("35=D|" + HEADER + ORDER + "453=2|448=P1|452=1|", 453));
    }

    @Test
    void aTagTwiceIs13() {
        assertEquals(FixError.TAG_APPEARS_MORE_THAN_ONCE, error("35=D|" + HEADER + ORDER + "11=O2|", 11));
    }

    @Test
    void aMsgTypeFix44DoesNotDefineIs11() {
        assertEquals(FixError.INVALID_MSG_TYPE, error("35=ZZ|" + HEADER, FixTags.MSG_TYPE));
        assertEquals(FixError.NONE, error(FixValidation.STRUCTURE_ONLY, "35=ZZ|" + HEADER, FixMessage.NO_TAG),
                "structure only reads any MsgType");
    }

    @Test
    void theDictionaryIsFix44() {
        final FixDictionary fix44 = FixDictionary.FIX44;
        assertEquals(FixFieldType.SEQNUM, fix44.type(FixTags.MSG_SEQ_NUM));
        assertEquals(FixFieldType.UTCTIMESTAMP, fix44.type(FixTags.SENDING_TIME));
        assertEquals(96, fix44.dataTagOf(95), "RawDataLength counts RawData");
        assertEquals(89, fix44.dataTagOf(93), "SignatureLength counts Signature");
        final int order = fix44.messageLayout(MsgTypes.NEW_ORDER_SINGLE);
        final int parties = fix44.groupLayout(order, 453);
        assertEquals(448, fix44.delimiter(parties));
        assertEquals(FixDictionary.NONE, fix44.groupLayout(order, 448));
        assertEquals(523, fix44.delimiter(fix44.groupLayout(parties, 802)), "PtySubGrp nests in Parties");
        assertEquals(FixDictionary.NONE, fix44.messageLayout(MsgTypes.INVALID));
    }
}
