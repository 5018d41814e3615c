package io.sluice.tools.fix;

import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;

import java.nio.charset.StandardCharsets;

/** Reads the few execution report fields the load client acts on from a parsed {@link FixMessage}. */
public final class ExecutionReportFields {
    private ExecutionReportFields() {
    }

    /** @return ClOrdID (11) read as a decimal number (the load client's ClOrdIDs are), or a negative value. */
    public static long clOrdId(final FixMessage report) {
        return report.unsignedValue(FixTags.CL_ORD_ID);
    }

    /** @return OrdStatus (39), or a negative value if absent or not one character. */
    public static long ordStatus(final FixMessage report) {
        return report.charValue(FixTags.ORD_STATUS);
    }

    /** @return true if OrdStatus says the order is done: filled, canceled, rejected or expired. */
    public static boolean orderDone(final long ordStatus) {
        return ordStatus == '2' || ordStatus == '4' || ordStatus == '8' || ordStatus == 'C';
    }

    /** @return Text (58), or "": for error messages only, it allocates. */
    public static String text(final FixMessage message) {
        final int index = message.indexOf(FixTags.TEXT);
        if (index < 0) {
            return "";
        }
        final byte[] bytes = new byte[message.valueLength(index)];
        message.buffer().getBytes(message.valueOffset(index), bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
