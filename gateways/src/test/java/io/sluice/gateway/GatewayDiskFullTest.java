package io.sluice.gateway;

import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.runtime.journal.JournalDiskFullException;
import io.sluice.testkit.Tmpfs;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A gateway whose journals' filesystem (a small tmpfs) fills up under it: it first goes on in its reserve, then
 * refuses new orders (each refusal with an ExecID of its own) and replaces with "journal disk full" while it still
 * takes cancels, and when the reserve is
 * down to its last eighth it logs its clients out saying so and stops with a {@link JournalDiskFullException}
 * naming the journal, never dying of a fault on a store.
 */
class GatewayDiskFullTest {
    private static final long RESERVE = 1L << 20;
    private static final int MAX_MESSAGES = 100_000;

    @TempDir
    Path dir;

    @Test
    void refusesOrdersThenLogsOutAndStopsWhileCancelsStillGoThrough() throws Exception {
        try (Tmpfs disk = Tmpfs.mount(dir.resolve("disk"), 8 * RESERVE)) {
            final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(disk.dir())
                    .listen("tcp://127.0.0.1:0").journalReserveBytes(RESERVE).diskWarningBytes(0)
                    .session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
            try (RunningGateway gateway = new RunningGateway(config);
                 TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
                client.logon("secret1");
                client.expect("A");
                disk.fill();

                int sent = 0;
                FixFields refusal = null;
                while (refusal == null) {
                    assertTrue(sent < MAX_MESSAGES, "no order refused after " + sent + " messages");
                    sent += cancels(client, sent, 100);
                    client.newOrder("N" + sent, "VOD.L", '1', 10, "100");
                    client.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, "T"));
                    final FixFields next = client.receive();
                    if ("8".equals(next.msgType())) {
                        refusal = next;
                        client.expect("0");
                    } else {
                        assertEquals("0", next.msgType(), next::toString);
                    }
                }
                assertEquals("journal disk full", refusal.get(FixTags.TEXT));
                assertEquals("8", refusal.get(FixTags.EXEC_TYPE));
                assertEquals("8", refusal.get(FixTags.ORD_STATUS));
                assertEquals("99", refusal.get(FixTags.ORD_REJ_REASON));
                assertEquals("N" + sent, refusal.get(FixTags.CL_ORD_ID));
                assertEquals("VOD.L", refusal.get(FixTags.SYMBOL));
                assertEquals("NONE", refusal.get(FixTags.ORDER_ID), "an order never accepted has no OrderID");
                client.newOrder("N" + sent + "b", "VOD.L", '1', 10, "100");
                final FixFields again = client.expect("8");
                assertEquals("journal disk full", again.get(FixTags.TEXT));
                assertTrue(refusal.get(FixTags.EXEC_ID).matches("G1-[0-9]+"), refusal::toString);
                assertTrue(again.get(FixTags.EXEC_ID).matches("G1-[0-9]+"), again::toString);
                assertNotEquals(refusal.get(FixTags.EXEC_ID), again.get(FixTags.EXEC_ID),
                        "every report the gateway makes itself has an ExecID of its own");

                client.send(MsgTypes.ORDER_CANCEL_REPLACE_REQUEST, replace -> replace
                        .textField(FixTags.ORIG_CL_ORD_ID, "N1").textField(FixTags.CL_ORD_ID, "R1")
                        .textField(FixTags.SYMBOL, "VOD.L").charField(FixTags.SIDE, '1')
                        .timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis())
                        .longField(FixTags.ORDER_QTY, 20).charField(FixTags.ORD_TYPE, '2').textField(FixTags.PRICE, "100"));
                final FixFields replaceRefused = client.expect("9");
                assertEquals("journal disk full", replaceRefused.get(FixTags.TEXT));
                assertEquals("2", replaceRefused.get(FixTags.CXL_REJ_RESPONSE_TO));
                assertEquals("R1", replaceRefused.get(FixTags.CL_ORD_ID));
                cancels(client, sent, 1);
                client.expectNothingElse(); // the cancel was taken, not refused

                FixFields logout = null;
                while (logout == null) {
                    assertTrue(sent < MAX_MESSAGES, "still running after " + sent + " messages");
                    sent += cancels(client, sent, 100);
                    client.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, "T"));
                    final FixFields next = client.receive();
                    if ("5".equals(next.msgType())) {
                        logout = next;
                    } else if (!"0".equals(next.msgType())) {
                        fail("expected a Heartbeat or the Logout, got " + next);
                    }
                }
                assertEquals("journal disk full", logout.get(FixTags.TEXT));
                final Throwable end = gateway.awaitEnd(30);
                assertInstanceOf(JournalDiskFullException.class, end, String.valueOf(end));
                final Path journals = Journals.gatewayJournal(disk.dir(), 1); // gateway-1, or gateway-1-out
                assertTrue(end.getMessage().startsWith("gateway 1 stopped, journal disk full: journal ")
                        && end.getMessage().contains(" bytes free on "), end.getMessage());
                assertTrue(end.getMessage().contains(journals.toString()), end.getMessage());
            }
        }
    }

    /** Sends {@code count} OrderCancelRequests of an order nobody knows; @return how many */
    private static int cancels(final TestFixClient client, final int from, final int count) throws Exception {
        for (int i = 1; i <= count; i++) {
            final String id = "C" + (from + i);
            client.send(MsgTypes.ORDER_CANCEL_REQUEST, cancel -> cancel.textField(FixTags.ORIG_CL_ORD_ID, "N1")
                    .textField(FixTags.CL_ORD_ID, id).textField(FixTags.SYMBOL, "VOD.L").charField(FixTags.SIDE, '1')
                    .timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis()));
        }
        return count;
    }
}
