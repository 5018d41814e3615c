package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;

/**
 * FIX MsgType (35) values packed into an int, one byte per character, first character lowest, so that
 * message types compare and switch without strings. One- and two-character types are the FIX 4.4 range.
 */
public final class MsgTypes {
    public static final int HEARTBEAT = '0';
    public static final int TEST_REQUEST = '1';
    public static final int RESEND_REQUEST = '2';
    public static final int REJECT = '3';
    public static final int SEQUENCE_RESET = '4';
    public static final int LOGOUT = '5';
    public static final int EXECUTION_REPORT = '8';
    public static final int ORDER_CANCEL_REJECT = '9';
    public static final int LOGON = 'A';
    public static final int NEW_ORDER_SINGLE = 'D';
    public static final int ORDER_CANCEL_REQUEST = 'F';
    public static final int ORDER_CANCEL_REPLACE_REQUEST = 'G';
    public static final int MARKET_DATA_REQUEST = 'V';
    public static final int MARKET_DATA_SNAPSHOT_FULL_REFRESH = 'W';
    public static final int MARKET_DATA_INCREMENTAL_REFRESH = 'X';
    public static final int MARKET_DATA_REQUEST_REJECT = 'Y';
    public static final int SECURITY_STATUS = 'f';
    public static final int BUSINESS_MESSAGE_REJECT = 'j';
    public static final int ORDER_MASS_CANCEL_REQUEST = 'q';
    public static final int ORDER_MASS_CANCEL_REPORT = 'r';
    /** Longest MsgType the codec accepts, in characters. */
    public static final int MAX_LENGTH = 3;
    /** Returned by {@link #pack} for a value that is not a valid MsgType. */
    public static final int INVALID = 0;

    private MsgTypes() {
    }

    /** @return true for the session-level (administrative) message types of FIX 4.4. */
    public static boolean isAdmin(final int msgType) {
        return msgType == HEARTBEAT || msgType == TEST_REQUEST || msgType == RESEND_REQUEST
                || msgType == REJECT || msgType == SEQUENCE_RESET || msgType == LOGOUT || msgType == LOGON;
    }

    /** @return the packed MsgType of the bytes, or {@link #INVALID} if empty, too long or not printable. */
    public static int pack(final DirectBuffer buffer, final int offset, final int length) {
        if (length < 1 || length > MAX_LENGTH) {
            return INVALID;
        }
        int packed = 0;
        for (int i = 0; i < length; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b <= ' ' || b > '~') {
                return INVALID;
            }
            packed |= (b & 0xFF) << (8 * i);
        }
        return packed;
    }

    /** @return how many characters the packed MsgType has. */
    public static int length(final int msgType) {
        return msgType > 0xFFFF ? 3 : msgType > 0xFF ? 2 : 1;
    }
}
