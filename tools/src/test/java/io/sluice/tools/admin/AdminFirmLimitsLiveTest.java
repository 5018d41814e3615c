package io.sluice.tools.admin;

import io.sluice.engine.risk.FirmCounters;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.OrderTerms;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.Watchdog;
import io.sluice.tools.metrics.MetricsMain;
import io.sluice.tools.metrics.PrometheusText;
import io.sluice.tools.stat.CountersTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.sluice.tools.admin.AdminLiveTest.PASSWORD;
import static io.sluice.tools.admin.AdminLiveTest.TIMEOUT;
import static io.sluice.tools.admin.AdminLiveTest.admin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Firm limits with real processes: one firm (ACME, maxOpenOrders 2) trading on two gateways, its limit shared across
 * them. The third open order is rejected with Text naming the limit and its value; {@code ./sluice admin limits}
 * shows the limit and its use, {@code ./sluice stat} and a scrape of {@code ./sluice metrics} the firm's counters;
 * {@code admin limit} raises it live; bad
 * values, unknown limits and unknown firms are refused; the firm's and one session's kill switch cancel what rests
 * and refuse new orders until turned off.
 */
class AdminFirmLimitsLiveTest {
    private static final OrderTerms BID = OrderTerms.of("ACC1", SluiceDeployment.SYMBOL, OrderTerms.BUY, 10, "90",
            OrderTerms.DAY);

    @TempDir
    Path dir;

    @Test
    void aFirmsLimitsHoldAcrossGatewaysAndChangeLiveByAdminCommand() throws Exception {
        final SessionIdentity one = SessionIdentity.ofSluiceClient("TRADER1", PASSWORD);
        final SessionIdentity two = SessionIdentity.ofSluiceClient("TRADER2", PASSWORD);
        try (SluiceDeployment sluice = SluiceDeployment.prepare(dir.resolve("sluice"), List.of(
                        new SluiceDeployment.GatewaySpec(1, FixTransport.TCP, List.of(one), Map.of("TRADER1", "firm: ACME")),
                        new SluiceDeployment.GatewaySpec(2, FixTransport.TCP, List.of(two), Map.of("TRADER2", "firm: ACME"))),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS)
                .engineSettings("restartFromSnapshots: false, risk: { firms: [ { firm: ACME, maxOpenOrders: 2 } ] }")) {
            sluice.startGateway(1);
            sluice.startGateway(2);
            assertTrue(sluice.launchEngine().isAlive(), () -> sluice.logs(3_000));
            final Path root = sluice.journals();
            try (FixClientSession trader1 = new FixClientSession(sluice.endpoint(1), one);
                 FixClientSession trader2 = new FixClientSession(sluice.endpoint(2), two);
                 Watchdog watch1 = Watchdog.closeAfter(TIMEOUT, trader1);
                 Watchdog watch2 = Watchdog.closeAfter(TIMEOUT, trader2)) {
                trader1.logon(TIMEOUT);
                trader2.logon(TIMEOUT);
                final AdminLiveTest.Run idle = admin(root, "limits", "ACME");
                assertEquals(0, idle.exit(), idle::toString);
                assertTrue(idle.out().startsWith("firm ACME (engine running): kill switch off, limit rejects 0\n"),
                        idle::toString);
                assertTrue(idle.out().matches("(?s).*\n  maxOpenOrders +2  0 open\n.*"), idle::toString);

                trader1.sendNewOrder(1, BID);
                assertEquals("0", awaitReport(trader1, "1").execType());
                trader2.sendNewOrder(2, BID);
                assertEquals("0", awaitReport(trader2, "2").execType());
                trader2.sendNewOrder(3, BID);
                final Report rejected = awaitReport(trader2, "3");
                assertEquals("8", rejected.execType());
                assertEquals("Firm limit maxOpenOrders reached: 2", rejected.text());

                // The engine publishes its counters after the turn that wrote the reject: the report may arrive first.
                PollUntil.await(() -> admin(root, "limits", "ACME").out().matches(
                        "(?s).*kill switch off, limit rejects 1\n.*\n  maxOpenOrders +2  2 open\n.*"), TIMEOUT,
                        () -> "admin limits ACME shows the reject and 2 open orders: " + admin(root, "limits", "ACME"));
                final String stat = CountersTable.render(root.toString(), new CountersDirectory(root).read());
                assertTrue(stat.matches("(?s).*\n  sluice_engine_firm_open_orders firm=ACME +2\n.*"), stat);
                assertTrue(stat.matches("(?s).*\n  sluice_engine_firm_limit firm=ACME limit=maxOpenOrders +2\n.*"), stat);
                try (JavaProcess metrics = JavaProcess.start("metrics", dir.resolve("metrics.log"), List.of(),
                        MetricsMain.class, "--root", root.toString(), "--port", "0")) {
                    final PrometheusText.Scrape scrape = PrometheusText.parse(PrometheusText.fetch(
                            PrometheusText.awaitPort(metrics, TIMEOUT)));
                    assertEquals(2, scrape.value(FirmCounters.OPEN_ORDERS, "process", "engine", "firm", "ACME"));
                    assertEquals(2, scrape.value(FirmCounters.LIMIT, "process", "engine", "firm", "ACME", "limit",
                            "maxOpenOrders"));
                    assertEquals(1800, scrape.value(FirmCounters.OPEN_NOTIONAL, "process", "engine", "firm", "ACME",
                            "side", "buy"), "two bids of 10 at 90");
                    assertEquals(0, scrape.value(FirmCounters.POSITION, "process", "engine", "firm", "ACME",
                            "instrument", SluiceDeployment.SYMBOL));
                    assertEquals(1, scrape.value(FirmCounters.LIMIT_REJECTS, "process", "engine", "firm", "ACME"));
                }

                assertEquals(new AdminLiveTest.Run(0, "acknowledged: firm ACME maxOpenOrders 3 from its next order on\n",
                        ""), admin(root, "limit", "ACME", "maxOpenOrders", "3"));
                trader2.sendNewOrder(4, BID);
                assertEquals("0", awaitReport(trader2, "4").execType());

                final AdminLiveTest.Run negative = admin(root, "limit", "ACME", "maxOpenOrders", "-1");
                assertEquals(new AdminLiveTest.Run(AdminMain.EXIT_BAD_INPUT, "", "admin: maxOpenOrders must be a whole "
                        + "number from 0 to 268435456, or none; got '-1'\n"), negative);
                final AdminLiveTest.Run absurd = admin(root, "limit", "ACME", "priceCollar", "20000");
                assertEquals(AdminMain.EXIT_BAD_INPUT, absurd.exit(), absurd::toString);
                assertTrue(absurd.err().contains("priceCollar must be a number of basis points from 0 to 10000"),
                        absurd::toString);
                final AdminLiveTest.Run unknownLimit = admin(root, "limit", "ACME", "maxFun", "1");
                assertEquals(AdminMain.EXIT_BAD_INPUT, unknownLimit.exit(), unknownLimit::toString);
                assertTrue(unknownLimit.err().startsWith("admin: no limit 'maxFun': the limits are maxOpenOrders, "),
                        unknownLimit::toString);
                assertEquals(new AdminLiveTest.Run(AdminMain.EXIT_REFUSED, "refused: no such firm: neither in the "
                        + "engine's risk config nor seen in an order\n", ""),
                        admin(root, "limit", "NOBODY", "maxOpenOrders", "1"));
                final AdminLiveTest.Run noFirm = admin(root, "limits", "NOBODY");
                assertEquals(new AdminLiveTest.Run(AdminMain.EXIT_BAD_INPUT, "", "admin: the engine has no firm NOBODY "
                        + "(firms: [ACME])\n"), noFirm);

                assertEquals(new AdminLiveTest.Run(0, "acknowledged: kill switch on for firm ACME, 3 orders canceled; "
                        + "its new orders are rejected until kill-switch off --firm ACME\n", ""),
                        admin(root, "kill-switch", "on", "--firm", "ACME"));
                trader1.sendNewOrder(5, BID);
                final Report killed = awaitReport(trader1, "5");
                assertEquals("Trading is stopped for the firm: its kill switch is on", killed.text());
                PollUntil.await(() -> admin(root, "limits", "ACME").out().contains("kill switch on"), TIMEOUT,
                        () -> "admin limits ACME shows the kill switch on: " + admin(root, "limits", "ACME"));
                assertEquals(new AdminLiveTest.Run(AdminMain.EXIT_REFUSED, "refused: the firm's kill switch is already "
                        + "on\n", ""), admin(root, "kill-switch", "on", "--firm", "ACME"));
                assertEquals(new AdminLiveTest.Run(0, "acknowledged: kill switch off for firm ACME, its orders accepted\n",
                        ""), admin(root, "kill-switch", "off", "--firm", "ACME"));

                trader1.sendNewOrder(6, BID);
                assertEquals("0", awaitReport(trader1, "6").execType());
                assertEquals(new AdminLiveTest.Run(0, "acknowledged: kill switch on for session 1:TRADER1, 1 order "
                        + "canceled; its new orders are rejected until kill-switch off --session 1:TRADER1\n", ""),
                        admin(root, "kill-switch", "on", "--session", "1:TRADER1"));
                trader1.sendNewOrder(7, BID);
                assertEquals("Trading is stopped for the session: its kill switch is on",
                        awaitReport(trader1, "7").text());
                trader2.sendNewOrder(8, BID);
                assertEquals("0", awaitReport(trader2, "8").execType(), "the firm's other session trades on");
                assertEquals(new AdminLiveTest.Run(0, "acknowledged: kill switch off for session 1:TRADER1, its orders "
                        + "accepted\n", ""), admin(root, "kill-switch", "off", "--session", "1:TRADER1"));
            }
        }
    }

    /** An execution report's ExecType (150) and Text (58). */
    private record Report(String execType, String text) {
    }

    /** Reads execution reports until the one for {@code clOrdId} that is not a cancel of an earlier order. */
    private static Report awaitReport(final FixClientSession session, final String clOrdId) throws IOException {
        final Report[] found = new Report[1];
        while (found[0] == null) {
            if (!session.poll((message, receivedNanos) -> {
                if (clOrdId.equals(text(message, 11))) {
                    found[0] = new Report(text(message, 150), text(message, 58));
                }
            })) {
                throw new IOException("the gateway closed the connection before the report of " + clOrdId);
            }
        }
        return found[0];
    }

    private static String text(final FixMessage message, final int tag) {
        final int i = message.indexOf(tag);
        return i < 0 ? null : message.buffer().getStringWithoutLengthAscii(message.valueOffset(i), message.valueLength(i));
    }
}
