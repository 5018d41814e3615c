package io.sluice.gateway;

import io.sluice.contracts.CancelReject;
import io.sluice.contracts.CxlRejResponseTo;
import io.sluice.contracts.Delivery;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixBytes;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.codec.UtcTimestamp;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.contracts.EventFixtures.id;
import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real gateway on a real socket (TCP and Unix domain), real journals, and a raw FIX client: what a FIX
 * client sees, what lands in the command journal, and where the engine's reports go.
 */
class GatewaySocketTest {
    private static final int GATEWAY = 3;
    private static final int SEND_BUFFER = 16_384;

    @TempDir
    Path root;

    private RunningGateway gateway;
    private ChronicleQueue engineJournal;

    private void start(final String transport) throws Exception {
        start(transport, 10_000);
    }

    private void start(final String transport, final long logonTimeoutMillis) throws Exception {
        start(transport, logonTimeoutMillis, true);
    }

    private void start(final String transport, final long logonTimeoutMillis, final boolean counters) throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(GATEWAY).journalRoot(root).counters(counters)
                .logonTimeoutMillis(logonTimeoutMillis).sendBufferBytes(SEND_BUFFER).socketSendBufferBytes(SEND_BUFFER)
                .listen("tcp".equals(transport) ? "tcp://127.0.0.1:0" : "unix:" + root.resolve("gw.sock"))
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1"))
                .session(new SessionConfig("CLIENT2", "SLUICE", "secret2"));
        gateway = new RunningGateway(config);
        if (engineJournal == null) {
            engineJournal = Journals.open(Journals.engineJournal(root));
        }
    }

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        if (engineJournal != null) {
            engineJournal.close();
        }
    }

    private TestFixClient loggedOn(final String compId, final String password) throws Exception {
        final TestFixClient client = new TestFixClient(gateway.address(), compId, 1);
        client.logon(password);
        client.expect("A");
        return client;
    }

    private EngineToGateway engine() {
        return engineJournal.methodWriter(EngineToGateway.class);
    }

    private static ExecutionReport fill(final String session, final long execId) {
        final ExecutionReport report = EventFixtures.executionReport();
        report.execId(execId).execType(ExecType.TRADE);
        report.gatewayId(GATEWAY).session(id(session)).ordStatus(OrdStatus.PARTIALLY_FILLED);
        return report;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void aClientLogsOnAndHeartbeats(final String transport) throws Exception {
        start(transport);
        try (TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            client.logon("secret1");
            final FixFields logon = client.expect("A");
            assertEquals("30", logon.get(FixTags.HEART_BT_INT));
            assertEquals("CLIENT1", logon.get(FixTags.TARGET_COMP_ID));
            client.expectNothingElse();
            client.send(MsgTypes.LOGOUT, logout -> { });
            client.expect("5");
            client.expectClosed();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void aBadPasswordIsLoggedOut(final String transport) throws Exception {
        start(transport);
        try (TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            client.logon("secret2");
            assertEquals(FixAcceptor.LOGON_REJECTED, client.expect("5").get(FixTags.TEXT));
            client.expectClosed();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void anUnknownCompIdIsLoggedOut(final String transport) throws Exception {
        start(transport);
        try (TestFixClient client = new TestFixClient(gateway.address(), "INTRUDER", 1)) {
            client.logon("secret1");
            assertEquals(FixAcceptor.LOGON_REJECTED, client.expect("5").get(FixTags.TEXT));
            client.expectClosed();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void aConnectionThatDoesNotLogOnInTimeIsClosed(final String transport) throws Exception {
        start(transport, 200);
        try (TestFixClient silent = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            silent.expectClosed();
        }
        try (TestFixClient client = loggedOn("CLIENT1", "secret1")) {
            client.expectNothingElse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void aGarbledFrameIsLoggedOutAndAMalformedMessageRejected(final String transport) throws Exception {
        start(transport);
        try (TestFixClient client = loggedOn("CLIENT1", "secret1")) {
            client.sendRaw(FixBytes.frame("35=D|49=CLIENT1|56=SLUICE|34=2|52="
                    + utcNow() + "|11=A|5x5=VOD|"));
            final FixFields reject = client.expect("3");
            assertEquals("0", reject.get(FixTags.SESSION_REJECT_REASON));
            assertEquals("2", reject.get(FixTags.REF_SEQ_NUM));
            client.sendRaw("8=FIX.4.2|9=5|35=0|10=000|");
            assertTrue(client.expect("5").get(FixTags.TEXT).contains("BeginString"));
            client.expectClosed();
        }
        try (TestFixClient other = loggedOn("CLIENT2", "secret2")) {
            other.expectNothingElse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void ordersBecomeCommandsInTheGatewayJournal(final String transport) throws Exception {
        start(transport);
        try (TestFixClient client = loggedOn("CLIENT1", "secret1")) {
            client.newOrder("ORD-1", "VOD.L", '1', 100, "101.25");
            client.send(MsgTypes.ORDER_CANCEL_REPLACE_REQUEST, replace -> replace
                    .textField(FixTags.ORIG_CL_ORD_ID, "ORD-1").textField(FixTags.CL_ORD_ID, "ORD-2")
                    .textField(FixTags.SYMBOL, "VOD.L").charField(FixTags.SIDE, '1')
                    .timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis())
                    .longField(FixTags.ORDER_QTY, 50).charField(FixTags.ORD_TYPE, '2').textField(FixTags.PRICE, "101.5"));
            client.send(MsgTypes.ORDER_CANCEL_REQUEST, cancel -> cancel
                    .textField(FixTags.ORIG_CL_ORD_ID, "ORD-2").textField(FixTags.CL_ORD_ID, "ORD-3")
                    .textField(FixTags.SYMBOL, "VOD.L").charField(FixTags.SIDE, '1')
                    .timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis()));
            await("three commands are in the journal", () -> JournalProbe.commands(root, GATEWAY).size() == 3);
            final List<String> commands = JournalProbe.commands(root, GATEWAY);
            assertTrue(commands.get(0).contains("clOrdId: ORD-1"), commands.get(0));
            assertTrue(commands.get(0).contains("price: 101.25"), commands.get(0));
            assertTrue(commands.get(0).contains("orderQty: 100"), commands.get(0));
            assertTrue(commands.get(0).contains("session: CLIENT1"), commands.get(0));
            assertTrue(commands.get(0).contains("sourceId: 3"), commands.get(0));
            assertTrue(commands.get(0).contains("eventId: 1"), commands.get(0));
            assertFalse(commands.get(0).contains("fixReceived: 0"), commands.get(0));
            assertFalse(commands.get(0).contains("commandWriting: 0"), commands.get(0));
            assertTrue(commands.get(1).startsWith("!io.sluice.contracts.ReplaceOrder"), commands.get(1));
            assertTrue(commands.get(1).contains("origClOrdId: ORD-1"), commands.get(1));
            assertTrue(commands.get(1).contains("eventId: 2"), commands.get(1));
            assertTrue(commands.get(2).startsWith("!io.sluice.contracts.CancelOrder"), commands.get(2));
            assertTrue(commands.get(2).contains("eventId: 3"), commands.get(2));

            client.send(MsgTypes.NEW_ORDER_SINGLE, order -> order.textField(FixTags.CL_ORD_ID, "ORD-4")
                    .charField(FixTags.SIDE, '1').timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis())
                    .longField(FixTags.ORDER_QTY, 1).charField(FixTags.ORD_TYPE, '1'));
            final FixFields missingSymbol = client.expect("3");
            assertEquals("55", missingSymbol.get(FixTags.REF_TAG_ID));
            assertEquals("1", missingSymbol.get(FixTags.SESSION_REJECT_REASON));
            client.send(MsgTypes.NEW_ORDER_SINGLE, order -> order.textField(FixTags.CL_ORD_ID, "MUCH-TOO-LONG-ID")
                    .textField(FixTags.SYMBOL, "VOD.L").charField(FixTags.SIDE, '1')
                    .timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis())
                    .longField(FixTags.ORDER_QTY, 1).charField(FixTags.ORD_TYPE, '1'));
            final FixFields badId = client.expect("3");
            assertEquals("11", badId.get(FixTags.REF_TAG_ID));
            assertEquals("5", badId.get(FixTags.SESSION_REJECT_REASON));
            // ListStatusRequest: valid FIX 4.4 (ListID is all it needs), not a message the gateway takes.
            client.send('M', list -> list.textField(66, "L1"));
            assertEquals("3", client.expect("j").get(FixTags.BUSINESS_REJECT_REASON));
            client.expectNothingElse();
            assertEquals(3, JournalProbe.commands(root, GATEWAY).size(), "refused messages write no command");
        }
    }

    @Test
    void withCountersOffOrdersAndReportsStillFlowAndNoCountersFileIsKept() throws Exception {
        final Path countersFile = CountersFile.path(root, "gateway-" + GATEWAY);
        start("tcp", 10_000, false);
        try (TestFixClient client = loggedOn("CLIENT1", "secret1")) {
            client.newOrder("ORD-1", "VOD.L", '1', 100, "101.25");
            await("the command is in the journal", () -> JournalProbe.commands(root, GATEWAY).size() == 1);
            engine().executionReport(fill("CLIENT1", 7));
            assertEquals("7", client.expect("8").get(FixTags.EXEC_ID));
        }
        assertFalse(Files.exists(countersFile), "no counters file with counters: false");
        gateway.close();
        start("tcp", 10_000, true);
        assertTrue(Files.exists(countersFile), "counters on by default: " + countersFile);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void reportsGoToTheOwningSessionOnly(final String transport) throws Exception {
        start(transport);
        try (TestFixClient one = loggedOn("CLIENT1", "secret1"); TestFixClient two = loggedOn("CLIENT2", "secret2")) {
            final EngineToGateway engine = engine();
            final ExecutionReport elsewhere = fill("CLIENT1", 99);
            elsewhere.gatewayId(GATEWAY + 1);
            engine.executionReport(elsewhere);
            engine.executionReport(fill("CLIENT1", 7));
            final CancelReject reject = EventFixtures.cancelReject();
            reject.responseTo(CxlRejResponseTo.ORDER_CANCEL_REQUEST);
            reject.gatewayId(GATEWAY).session(id("CLIENT2")).ordStatus(OrdStatus.REJECTED)
                    .rejectReason(RejectReason.UNKNOWN_ORDER);
            engine.cancelReject(reject);

            final FixFields report = one.expect("8");
            assertEquals("7", report.get(FixTags.EXEC_ID));
            assertEquals("F", report.get(FixTags.EXEC_TYPE));
            assertEquals("1", report.get(FixTags.ORD_STATUS));
            assertEquals("ORD-000002", report.get(FixTags.CL_ORD_ID));
            assertEquals("ORD-000001", report.get(FixTags.ORIG_CL_ORD_ID));
            assertEquals("42", report.get(FixTags.ORDER_ID));
            assertEquals("VOD.L", report.get(FixTags.SYMBOL));
            assertEquals("400", report.get(FixTags.LAST_QTY));
            assertEquals("100", report.get(FixTags.LAST_PX));
            assertEquals("100.33333333", report.get(FixTags.AVG_PX));
            assertEquals("400", report.get(FixTags.LEAVES_QTY));
            assertEquals("600", report.get(FixTags.CUM_QTY));
            one.expectNothingElse();

            final FixFields cancelReject = two.expect("9");
            assertEquals("NONE", cancelReject.get(FixTags.ORDER_ID));
            assertEquals("C-9", cancelReject.get(FixTags.CL_ORD_ID));
            assertEquals("1", cancelReject.get(FixTags.CXL_REJ_REASON));
            assertEquals("1", cancelReject.get(FixTags.CXL_REJ_RESPONSE_TO));
            assertEquals(RejectReason.UNKNOWN_ORDER.text(), cancelReject.get(FixTags.TEXT));
            two.expectNothingElse();

            // A delivery is journaled once the socket write that carried its report has returned: just after.
            JournalProbe.await("both deliveries journaled", () -> JournalProbe.deliveries(root, GATEWAY).size() == 2);
            final List<Delivery> deliveries = JournalProbe.deliveries(root, GATEWAY);
            assertEquals(2, deliveries.size());
            assertEquals(7, deliveries.get(0).execId());
            assertEquals(id("CLIENT1"), deliveries.get(0).session());
            assertTrue(deliveries.get(0).metaData().gatewayRead() > 0);
            assertTrue(deliveries.get(0).metaData().fixSent() >= deliveries.get(0).metaData().gatewayRead());
            assertEquals(4_004, deliveries.get(0).metaData().reportWriting(), "the report's own MetaData is kept");
            assertEquals(id("CLIENT2"), deliveries.get(1).session());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void anOfflineSessionGetsItsReportsWhenItLogsOnAgain(final String transport) throws Exception {
        start(transport);
        long nextSeq;
        try (TestFixClient client = loggedOn("CLIENT1", "secret1")) {
            client.send(MsgTypes.LOGOUT, logout -> { });
            client.expect("5");
            client.expectClosed();
            nextSeq = client.nextSeq();
        }
        engine().executionReport(fill("CLIENT1", 11));
        engine().executionReport(fill("CLIENT1", 12));
        await("both reports are stored for the offline session", () -> JournalProbe.deliveries(root, GATEWAY).size() == 2);
        try (TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", nextSeq)) {
            client.logon("secret1");
            final FixFields logon = client.expect("A");
            assertEquals(5, logon.seqNum(), "Logon 1, Logout 2, two reports 3 and 4 while offline");
            client.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 3)
                    .longField(FixTags.END_SEQ_NO, 0));
            final FixFields first = client.expect("8");
            assertEquals("11", first.get(FixTags.EXEC_ID));
            assertEquals("Y", first.get(FixTags.POSS_DUP_FLAG));
            assertEquals(3, first.seqNum());
            assertEquals("12", client.expect("8").get(FixTags.EXEC_ID));
            assertEquals("6", client.expect("4").get(FixTags.NEW_SEQ_NO), "the Logon (5) is gap-filled");
            client.expectNothingElse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "unix"})
    void aClientThatStopsReadingIsLoggedOutWithoutStallingOthersAndLosesNothing(final String transport)
            throws Exception {
        start(transport);
        final int reports = 6_000;
        final List<String> execIds = new ArrayList<>();
        long lastSeq;
        long nextSeq;
        try (TestFixClient slow = loggedOn("CLIENT1", "secret1"); TestFixClient other = loggedOn("CLIENT2", "secret2")) {
            final EngineToGateway engine = engine();
            for (int i = 1; i <= reports; i++) {
                engine.executionReport(fill("CLIENT1", i));
            }
            engine.executionReport(fill("CLIENT2", 1_000_000));
            assertEquals("1000000", other.expect("8").get(FixTags.EXEC_ID), "the other session is served meanwhile");
            other.expectNothingElse();
            await("every report is stored", () -> JournalProbe.deliveries(root, GATEWAY).size() == reports + 1);
            FixFields next = slow.receive();
            lastSeq = 1;
            while ("8".equals(next.msgType())) {
                execIds.add(next.get(FixTags.EXEC_ID));
                lastSeq = next.seqNum();
                next = slow.receive();
            }
            assertEquals("5", next.msgType(), next::toString);
            assertTrue(next.get(FixTags.TEXT).startsWith("Client is not reading fast enough"), next::toString);
            slow.expectClosed();
            assertTrue(execIds.size() < reports, "the slow client was cut off before the end: " + execIds.size());
            nextSeq = slow.nextSeq();
        }
        try (TestFixClient back = new TestFixClient(gateway.address(), "CLIENT1", nextSeq)) {
            back.logon("secret1");
            back.expect("A");
            final long from = lastSeq + 1;
            back.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, from)
                    .longField(FixTags.END_SEQ_NO, 0));
            while (execIds.size() < reports) {
                final FixFields next = back.receive();
                if ("8".equals(next.msgType())) {
                    execIds.add(next.get(FixTags.EXEC_ID));
                } else {
                    assertEquals("4", next.msgType(), next::toString);
                }
            }
            assertEquals("Y", back.expect("4").get(FixTags.GAP_FILL_FLAG), "the Logon ends the resend as a gap fill");
            back.expectNothingElse();
        }
        for (int i = 0; i < reports; i++) {
            assertEquals(Integer.toString(i + 1), execIds.get(i), "reports in order, none lost or repeated");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"unix"})
    void aCommandWrittenJustBeforeACrashStillCountsTheClientMessageItCameFrom(final String transport) throws Exception {
        start(transport);
        try (TestFixClient client = loggedOn("CLIENT1", "secret1")) {
            client.newOrder("ORD-1", "VOD.L", '1', 100, "101.25");
            await("the order is a command", () -> JournalProbe.commands(root, GATEWAY).size() == 1);
            client.send(MsgTypes.LOGOUT, logout -> { });
            client.expect("5");
        }
        gateway.close();
        gateway = null;
        // As if the gateway died after writing the command for the client's message 4 but before recording
        // that message 4 was processed: the command is in the journal, the session's progress says 4 is next.
        try (ChronicleQueue commands = Journals.open(Journals.gatewayJournal(root, GATEWAY))) {
            final NewOrder order = EventFixtures.newOrder();
            order.metaData().sourceId(GATEWAY).eventId(2);
            order.session(id("CLIENT1"));
            commands.methodWriter(GatewayToEngine.class).newOrder(order);
        }
        start(transport);
        try (TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 5)) {
            client.logon("secret1");
            client.expect("A");
            client.expectNothingElse();
            client.newOrder("ORD-3", "VOD.L", '1', 100, "101.25");
            await("the next order is a command", () -> JournalProbe.commands(root, GATEWAY).size() == 3);
            assertTrue(JournalProbe.commands(root, GATEWAY).get(2).contains("eventId: 3"));
        }
    }

    private static String utcNow() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);
        UtcTimestamp.encode(System.currentTimeMillis(), buffer, 0);
        return buffer.getStringWithoutLengthAscii(0, UtcTimestamp.LENGTH);
    }
}
