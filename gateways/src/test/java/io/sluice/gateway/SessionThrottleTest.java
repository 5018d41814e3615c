package io.sluice.gateway;

import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The per-session inbound throttle, as a FIX client sees it on a real socket to a real gateway: a burst of orders in
 * one write, over the session's {@code maxMessagesPerSecond}; the first orders within the limit reach the command
 * journal, the rest never do. With {@code throttleAction: reject} each excess order gets a Business Message Reject
 * (35=j, 380=0, Text "Throttle limit exceeded...", RefSeqNum and BusinessRejectRefID naming it) and the session stays
 * logged on; with {@code logout} the first excess order gets a Logout with that Text and the rest get nothing.
 */
class SessionThrottleTest {
    private static final int GATEWAY = 4;
    private static final String TEXT = "Throttle limit exceeded: at most 10 application messages per second";

    @TempDir
    Path root;

    private GatewayConfig config() {
        return new GatewayConfig().gatewayId(GATEWAY).journalRoot(root).listen("tcp://127.0.0.1:0")
                .session(new SessionConfig("REJECTED", "SLUICE", "secret").throttle(10, InboundThrottle.Action.REJECT))
                .session(new SessionConfig("LOGGEDOUT", "SLUICE", "secret").throttle(10, InboundThrottle.Action.LOGOUT));
    }

    @Test
    void overTheLimitEachOrderGetsABusinessMessageRejectAndNeverReachesTheJournal() throws Exception {
        try (RunningGateway gateway = new RunningGateway(config());
             TestFixClient client = new TestFixClient(gateway.address(), "REJECTED", 1)) {
            client.logon("secret");
            client.expect("A");
            client.newOrders("F", 30);
            for (int i = 11; i <= 30; i++) {
                final FixFields reject = client.expect("j");
                assertEquals(Integer.toString(i + 1), reject.get(FixTags.REF_SEQ_NUM), reject.toString());
                assertEquals("D", reject.get(FixTags.REF_MSG_TYPE));
                assertEquals("F" + i, reject.get(FixTags.BUSINESS_REJECT_REF_ID));
                assertEquals("0", reject.get(FixTags.BUSINESS_REJECT_REASON));
                assertEquals(TEXT, reject.get(FixTags.TEXT));
            }
            client.expectNothingElse(); // still logged on, and nothing more was queued
            await("the ten orders within the limit are journaled", () -> JournalProbe.commands(root, GATEWAY).size() == 10);
            assertEquals(10, JournalProbe.commands(root, GATEWAY).size());
        }
    }

    @Test
    void withLogoutTheFirstOrderOverTheLimitLogsTheSessionOut() throws Exception {
        try (RunningGateway gateway = new RunningGateway(config());
             TestFixClient client = new TestFixClient(gateway.address(), "LOGGEDOUT", 1)) {
            client.logon("secret");
            client.expect("A");
            client.newOrders("F", 30);
            assertEquals(TEXT, client.expect("5").get(FixTags.TEXT));
            client.send(MsgTypes.LOGOUT, logout -> { });
            client.expectClosed();
            await("the ten orders within the limit are journaled", () -> JournalProbe.commands(root, GATEWAY).size() == 10);
            assertEquals(10, JournalProbe.commands(root, GATEWAY).size());
        }
    }
}
