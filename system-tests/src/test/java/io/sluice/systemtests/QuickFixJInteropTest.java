package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.StandardOrders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.CumQty;
import quickfix.field.CxlRejReason;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.LastPx;
import quickfix.field.LastQty;
import quickfix.field.LeavesQty;
import quickfix.field.MsgType;
import quickfix.field.OrdRejReason;
import quickfix.field.OrdStatus;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.fix44.NewOrderSingle;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static io.sluice.systemtests.FixMessages.SYMBOL;
import static io.sluice.systemtests.FixMessages.buy;
import static io.sluice.systemtests.FixMessages.cancel;
import static io.sluice.systemtests.FixMessages.charField;
import static io.sluice.systemtests.FixMessages.clOrdId;
import static io.sluice.systemtests.FixMessages.order;
import static io.sluice.systemtests.FixMessages.replaceBuy;
import static io.sluice.systemtests.FixMessages.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sluice speaks FIX 4.4 with QuickFIX/J, a FIX engine nobody here wrote: a real engine and a real gateway run
 * as child processes on real journals, QuickFIX/J connects over TCP (it has no Unix domain socket transport)
 * and every exchange is checked as QuickFIX/J saw it. Each test uses a session of its own; sell liquidity
 * rests at 100.00 from a seeding session, so buys at 100.00 fill at once and buys at 90.00 rest.
 */
class QuickFixJInteropTest {
    private static final String PASSWORD = "secret";
    private static final List<String> CLIENTS = List.of("LOGON", "BADPW", "ORDERS", "CANCELS", "REPLACES",
            "REJECTS", "RECONNECT", "GAPS", "CRASH", "RESET", "RSTSELL");

    @TempDir
    static Path dir;
    private static SluiceDeployment sluice;
    private static LiquiditySeeder liquidity;

    @BeforeAll
    static void startEngineAndGateway() throws Exception {
        final List<SessionIdentity> sessions = new ArrayList<>();
        for (final String client : CLIENTS) {
            sessions.add(SessionIdentity.ofSluiceClient(client, PASSWORD));
        }
        final SessionIdentity seeder = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        sessions.add(seeder);
        sluice = SluiceDeployment.start(dir.resolve("sluice"),
                List.of(new SluiceDeployment.GatewaySpec(1, FixTransport.TCP, sessions)));
        liquidity = StandardOrders.seeder(new FixClientSession(gateway(), seeder));
        liquidity.start(QuickFixJClient.TIMEOUT);
    }

    @AfterAll
    static void stop() throws Exception {
        if (liquidity != null) {
            liquidity.close();
        }
        if (sluice != null) {
            sluice.close();
        }
    }

    @Test
    void logsOnWithItsPasswordAndLogsOutCleanly() throws Exception {
        try (QuickFixJClient client = client("LOGON").logOn()) {
            PollUntil.await(() -> client.logons() == 1, QuickFixJClient.TIMEOUT,
                    () -> "QuickFIX/J to report the Logon to its application; " + client.trafficText());
            client.session().logout("done for the day");
            PollUntil.await(() -> !client.isLoggedOn() && client.logouts() == 1, QuickFixJClient.TIMEOUT,
                    () -> "the gateway to answer the Logout; " + client.trafficText());
            client.awaitAdmin("the gateway's Logout", message -> QuickFixJClient.isType(message, MsgType.LOGOUT));
        }
    }

    @Test
    void aWrongPasswordIsRefusedWithTheLogoutEveryRefusedLogonGets() throws Exception {
        try (QuickFixJClient client = new QuickFixJClient(gateway(), "BADPW", SluiceDeployment.GATEWAY_COMP_ID,
                "not-the-password", dir.resolve("qfj-BADPW")).start()) {
            PollUntil.await(() -> client.traffic().stream().anyMatch(line -> line.startsWith("<- ")),
                    QuickFixJClient.TIMEOUT, () -> "an answer to the Logon; " + client.trafficText());
            final String answer = client.traffic().stream().filter(line -> line.startsWith("<- ")).findFirst()
                    .orElseThrow();
            assertTrue(answer.contains("\u000135=5\u0001"), "expected a Logout, got " + answer);
            assertTrue(answer.contains("\u000158=" + FixAcceptor.LOGON_REJECTED + "\u0001"),
                    "the Logout should say only that the Logon was rejected: " + answer);
            assertEquals(0, client.logons());
        }
    }

    @Test
    void aNewOrderIsAcknowledgedThenFilledAgainstRestingLiquidity() throws Exception {
        try (QuickFixJClient client = client("ORDERS").logOn()) {
            client.send(buy("B1", 10, 100));
            final Message ack = client.await("the ack of B1", report("B1", ExecType.NEW));
            final Message fill = client.await("the fill of B1", report("B1", ExecType.TRADE));
            assertTrue(client.applicationMessages().indexOf(ack) < client.applicationMessages().indexOf(fill),
                    "the ack comes before the fill");
            assertEquals(OrdStatus.FILLED, fill.getChar(OrdStatus.FIELD));
            assertEquals(10, fill.getDouble(LastQty.FIELD));
            assertEquals(100, fill.getDouble(LastPx.FIELD));
            assertEquals(10, fill.getDouble(CumQty.FIELD));
            assertEquals(0, fill.getDouble(LeavesQty.FIELD));
            assertEquals(SYMBOL, fill.getString(Symbol.FIELD));
        }
    }

    @Test
    void aRestingOrderIsCanceled() throws Exception {
        try (QuickFixJClient client = client("CANCELS").logOn()) {
            client.send(buy("R1", 10, 90));
            client.await("the ack of resting R1", report("R1", ExecType.NEW));
            client.send(cancel("X1", "R1", 10));
            final Message canceled = client.await("the cancel of R1", report("X1", ExecType.CANCELED));
            assertEquals("R1", canceled.getString(OrigClOrdID.FIELD));
            assertEquals(OrdStatus.CANCELED, canceled.getChar(OrdStatus.FIELD));
            assertEquals(0, canceled.getDouble(LeavesQty.FIELD));
        }
    }

    @Test
    void aRestingOrderIsReplacedWithANewPriceAndQuantity() throws Exception {
        try (QuickFixJClient client = client("REPLACES").logOn()) {
            client.send(buy("R2", 10, 90));
            client.await("the ack of resting R2", report("R2", ExecType.NEW));
            client.send(replaceBuy("Y2", "R2", 20, 91));
            final Message replaced = client.await("the replace of R2", report("Y2", ExecType.REPLACED));
            assertEquals("R2", replaced.getString(OrigClOrdID.FIELD));
            assertEquals(20, replaced.getDouble(OrderQty.FIELD));
            assertEquals(91, replaced.getDouble(Price.FIELD));
            assertEquals(20, replaced.getDouble(LeavesQty.FIELD));
        }
    }

    @Test
    void whatTheEngineCannotAcceptIsRejectedWithAReason() throws Exception {
        try (QuickFixJClient client = client("REJECTS").logOn()) {
            final NewOrderSingle unknownSymbol = buy("U1", 10, 100);
            unknownSymbol.set(new Symbol("NOPE"));
            client.send(unknownSymbol);
            final Message rejected = client.await("the reject of U1", report("U1", ExecType.REJECTED));
            assertEquals(OrdStatus.REJECTED, rejected.getChar(OrdStatus.FIELD));
            assertEquals(OrdRejReason.UNKNOWN_SYMBOL, rejected.getInt(OrdRejReason.FIELD));
            assertTrue(QuickFixJClient.text(rejected).contains("Unknown symbol"), QuickFixJClient.text(rejected));

            client.send(cancel("X2", "NEVER", 10));
            final Message cancelReject = client.await("the cancel reject of X2", message ->
                    QuickFixJClient.isType(message, MsgType.ORDER_CANCEL_REJECT) && clOrdId(message).equals("X2"));
            assertEquals(CxlRejReason.UNKNOWN_ORDER, cancelReject.getInt(CxlRejReason.FIELD));
            assertTrue(QuickFixJClient.text(cancelReject).startsWith("Unknown order"),
                    QuickFixJClient.text(cancelReject));
        }
    }

    @Test
    void aClientThatLogsOutAndBackOnContinuesItsSequenceNumbers() throws Exception {
        try (QuickFixJClient client = client("RECONNECT").logOn()) {
            client.send(buy("A1", 10, 100));
            client.await("the fill of A1", report("A1", ExecType.TRADE));
            client.session().logout();
            PollUntil.await(() -> !client.isLoggedOn() && client.logouts() == 1, QuickFixJClient.TIMEOUT,
                    client::trafficText);
            final int nextSender = client.session().getExpectedSenderNum();
            final int nextTarget = client.session().getExpectedTargetNum();

            client.session().logon();
            client.awaitLoggedOn();
            PollUntil.await(() -> client.session().getExpectedTargetNum() == nextTarget + 1, QuickFixJClient.TIMEOUT,
                    () -> "the gateway's Logon to take its next number " + nextTarget + " (no reset, no gap), but"
                            + " QuickFIX/J expects " + client.session().getExpectedTargetNum() + " next; "
                            + client.trafficText());
            assertEquals(nextSender + 1, client.session().getExpectedSenderNum(), "the Logon took the next number");
            client.send(buy("A2", 10, 100));
            client.await("the fill of A2", report("A2", ExecType.TRADE));
            assertExactlyOneAckAndFillEach(client, List.of("A1", "A2"));
        }
    }

    @Test
    void aGapInTheClientsSequenceIsFilledByQuickFixJWhenTheGatewayAsksForAResend() throws Exception {
        try (QuickFixJClient client = client("GAPS").logOn()) {
            client.send(buy("G1", 10, 100));
            client.await("the fill of G1", report("G1", ExecType.TRADE));
            client.session().setNextSenderMsgSeqNum(client.session().getExpectedSenderNum() + 5);
            client.send(buy("G2", 10, 100));
            client.awaitAdmin("the gateway's ResendRequest for the gap",
                    message -> QuickFixJClient.isType(message, MsgType.RESEND_REQUEST));
            client.await("the fill of G2 after the gap is filled", report("G2", ExecType.TRADE));
            assertTrue(client.isLoggedOn(), "the session survives the gap");
            client.send(buy("G3", 10, 100));
            client.await("the fill of G3", report("G3", ExecType.TRADE));
            assertExactlyOneAckAndFillEach(client, List.of("G1", "G2", "G3"));
        }
    }

    @Test
    void aClientThatResetsItsSequenceOnLogonStillGetsTheFillThatCameWhileItWasAway() throws Exception {
        try (QuickFixJClient client = new QuickFixJClient(gateway(), "RESET", SluiceDeployment.GATEWAY_COMP_ID,
                PASSWORD, dir.resolve("qfj-RESET"), true).logOn();
             QuickFixJClient seller = client("RSTSELL").logOn()) {
            client.send(buy("Z1", 10, 95));
            client.await("the ack of resting Z1", report("Z1", ExecType.NEW));
            client.session().logout();
            PollUntil.await(() -> !client.isLoggedOn() && client.logouts() == 1, QuickFixJClient.TIMEOUT,
                    client::trafficText);
            seller.send(order("S1", Side.SELL, 10, 95));
            seller.await("the fill of S1 against the resting Z1", report("S1", ExecType.TRADE));
            client.session().logon();
            client.awaitLoggedOn();
            client.await("the fill of Z1, which came while RESET was away, after a Logon with ResetSeqNumFlag",
                    report("Z1", ExecType.TRADE));
            assertExactlyOneAckAndFillEach(client, List.of("Z1"));
        }
    }

    @Test
    void aGatewayKilledWithSigkillAndRestartedLosesAndDuplicatesNoReport() throws Exception {
        final List<String> orders = Stream.iterate(1, i -> i + 1).limit(20).map(i -> "K" + i).toList();
        try (QuickFixJClient client = client("CRASH").logOn()) {
            for (final String order : orders) {
                client.send(buy(order, 10, 100));
            }
            sluice.killGateway(1);
            assertFalse(sluice.gateway(1).isAlive());
            sluice.startGateway(1);
            client.awaitLoggedOn();
            for (final String order : orders) {
                client.await("the fill of " + order + " after the restart", report(order, ExecType.TRADE));
            }
            assertExactlyOneAckAndFillEach(client, orders);
            client.send(buy("K21", 10, 100));
            client.await("the fill of K21", report("K21", ExecType.TRADE));
        }
    }

    private static void assertExactlyOneAckAndFillEach(final QuickFixJClient client, final List<String> clOrdIds) {
        final Set<String> execIds = new HashSet<>();
        for (final Message message : client.applicationMessages()) {
            if (QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)) {
                assertTrue(execIds.add(QuickFixJClient.field(message, ExecID.FIELD)), "ExecID delivered twice: " + message);
                assertTrue(charField(message, ExecType.FIELD) != ExecType.REJECTED, "unexpected reject: " + message);
            }
        }
        for (final String clOrdId : clOrdIds) {
            assertEquals(1, client.applicationMessages().stream().filter(report(clOrdId, ExecType.NEW)).count(),
                    "acks of " + clOrdId + "; " + client.trafficText());
            assertEquals(1, client.applicationMessages().stream().filter(report(clOrdId, ExecType.TRADE)).count(),
                    "fills of " + clOrdId + "; " + client.trafficText());
        }
    }

    private static QuickFixJClient client(final String compId) throws Exception {
        return new QuickFixJClient(gateway(), compId, SluiceDeployment.GATEWAY_COMP_ID, PASSWORD,
                dir.resolve("qfj-" + compId));
    }

    private static FixEndpoint gateway() {
        return sluice.endpoint(1);
    }

}
