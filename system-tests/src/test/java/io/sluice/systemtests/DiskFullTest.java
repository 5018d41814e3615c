package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.gateway.GatewayMain;
import io.sluice.gateway.codec.ShortText;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.testkit.Tmpfs;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceDeployment.JournalDisk;
import io.sluice.tools.fix.SluiceIdle;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.Account;
import quickfix.field.ClOrdID;
import quickfix.field.CxlRejResponseTo;
import quickfix.field.ExecID;
import quickfix.field.MsgType;
import quickfix.field.OrdStatus;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TestReqID;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReplaceRequest;
import quickfix.fix44.OrderCancelRequest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A full disk is an expected state: a real engine and gateway, as child processes, write their journals to a small
 * tmpfs that a file fills up, once while orders flow and once before anything starts. Expected: the gateway refuses
 * new orders and replaces with "journal disk full" (an ExecutionReport Rejected, each with an ExecID of its own, also
 * across a restart of the gateway; an OrderCancelReject) and still
 * takes cancels; the engine stops before writing, with exit code 4 and a message naming its journal and the free
 * space; nothing dies of SIGBUS; every process answers SIGTERM; and once space is freed and the engine restarted,
 * every order the gateway accepted is answered, in the engine journal and at the client. Skipped where a tmpfs
 * cannot be mounted.
 */
class DiskFullTest {
    private static final String PASSWORD = "secret";
    private static final String TEXT = "journal disk full";
    private static final long MIB = 1L << 20;
    /** The engine's reserve runs out before the gateway's half does, so both stops are seen in one flow. */
    private static final JournalDisk LIMITS = new JournalDisk(MIB, 4 * MIB, 24 * MIB);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int MAX_ORDERS = 60_000;
    private static final int SIGKILL_EXIT = 137;

    @TempDir
    Path dir;

    @Test
    void aDiskFilledDuringFlowRefusesOrdersStopsTheEngineCleanlyAndLosesNothing() throws Exception {
        final Path root = dir.resolve("sluice");
        try (Tmpfs disk = Tmpfs.mount(root.resolve("journals"), 32 * MIB)) {
            final SluiceDeployment sluice = SluiceDeployment.start(root, gateway("FLOW"), SluiceIdle.BACKOFF,
                    SluiceDeployment.ProcessSettings.defaults(), LIMITS);
            final List<Long> pids = new ArrayList<>(List.of(sluice.engine().pid(), sluice.gateway(1).pid()));
            try (QuickFixJClient client = new QuickFixJClient(sluice.endpoint(1), "FLOW",
                    SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj")).logOn()) {
                int sent = 0;
                while (sent < 100) {
                    client.send(buy("O" + ++sent));
                }
                awaitAnswered(client, sent, "the first 100 orders to be acknowledged");
                assertEquals(0, refused(client).size());

                disk.fill();
                final JavaProcess engine = sluice.engine();
                while (refused(client).isEmpty()) {
                    assertTrue(sent < MAX_ORDERS, "no order refused after " + sent + "; " + sluice.logs(3000));
                    for (int i = 0; i < 100; i++) {
                        client.send(buy("O" + ++sent));
                    }
                    gatewayCaughtUp(client, "T" + sent);
                }
                assertEquals(EngineMain.EXIT_DISK_FULL, engine.waitFor(TIMEOUT.toSeconds()), engine.logText());
                assertTrue(engine.logText().contains("engine stopped before writing, journal disk full: journal "
                        + root.resolve("journals/engine")) && engine.logText().contains(" bytes free on "),
                        engine.logText());
                assertTrue(sluice.gateway(1).isAlive(), sluice.logs(3000));
                assertTrue(sluice.gateway(1).logText().contains("disk space warning: journal "), sluice.logs(3000));
                final Message rejected = refused(client).getFirst();
                assertEquals(OrdStatus.REJECTED, rejected.getChar(OrdStatus.FIELD));
                assertEquals(quickfix.field.ExecType.REJECTED, rejected.getChar(quickfix.field.ExecType.FIELD));

                client.send(replace("R1", "O1"));
                final Message replaceRejected = client.await("the replace to be refused", message ->
                        QuickFixJClient.isType(message, MsgType.ORDER_CANCEL_REJECT)
                                && "R1".equals(QuickFixJClient.field(message, ClOrdID.FIELD)));
                assertEquals(TEXT, QuickFixJClient.text(replaceRejected));
                assertEquals(CxlRejResponseTo.ORDER_CANCEL_REPLACE_REQUEST,
                        replaceRejected.getChar(CxlRejResponseTo.FIELD));
                client.send(cancel("C2", "O2")); // taken: answered once the engine runs again

                // Restarted on the still-full disk, the engine stops again, cleanly, and the gateway comes back up
                // still refusing orders.
                final JavaProcess again = sluice.launchEngine();
                pids.add(again.pid());
                assertEquals(EngineMain.EXIT_DISK_FULL, again.waitFor(TIMEOUT.toSeconds()), again.logText());
                assertNotEquals(SIGKILL_EXIT, sluice.gateway(1).stop(10), "the gateway to answer SIGTERM");
                sluice.startGateway(1);
                pids.add(sluice.gateway(1).pid());
                client.awaitLoggedOn();
                final int refusedBefore = refused(client).size();
                client.send(buy("O" + ++sent));
                PollUntil.await(() -> refused(client).size() > refusedBefore, TIMEOUT,
                        () -> "an order to be refused by the restarted gateway; " + client.trafficText());

                disk.free();
                PollUntil.await(() -> sluice.gateway(1).logText().split("disk space reserved again", -1).length > 2,
                        TIMEOUT, () -> "the gateway to reserve space for both its journals; " + sluice.logs(3000));
                final JavaProcess restarted = sluice.launchEngine();
                pids.add(restarted.pid());
                assertTrue(restarted.isAlive(), restarted.logText());
                client.send(buy("O" + ++sent));
                final int orders = sent;
                awaitAnswered(client, orders, "every order answered once space is back");
                client.await("the cancel taken while the disk was full", report("C2", ExecType.CANCELED));

                final Set<String> refusalExecIds = new HashSet<>();
                for (final Message refusal : refused(client)) {
                    final String execId = QuickFixJClient.field(refusal, ExecID.FIELD);
                    assertTrue(execId.matches("G1-[0-9]+"), "a refusal's ExecID: " + execId);
                    assertTrue(refusalExecIds.add(execId), "ExecID " + execId + " given twice, before and after the"
                            + " gateway's restart: " + client.trafficText());
                }
                final Set<String> acknowledged = acknowledged(client);
                final Set<String> refusedIds = new HashSet<>();
                refused(client).forEach(message -> refusedIds.add(QuickFixJClient.field(message, ClOrdID.FIELD)));
                assertFalse(refusedIds.isEmpty());
                for (int i = 1; i <= orders; i++) {
                    final String id = "O" + i;
                    assertTrue(acknowledged.contains(id) != refusedIds.contains(id),
                            id + " is either acknowledged or refused, never both or neither");
                }
                assertTrue(acknowledged.contains("O" + orders), "orders are taken again once space is back");
                assertEquals(acknowledgedInEngineJournal(root.resolve("journals")), acknowledged,
                        "the engine journal holds an ack for every order acknowledged to the client, and no other");

                assertNotEquals(SIGKILL_EXIT, sluice.gateway(1).stop(10), "the gateway to answer SIGTERM");
                assertNotEquals(SIGKILL_EXIT, restarted.stop(10), "the engine to answer SIGTERM");
            } finally {
                sluice.close();
                assertNoCrash(sluice, pids);
            }
        }
    }

    @Test
    void startedOnAFullDiskEngineAndGatewayStopWithAMessageThenRunOnceSpaceIsFreed() throws Exception {
        final Path root = dir.resolve("sluice");
        final Path journals = root.resolve("journals");
        try (Tmpfs disk = Tmpfs.mount(journals, 16 * MIB)) {
            disk.fill();
            final SluiceDeployment sluice = SluiceDeployment.prepare(root, gateway("EARLY"), SluiceIdle.BACKOFF,
                    SluiceDeployment.ProcessSettings.defaults(), LIMITS);
            final List<Long> pids = new ArrayList<>();
            try {
                final JavaProcess gateway = sluice.launchGateway(1);
                pids.add(gateway.pid());
                assertEquals(GatewayMain.EXIT_DISK_FULL, gateway.waitFor(TIMEOUT.toSeconds()), gateway.logText());
                assertTrue(gateway.logText().contains(TEXT + ": cannot create journal " + journals.resolve("gateway-1"))
                        && gateway.logText().contains(" bytes free on "), gateway.logText());
                final JavaProcess engine = sluice.launchEngine();
                pids.add(engine.pid());
                assertEquals(EngineMain.EXIT_DISK_FULL, engine.waitFor(TIMEOUT.toSeconds()), engine.logText());
                assertTrue(engine.logText().contains(TEXT + ": cannot create journal " + journals.resolve("engine"))
                        && engine.logText().contains(" bytes free on "), engine.logText());

                disk.free();
                sluice.startGateway(1);
                pids.add(sluice.gateway(1).pid());
                final JavaProcess running = sluice.launchEngine();
                pids.add(running.pid());
                assertTrue(running.isAlive(), running.logText());
                try (QuickFixJClient client = new QuickFixJClient(sluice.endpoint(1), "EARLY",
                        SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj")).logOn()) {
                    client.send(buy("E1"));
                    client.await("the order to be acknowledged", report("E1", ExecType.NEW));
                }
                assertNotEquals(SIGKILL_EXIT, sluice.gateway(1).stop(10), "the gateway to answer SIGTERM");
                assertNotEquals(SIGKILL_EXIT, running.stop(10), "the engine to answer SIGTERM");
            } finally {
                sluice.close();
                assertNoCrash(sluice, pids);
            }
        }
    }

    private static List<SluiceDeployment.GatewaySpec> gateway(final String client) {
        return List.of(new SluiceDeployment.GatewaySpec(1, FixTransport.TCP,
                List.of(SessionIdentity.ofSluiceClient(client, PASSWORD))));
    }

    /** Waits for the Heartbeat answering a TestRequest: the gateway has handled everything sent before it. */
    private static void gatewayCaughtUp(final QuickFixJClient client, final String testReqId) {
        client.session().generateTestRequest(testReqId);
        client.awaitAdmin("the Heartbeat answering TestRequest " + testReqId, message ->
                QuickFixJClient.isType(message, MsgType.HEARTBEAT)
                        && testReqId.equals(QuickFixJClient.field(message, TestReqID.FIELD)));
    }

    /** Waits until each of O1..O{@code orders} has been acknowledged or refused. */
    private static void awaitAnswered(final QuickFixJClient client, final int orders, final String what) {
        PollUntil.await(() -> {
            final Set<String> answered = acknowledged(client);
            refused(client).forEach(message -> answered.add(QuickFixJClient.field(message, ClOrdID.FIELD)));
            for (int i = 1; i <= orders; i++) {
                if (!answered.contains("O" + i)) {
                    return false;
                }
            }
            return true;
        }, TIMEOUT, () -> what + "; " + client.trafficText());
    }

    private static Set<String> acknowledged(final QuickFixJClient client) {
        final Set<String> ids = new HashSet<>();
        client.applicationMessages().stream().filter(isExecType(quickfix.field.ExecType.NEW))
                .forEach(message -> ids.add(QuickFixJClient.field(message, ClOrdID.FIELD)));
        return ids;
    }

    private static List<Message> refused(final QuickFixJClient client) {
        return client.applicationMessages().stream()
                .filter(message -> QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)
                        && TEXT.equals(QuickFixJClient.text(message)))
                .toList();
    }

    private static Predicate<Message> isExecType(final char execType) {
        return message -> QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)
                && QuickFixJClient.field(message, quickfix.field.ExecType.FIELD).equals(String.valueOf(execType));
    }

    private static Predicate<Message> report(final String clOrdId, final ExecType execType) {
        return isExecType(execType.fixCode())
                .and(message -> clOrdId.equals(QuickFixJClient.field(message, ClOrdID.FIELD)));
    }

    /** @return the ClOrdIDs of every ack (ExecType New) the engine journal records */
    private static Set<String> acknowledgedInEngineJournal(final Path journals) {
        final Set<String> ids = new HashSet<>();
        try (ChronicleQueue journal = Journals.openReadOnly(Journals.engineJournal(journals));
             ExcerptTailer tailer = journal.createTailer()) {
            final MethodReader reader = tailer.methodReader(new NoOpEngineToGateway() {
                @Override
                public void executionReport(final ExecutionReport report) {
                    if (report.execType() == ExecType.NEW) {
                        ids.add(ShortText.toString(report.clOrdId()));
                    }
                }
            });
            while (reader.readOne()) {
                // collecting
            }
        }
        return ids;
    }

    /** No process died of a fault: no JVM crash log, no "unsafe memory access" error in any log. */
    private static void assertNoCrash(final SluiceDeployment sluice, final List<Long> pids) {
        for (final long pid : pids) {
            assertFalse(Files.exists(Path.of("hs_err_pid" + pid + ".log")), "a JVM crash log for pid " + pid);
        }
        final String logs = sluice.logs(Integer.MAX_VALUE);
        assertFalse(logs.contains("unsafe memory access") || logs.contains("SIGBUS"), logs);
    }

    private static NewOrderSingle buy(final String clOrdId) {
        final NewOrderSingle order = new NewOrderSingle(new ClOrdID(clOrdId), new Side(Side.BUY), now(),
                new OrdType(OrdType.LIMIT));
        order.set(new Account("ACC1"));
        order.set(new Symbol(SluiceDeployment.SYMBOL));
        order.set(new OrderQty(1));
        order.set(new Price(90));
        order.set(new TimeInForce(TimeInForce.DAY));
        return order;
    }

    private static OrderCancelReplaceRequest replace(final String clOrdId, final String origClOrdId) {
        final OrderCancelReplaceRequest replace = new OrderCancelReplaceRequest(new OrigClOrdID(origClOrdId),
                new ClOrdID(clOrdId), new Side(Side.BUY), now(), new OrdType(OrdType.LIMIT));
        replace.set(new Symbol(SluiceDeployment.SYMBOL));
        replace.set(new OrderQty(2));
        replace.set(new Price(91));
        return replace;
    }

    private static OrderCancelRequest cancel(final String clOrdId, final String origClOrdId) {
        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID(origClOrdId), new ClOrdID(clOrdId),
                new Side(Side.BUY), now());
        cancel.set(new Symbol(SluiceDeployment.SYMBOL));
        cancel.set(new OrderQty(1));
        return cancel;
    }

    private static TransactTime now() {
        return new TransactTime(LocalDateTime.now(ZoneOffset.UTC));
    }
}
