package io.sluice.bench.replication;

import io.sluice.gateway.codec.FixMessage;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.OrderTerms;
import io.sluice.tools.fix.SluiceDeployment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Asks a primary whether it takes orders: one immediate-or-cancel buy on a logged-on FIX session, and that order's
 * first execution report. Against an empty book a primary that takes the order cancels its rest (ExecType 4); one that
 * does not rejects it (ExecType 8) and says why in Text (58).
 */
final class OrderProbe {
    private static final OrderTerms IOC_BUY = OrderTerms.of("ACC1", SluiceDeployment.SYMBOL, OrderTerms.BUY, 10, "100",
            OrderTerms.IMMEDIATE_OR_CANCEL);
    private static final int CL_ORD_ID = 11;
    private static final int EXEC_TYPE = 150;
    private static final int TEXT = 58;
    private static final char REJECTED = '8';

    /** An order's first answer: its ExecType (150) and Text (58, empty when absent). */
    record Answer(char execType, String text) {
        /** @return whether the primary took the order (anything but a reject) */
        boolean taken() {
            return execType != REJECTED;
        }
    }

    private OrderProbe() {
    }

    /**
     * Sends order {@code clOrdId} and blocks until its first execution report.
     *
     * @throws IOException if the gateway closes the connection first
     */
    static Answer ask(final FixClientSession session, final long clOrdId) throws IOException {
        final byte[] id = Long.toString(clOrdId).getBytes(StandardCharsets.US_ASCII);
        final Answer[] answer = new Answer[1];
        session.sendNewOrder(clOrdId, IOC_BUY);
        while (answer[0] == null) {
            final boolean open = session.poll((report, receivedNanos) -> {
                if (answer[0] == null && report.valueEquals(CL_ORD_ID, id)) {
                    answer[0] = new Answer((char) report.charValue(EXEC_TYPE), text(report));
                }
            });
            if (!open) {
                throw new IOException("the gateway closed the connection before order " + clOrdId + " was answered");
            }
        }
        return answer[0];
    }

    private static String text(final FixMessage report) {
        final int index = report.indexOf(TEXT);
        return index < 0 ? "" : report.buffer().getStringWithoutLengthAscii(report.valueOffset(index),
                report.valueLength(index));
    }
}
