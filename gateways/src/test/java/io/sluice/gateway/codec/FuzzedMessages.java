package io.sluice.gateway.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;

import java.nio.charset.StandardCharsets;

/**
 * Builds FIX-shaped messages from fuzzer data, usually framed correctly so that the fuzzer's effort reaches the parser
 * and the session layer. MsgTypes, tags and values are drawn from the ones the gateway cares about (header, order,
 * session, repeating group and length-prefixed data fields) mixed with arbitrary text, rather than stopping at the
 * CheckSum. Useful even without coverage feedback.
 */
public final class FuzzedMessages {
    private static final String[] MSG_TYPES = {"0", "1", "2", "3", "4", "5", "A", "D", "F", "G", "j", "8", "Z", "AE", "ABCD"};
    private static final int[] TAGS = {8, 9, 10, 34, 35, 43, 49, 52, 56, 122, 1, 11, 38, 40, 41, 44, 54, 55, 58, 59, 60,
            7, 16, 36, 123, 112, 141, 98, 108, 553, 554, 453, 448, 447, 452, 802, 523, 803, 78, 79, 95, 96, 5000, 0};
    private static final String[] VALUES = {"CLIENT1", "SLUICE", "1", "2", "0", "Y", "N", "100", "101.25", "-1",
            "99999999999999999999", "20261122-10:00:00.000", "secret", "VOD.L", "ORD-000001", "", "=", "\u0001", "2.",
            "0000000000", "3", "30"};

    private FuzzedMessages() {
    }

    /** @return a message body from {@code 35=} up to (not including) CheckSum, '|' not used: real SOH bytes. */
    public static String body(final FuzzedDataProvider data, final String sender, final long seqNum,
                              final String sendingTime) {
        final StringBuilder body = new StringBuilder();
        body.append("35=").append(data.pickValue(MSG_TYPES)).append('\u0001');
        if (data.consumeBoolean()) {
            body.append("49=").append(sender).append("\u000156=SLUICE\u000134=").append(seqNum)
                    .append("\u000152=").append(sendingTime).append('\u0001');
        }
        final int fields = data.consumeInt(0, 40);
        for (int i = 0; i < fields; i++) {
            body.append(data.consumeBoolean() ? data.pickValue(TAGS) : data.consumeInt(0, 99_999)).append('=');
            body.append(data.consumeBoolean() ? data.pickValue(VALUES) : data.consumeAsciiString(24));
            body.append('\u0001');
        }
        return body.toString();
    }

    /** @return the body framed: BeginString, BodyLength, CheckSum, each corrupted now and then. */
    public static byte[] frame(final FuzzedDataProvider data, final String body) {
        final int bodyLength = body.length() + (data.consumeInt(0, 15) == 0 ? data.consumeInt(-3, 3) : 0);
        final String head = (data.consumeInt(0, 31) == 0 ? "8=FIX.4.2" : "8=FIX.4.4") + "\u00019=" + bodyLength
                + "\u0001" + body;
        int sum = 0;
        for (int i = 0; i < head.length(); i++) {
            sum += (byte) head.charAt(i);
        }
        final int checksum = (sum & 0xFF) + (data.consumeInt(0, 15) == 0 ? 1 : 0);
        return (head + "10=" + String.format("%03d", checksum % 1000) + "\u0001")
                .getBytes(StandardCharsets.ISO_8859_1);
    }
}
