package io.sluice.gateway.session;

/** SessionRejectReason (373) and BusinessRejectReason (380) values the gateway sends. */
public final class SessionRejectReason {
    public static final int REQUIRED_TAG_MISSING = 1;
    public static final int VALUE_IS_INCORRECT = 5;
    public static final int INCORRECT_DATA_FORMAT = 6;
    public static final int COMP_ID_PROBLEM = 9;
    public static final int SENDING_TIME_ACCURACY_PROBLEM = 10;
    public static final int INVALID_MSG_TYPE = 11;
    /** BusinessRejectReason: unsupported message type. */
    public static final int BUSINESS_UNSUPPORTED_MESSAGE_TYPE = 3;

    private SessionRejectReason() {
    }
}
