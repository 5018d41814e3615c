package io.sluice.gateway.codec;

/**
 * What is wrong with bytes that were meant to be a FIX 4.4 message, as a specific code instead of an
 * exception. Framing errors ({@link #isFraming()}) mean the frame's end cannot be found from its BodyLength: a
 * logged-on session skips to the next BeginString (another BeginString than FIX.4.4 logs it out), a connection not
 * yet logged on is closed. {@link #BAD_CHECKSUM} and {@link #GARBLED} frames are delimited but garbled and, as the
 * FIX spec requires, ignored without consuming a sequence number; every other error names the SessionRejectReason
 * (373) the gateway answers with in a Reject (35=3).
 */
public enum FixError {
    NONE(-1, false, ""),
    BAD_BEGIN_STRING(-1, true, "Garbled message: BeginString (8) must be FIX.4.4"),
    BAD_BODY_LENGTH(-1, true,
            "Garbled message: BodyLength (9) is missing, not a number, or does not end where CheckSum (10) begins"),
    BODY_TOO_LONG(-1, true, "Garbled message: BodyLength (9) exceeds the maximum message size"),
    BAD_CHECKSUM(-1, false, "Garbled message: CheckSum (10) does not match"),
    GARBLED_START(-1, true, "Garbled message: the first fields are not BeginString (8) and BodyLength (9)"),
    GARBLED(-1, false, "Garbled message: the first three fields are not BeginString (8), BodyLength (9) and MsgType (35)"),
    REQUIRED_TAG_MISSING(1, false, "Required tag missing"),
    TAG_NOT_DEFINED_FOR_MESSAGE_TYPE(2, false, "Tag not defined for this message type"),
    VALUE_IS_INCORRECT(5, false, "Value is incorrect (out of range) for this tag"),
    INVALID_TAG_NUMBER(0, false, "Invalid tag number"),
    TAG_WITHOUT_VALUE(4, false, "Tag specified without a value"),
    INCORRECT_DATA_FORMAT(6, false, "Incorrect data format for value"),
    INVALID_MSG_TYPE(11, false, "Invalid MsgType"),
    TAG_APPEARS_MORE_THAN_ONCE(13, false, "Tag appears more than once"),
    TAG_OUT_OF_ORDER(14, false, "Tag specified out of required order"),
    GROUP_FIELDS_OUT_OF_ORDER(15, false, "Repeating group fields out of order"),
    INCORRECT_NUM_IN_GROUP_COUNT(16, false, "Incorrect NumInGroup count for repeating group"),
    TOO_MANY_FIELDS(99, false, "Message has more fields than the gateway accepts"),
    GROUPS_NESTED_TOO_DEEP(99, false, "Repeating groups nested deeper than the gateway accepts");

    private final int sessionRejectReason;
    private final boolean framing;
    private final String text;

    FixError(final int sessionRejectReason, final boolean framing, final String text) {
        this.sessionRejectReason = sessionRejectReason;
        this.framing = framing;
        this.text = text;
    }

    /** @return the SessionRejectReason (373) for a Reject, or -1 if the message is not rejected but dropped. */
    public int sessionRejectReason() {
        return sessionRejectReason;
    }

    /** @return true if the stream lost its framing: skip to the next BeginString, or close before a Logon. */
    public boolean isFraming() {
        return framing;
    }

    /** @return the fixed text sent in Text (58). */
    public String text() {
        return text;
    }
}
