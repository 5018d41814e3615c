package io.sluice.systemtests;

import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;
import io.sluice.tools.fix.Watchdog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sessions that misbehave don't hurt others: a real engine and gateway (child processes), one session trading
 * normally over a real socket while two others, throttled at 20 application messages a second, flood the gateway
 * with 500 orders in one burst each. The trader's orders are all filled; one flooder gets a Business Message Reject
 * (35=j, 380=0, "Throttle limit exceeded") for its excess, the other a Logout with that text.
 */
class InboundThrottleTest {
    private static final String PASSWORD = "secret";
    private static final int LIMIT = 20;
    /** Small enough that the rejects fit the session's send buffer while the flooder does not read yet. */
    private static final int FLOOD = 500;
    private static final int TRADER_ORDERS = 500;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void aFloodingSessionIsRejectedOrLoggedOutWhileAnotherTradesNormally() throws Exception {
        final SessionIdentity trader = SessionIdentity.ofSluiceClient("TRADER", PASSWORD);
        final SessionIdentity seeder = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        final SessionIdentity rejected = SessionIdentity.ofSluiceClient("FLOODREJ", PASSWORD);
        final SessionIdentity loggedOut = SessionIdentity.ofSluiceClient("FLOODOUT", PASSWORD);
        final SluiceDeployment.GatewaySpec gateway = new SluiceDeployment.GatewaySpec(1, FixTransport.TCP,
                List.of(trader, seeder, rejected, loggedOut), Map.of(
                "FLOODREJ", "maxMessagesPerSecond: " + LIMIT + ", throttleAction: reject",
                "FLOODOUT", "maxMessagesPerSecond: " + LIMIT + ", throttleAction: logout"));
        try (SluiceDeployment sluice = SluiceDeployment.start(dir.resolve("sluice"), List.of(gateway),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults());
             LiquiditySeeder liquidity = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seeder));
             FixClientSession traderSession = new FixClientSession(sluice.endpoint(1), trader);
             FixClientSession rejectSession = new FixClientSession(sluice.endpoint(1), rejected);
             FixClientSession logoutSession = new FixClientSession(sluice.endpoint(1), loggedOut);
             Watchdog ignored = Watchdog.closeAfter(TIMEOUT, traderSession);
             Watchdog ignored2 = Watchdog.closeAfter(TIMEOUT, rejectSession);
             Watchdog ignored3 = Watchdog.closeAfter(TIMEOUT, logoutSession)) {
            liquidity.start(TIMEOUT);
            traderSession.logon(TIMEOUT);
            rejectSession.logon(TIMEOUT);
            logoutSession.logon(TIMEOUT);
            for (int i = 1; i <= FLOOD; i++) {
                rejectSession.queueNewOrder(i, StandardOrders.BUY);
                logoutSession.queueNewOrder(i, StandardOrders.BUY);
            }
            rejectSession.flush();
            logoutSession.flush();

            final OrderLoad load = new OrderLoad(traderSession, StandardOrders.BUY, 1, 1, OrderLoad.newRecorder());
            assertTrue(load.run(TRADER_ORDERS, System.nanoTime() + TIMEOUT.toNanos()), sluice.logs(3_000));
            assertEquals(TRADER_ORDERS, load.filled(), "every order of the trader filled; " + sluice.logs(3_000));
            assertEquals(0, load.rejected());

            final String rejectText = drainUntilRefused(rejectSession);
            assertTrue(rejectText.contains("rejected message") && rejectText.contains(
                    "Throttle limit exceeded: at most 20 application messages per second"), rejectText);
            final String logoutText = drainUntilRefused(logoutSession);
            assertTrue(logoutText.contains("logged out by") && logoutText.contains("Throttle limit exceeded"),
                    logoutText);
        }
    }

    /** Reads the flooder's answers (acks and fills of the orders within the limit) until the refusal; @return it. */
    private static String drainUntilRefused(final FixClientSession session) {
        return assertThrows(IOException.class, () -> {
            while (session.poll((report, receivedNanos) -> { })) {
                // reports of the orders within the limit
            }
        }, "the flooder was neither rejected nor logged out").getMessage();
    }
}
