package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.ExecType;
import quickfix.field.MassCancelRequestType;
import quickfix.field.MassCancelResponse;
import quickfix.field.MsgType;
import quickfix.field.OrdStatus;
import quickfix.field.PossDupFlag;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TotalAffectedOrders;
import quickfix.fix44.OrderMassCancelRequest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.sluice.systemtests.FixMessages.SYMBOL;
import static io.sluice.systemtests.FixMessages.buy;
import static io.sluice.systemtests.FixMessages.clOrdId;
import static io.sluice.systemtests.FixMessages.now;
import static io.sluice.systemtests.FixMessages.order;
import static io.sluice.systemtests.FixMessages.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mass cancel and cancel-on-disconnect as QuickFIX/J sees them, through a real engine and gateway (child processes)
 * on real journals: OrderMassCancelRequest (35=q) by instrument and side, then of all orders, answered with the
 * individual cancel reports (150=4) and an OrderMassCancelReport (35=r) that QuickFIX/J's FIX 4.4 dictionary accepts;
 * a QuickFIX/J client in a child process killed with SIGKILL, its resting orders canceled once its grace period ran
 * out and the cancel reports resent to it at its next logon; and the gateway killed with SIGKILL under a logged-on
 * session, which is canceled once its grace period from the restart runs out. Resting buys are at 5.00 and up, sells
 * at 950.00: nothing in this deployment trades.
 */
class MassCancelQuickFixJTest {
    private static final String PASSWORD = "secret";
    private static final Duration CANCELED = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static SluiceDeployment sluice;

    @BeforeAll
    static void startEngineAndGateway() throws Exception {
        final List<SessionIdentity> sessions = List.of(SessionIdentity.ofSluiceClient("MASSQ", PASSWORD),
                SessionIdentity.ofSluiceClient("CODKILL", PASSWORD), SessionIdentity.ofSluiceClient("CODGW", PASSWORD));
        sluice = SluiceDeployment.start(dir.resolve("sluice"), List.of(new SluiceDeployment.GatewaySpec(1,
                FixTransport.TCP, sessions, Map.of(
                "CODKILL", "cancelOnDisconnect: { enabled: true, gracePeriod: 1s }",
                "CODGW", "cancelOnDisconnect: { enabled: true, gracePeriod: 2s }"))));
    }

    @AfterAll
    static void stop() throws Exception {
        if (sluice != null) {
            sluice.close();
        }
    }

    @Test
    void quickFixJCancelsOneInstrumentsBuysThenEverythingElse() throws Exception {
        try (QuickFixJClient client = client("MASSQ").logOn()) {
            client.send(buy("M1", 10, 5));
            client.send(buy("M2", 10, 6));
            client.send(order("M3", Side.SELL, 10, 950));
            for (final String order : List.of("M1", "M2", "M3")) {
                client.await("the ack of " + order, report(order, ExecType.NEW));
            }

            final OrderMassCancelRequest buys = new OrderMassCancelRequest(new ClOrdID("Q1"),
                    new MassCancelRequestType(MassCancelRequestType.CANCEL_ORDERS_FOR_A_SECURITY), now());
            buys.set(new Symbol(SYMBOL));
            buys.set(new Side(Side.BUY));
            client.send(buys);
            final Message first = client.await("the report of Q1", massCancelReport("Q1"));
            assertEquals(MassCancelResponse.CANCEL_ORDERS_FOR_A_SECURITY, first.getChar(MassCancelResponse.FIELD));
            assertEquals(2, first.getInt(TotalAffectedOrders.FIELD));
            assertEquals(SYMBOL, first.getString(Symbol.FIELD));
            assertEquals(Side.BUY, first.getChar(Side.FIELD));
            for (final String order : List.of("M1", "M2")) {
                final Message canceled = client.await("the cancel of " + order, report(order, ExecType.CANCELED));
                assertEquals(OrdStatus.CANCELED, canceled.getChar(OrdStatus.FIELD));
                assertTrue(client.applicationMessages().indexOf(canceled) < client.applicationMessages().indexOf(first),
                        "each cancel report comes before the mass cancel report");
            }
            assertFalse(client.applicationMessages().stream().anyMatch(report("M3", ExecType.CANCELED)), "the sell rests");

            client.send(new OrderMassCancelRequest(new ClOrdID("Q2"),
                    new MassCancelRequestType(MassCancelRequestType.CANCEL_ALL_ORDERS), now()));
            final Message all = client.await("the report of Q2", massCancelReport("Q2"));
            assertEquals(MassCancelResponse.CANCEL_ALL_ORDERS, all.getChar(MassCancelResponse.FIELD));
            assertEquals(1, all.getInt(TotalAffectedOrders.FIELD));
            client.await("the cancel of M3", report("M3", ExecType.CANCELED));
            assertTrue(client.isLoggedOn(), "QuickFIX/J took every message: " + client.trafficText());
        }
    }

    @Test
    void aClientKilledWithOrdersRestingHasThemCanceledAndGetsTheReportsAtItsNextLogon() throws Exception {
        final Path store = dir.resolve("qfj-CODKILL");
        final FixEndpoint gateway = sluice.endpoint(1);
        final JavaProcess child = JavaProcess.start("qfj-client", dir.resolve("qfj-client.log"), List.of("-Xmx128m"),
                RestingOrdersClientMain.class, gateway.host(), Integer.toString(gateway.port()), "CODKILL", PASSWORD,
                store.toString(), "K1,K2");
        try {
            PollUntil.await(() -> child.logText().contains(RestingOrdersClientMain.READY) || !child.isAlive(),
                    CANCELED, () -> "the client's orders to rest; its log: " + child.logText());
            assertTrue(child.isAlive(), child::logText);
            child.kill9();
        } finally {
            child.close();
        }
        PollUntil.await(() -> sluice.gateway(1).logText().contains("CODKILL cancel-on-disconnect"), CANCELED,
                () -> "the gateway to cancel CODKILL's orders; " + sluice.logs(3_000));
        try (QuickFixJClient client = client("CODKILL").logOn()) {
            for (final String order : List.of("K1", "K2")) {
                final Message canceled = client.await("the cancel report of " + order + ", resent at the logon",
                        report(order, ExecType.CANCELED));
                assertTrue(canceled.getHeader().getBoolean(PossDupFlag.FIELD), "through the resend protocol");
            }
            assertFalse(client.applicationMessages().stream().anyMatch(message ->
                    QuickFixJClient.isType(message, MsgType.ORDER_MASS_CANCEL_REPORT)), "no report of a request it never sent");
        }
    }

    @Test
    void aSessionLoggedOnWhenTheGatewayIsKilledIsCanceledOnceItsGracePeriodFromTheRestartRunsOut() throws Exception {
        try (QuickFixJClient client = client("CODGW").logOn()) {
            client.send(buy("G1", 10, 7));
            client.await("the ack of G1", report("G1", ExecType.NEW));
            sluice.killGateway(1);
        }
        sluice.startGateway(1);
        PollUntil.await(() -> sluice.gateway(1).logText().contains("CODGW cancel-on-disconnect"), CANCELED,
                () -> "the restarted gateway to cancel CODGW's orders; " + sluice.logs(3_000));
        try (QuickFixJClient client = client("CODGW").logOn()) {
            final Message canceled = client.await("the cancel report of G1, resent at the logon",
                    report("G1", ExecType.CANCELED));
            assertEquals(OrdStatus.CANCELED, canceled.getChar(OrdStatus.FIELD));
            assertEquals(1, client.applicationMessages().stream().filter(report("G1", ExecType.CANCELED)).count());
            assertEquals(1, sluice.gateway(1).logText().split("CODGW cancel-on-disconnect", -1).length - 1,
                    "canceled once: " + sluice.gateway(1).logText());
        }
    }

    private static Predicate<Message> massCancelReport(final String clOrdId) {
        return message -> QuickFixJClient.isType(message, MsgType.ORDER_MASS_CANCEL_REPORT)
                && clOrdId.equals(clOrdId(message));
    }

    private static QuickFixJClient client(final String compId) throws Exception {
        return new QuickFixJClient(sluice.endpoint(1), compId, SluiceDeployment.GATEWAY_COMP_ID, PASSWORD,
                dir.resolve("qfj-" + compId));
    }
}
