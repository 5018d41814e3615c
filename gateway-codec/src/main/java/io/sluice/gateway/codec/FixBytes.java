package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * FIX in pipe notation ('|' for SOH), as tests and {@code .fix} scripts write it, turned into buffers and frames.
 * It lives beside the codec, not in the testkit, because the codec's own tests use it too.
 */
public final class FixBytes {
    private FixBytes() {
    }

    public static UnsafeBuffer buffer(final String pipeDelimited) {
        return new UnsafeBuffer(pipeDelimited.replace('|', '\u0001').getBytes(StandardCharsets.ISO_8859_1));
    }

    /** @return {@code 8=FIX.4.4|9=<n>|<body>10=<sum>|} with correct BodyLength and CheckSum. */
    public static String frame(final String pipeBody) {
        final String head = "8=FIX.4.4|9=" + pipeBody.length() + "|" + pipeBody;
        return head + "10=" + String.format("%03d", checksum(head)) + "|";
    }

    /** @return the FIX CheckSum of the text, each '|' counted as the SOH it stands for. */
    public static int checksum(final String pipeDelimited) {
        int sum = 0;
        for (final char c : pipeDelimited.replace('|', '\u0001').toCharArray()) {
            sum += c;
        }
        return sum & 0xFF;
    }

    public static String text(final DirectBuffer buffer, final int offset, final int length) {
        return buffer.getStringWithoutLengthAscii(offset, length).replace('\u0001', '|');
    }
}
