package io.sluice.gateway;

import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelCause;
import io.sluice.contracts.MassCancelScope;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.testkit.fix.TestFixClient;
import org.agrona.concurrent.EpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static io.sluice.contracts.EventFixtures.id;
import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cancel-on-disconnect on a real gateway, sockets and journals, its time moved by the test (the gateway's
 * {@link EpochClock} runs {@link #offset} ahead of the wall clock), so that a 30 s grace period passes at once and
 * nothing waits for it: CLIENT1 has it on, CLIENT2 does not and serves as the test's way to know the gateway went
 * round its loop (its orders are journaled after the clock moved).
 */
class CancelOnDisconnectTest {
    private static final int GATEWAY = 5;
    private static final long GRACE_MILLIS = 30_000;
    /** Longer than the 30 s grace, so that the gateway sends no heartbeat of its own when the clock moves past it. */
    private static final int HEART_BT_INT = 120;

    @TempDir
    Path root;

    private final AtomicLong offset = new AtomicLong();
    private final EpochClock clock = () -> System.currentTimeMillis() + offset.get();
    private RunningGateway gateway;
    private int ordersOfClient2;
    private long client2NextSeq = 1;

    private void start() throws Exception {
        gateway = new RunningGateway(new GatewayConfig().gatewayId(GATEWAY).journalRoot(root).listen("tcp://127.0.0.1:0")
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1")
                        .cancelOnDisconnect(new CancelOnDisconnectConfig(true, "30s")))
                .session(new SessionConfig("CLIENT2", "SLUICE", "secret2")), clock);
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private TestFixClient loggedOn(final String compId, final String password, final long nextSeq) throws Exception {
        final TestFixClient client = new TestFixClient(gateway.address(), compId, nextSeq);
        client.logon(password, HEART_BT_INT);
        client.expect("A");
        return client;
    }

    /** CLIENT2 sends an order and waits until it is journaled: the gateway has been round its loop since. */
    private void roundTheLoop() throws Exception {
        try (TestFixClient other = loggedOn("CLIENT2", "secret2", client2NextSeq)) {
            final int before = JournalProbe.commands(root, GATEWAY).size();
            other.newOrder("C2-" + ++ordersOfClient2, "VOD.L", '1', 100, "101");
            await("CLIENT2's order is journaled", () -> JournalProbe.commands(root, GATEWAY).size() == before + 1);
            other.send(MsgTypes.LOGOUT, logout -> { });
            other.expect("5");
            client2NextSeq = other.nextSeq();
        }
    }

    private long counter(final String metric, final String labelName, final String labelValue) {
        for (final CountersDirectory.ProcessCounters process : new CountersDirectory(root).read()) {
            if (!process.process().equals(GatewayCounters.processName(GATEWAY))) {
                continue;
            }
            for (final CountersDirectory.Counter counter : process.counters()) {
                final Map<String, String> labels = counter.label().labels();
                if (counter.label().metric().equals(metric) && "CLIENT1-SLUICE".equals(labels.get("session"))
                        && labelValue.equals(labels.get(labelName))) {
                    return counter.value();
                }
            }
        }
        return -1;
    }

    private List<MassCancel> cancels() {
        return JournalProbe.massCancels(root, GATEWAY);
    }

    @Test
    void aLostConnectionCancelsEveryRestingOrderOnceTheGracePeriodRunsOut() throws Exception {
        start();
        final TestFixClient client = loggedOn("CLIENT1", "secret1", 1);
        client.newOrder("ORD-1", "VOD.L", '1', 100, "101");
        await("the order is journaled", () -> JournalProbe.commands(root, GATEWAY).size() == 1);
        client.close(); // abruptly: no Logout
        await("the gateway saw the connection go", () ->
                counter("sluice_fix_disconnects_total", "reason", "connection_lost") == 1);
        roundTheLoop();
        assertTrue(cancels().isEmpty(), "nothing canceled within the grace period");

        offset.addAndGet(GRACE_MILLIS + 1_000);
        await("the cancel-on-disconnect is journaled", () -> cancels().size() == 1);
        final MassCancel cancel = cancels().get(0);
        assertEquals(id("CLIENT1"), cancel.session());
        assertEquals(MassCancelScope.ALL, cancel.scope());
        assertEquals(MassCancelCause.DISCONNECT, cancel.cause());
        assertEquals(0, cancel.clOrdId());
        assertNull(cancel.side());
        assertEquals(0, cancel.symbol());
        assertEquals(3, cancel.metaData().eventId(), "the gateway's gapless eventIds");
        assertEquals(0, cancel.metaData().fixReceived(), "no client message caused it");
        assertEquals(1, counter("sluice_fix_cancel_on_disconnect_total", "cause", "disconnect"));

        offset.addAndGet(GRACE_MILLIS + 1_000);
        roundTheLoop();
        assertEquals(1, cancels().size(), "written once");
    }

    @Test
    void aLogoutIsCanceledWithCauseLogout() throws Exception {
        start();
        try (TestFixClient client = loggedOn("CLIENT1", "secret1", 1)) {
            client.send(MsgTypes.LOGOUT, logout -> { });
            client.expect("5");
            client.expectClosed();
        }
        await("the gateway saw the Logout", () ->
                counter("sluice_fix_disconnects_total", "reason", "client_logout") == 1);
        offset.addAndGet(GRACE_MILLIS + 1_000);
        await("the cancel-on-disconnect is journaled", () -> cancels().size() == 1);
        assertEquals(MassCancelCause.LOGOUT, cancels().get(0).cause());
        assertEquals(1, counter("sluice_fix_cancel_on_disconnect_total", "cause", "logout"));
    }

    @Test
    void loggingOnAgainWithinTheGracePeriodCancelsNothing() throws Exception {
        start();
        final long nextSeq;
        try (TestFixClient client = loggedOn("CLIENT1", "secret1", 1)) {
            client.newOrder("ORD-1", "VOD.L", '1', 100, "101");
            await("the order is journaled", () -> JournalProbe.commands(root, GATEWAY).size() == 1);
            nextSeq = client.nextSeq();
        }
        await("the gateway saw the connection go", () ->
                counter("sluice_fix_disconnects_total", "reason", "connection_lost") == 1);
        try (TestFixClient again = loggedOn("CLIENT1", "secret1", nextSeq)) {
            offset.addAndGet(GRACE_MILLIS + 1_000);
            again.expectNothingElse(); // answered after the gateway's timers ran past the old deadline
            roundTheLoop();
            assertTrue(cancels().isEmpty(), "the client came back in time");
        }
    }

    @Test
    void afterARestartASessionThatWasLoggedOnIsCanceledOnceItsGracePeriodFromTheRestartRunsOut() throws Exception {
        start();
        final long nextSeq;
        final TestFixClient client = loggedOn("CLIENT1", "secret1", 1);
        client.newOrder("ORD-1", "VOD.L", '1', 100, "101");
        await("the order is journaled", () -> JournalProbe.commands(root, GATEWAY).size() == 1);
        nextSeq = client.nextSeq();
        gateway.close(); // the client still logged on: its journals say so, as after a kill -9
        client.close();

        start();
        roundTheLoop();
        assertTrue(cancels().isEmpty(), "the grace period starts at the restart");
        offset.addAndGet(GRACE_MILLIS + 1_000);
        await("the cancel-on-disconnect is journaled", () -> cancels().size() == 1);
        assertEquals(MassCancelCause.DISCONNECT, cancels().get(0).cause());
        gateway.close();

        start();
        offset.addAndGet(GRACE_MILLIS + 1_000);
        roundTheLoop();
        assertEquals(1, cancels().size(), "a cancel already journaled is not written again after a restart");
        try (TestFixClient back = loggedOn("CLIENT1", "secret1", nextSeq)) {
            back.expectNothingElse(); // no ResendRequest: the gateway's own command did not count as a client message
        }
    }
}
