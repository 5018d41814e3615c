package io.sluice.gateway;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelCause;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MassCancelScope;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import static io.sluice.contracts.EventFixtures.id;
import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OrderMassCancelRequest (35=q) in and OrderMassCancelReport (35=r) out, on a real gateway, socket and journals, the
 * engine's side played by appending to the engine journal: what lands in the command journal for each
 * MassCancelRequestType (530), what the gateway answers by itself, and how the engine's reports are encoded.
 */
class MassCancelGatewayTest {
    private static final int GATEWAY = 4;

    @TempDir
    Path root;

    private RunningGateway gateway;
    private ChronicleQueue engineJournal;
    private TestFixClient client;

    @BeforeEach
    void start() throws Exception {
        gateway = new RunningGateway(new GatewayConfig().gatewayId(GATEWAY).journalRoot(root).listen("tcp://127.0.0.1:0")
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1")));
        engineJournal = Journals.open(Journals.engineJournal(root));
        client = new TestFixClient(gateway.address(), "CLIENT1", 1);
        client.logon("secret1");
        client.expect("A");
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        gateway.close();
        engineJournal.close();
    }

    private void massCancelRequest(final Consumer<FixEncoder> fields) throws Exception {
        client.send(MsgTypes.ORDER_MASS_CANCEL_REQUEST, request -> {
            fields.accept(request);
            request.timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis());
        });
    }

    private MassCancel onlyCommand() {
        await("the mass cancel is journaled", () -> JournalProbe.commands(root, GATEWAY).size() == 1);
        final List<MassCancel> cancels = JournalProbe.massCancels(root, GATEWAY);
        assertEquals(1, cancels.size(), JournalProbe.commands(root, GATEWAY)::toString);
        return cancels.get(0);
    }

    @Test
    void cancelAllOrdersOfOneSideIsJournaledWithTheClientsRouting() throws Exception {
        massCancelRequest(request -> request.textField(FixTags.ON_BEHALF_OF_COMP_ID, "DESK1")
                .textField(FixTags.CL_ORD_ID, "MC-1").charField(FixTags.MASS_CANCEL_REQUEST_TYPE, '7')
                .charField(FixTags.SIDE, '1'));
        final MassCancel cancel = onlyCommand();
        assertEquals(id("CLIENT1"), cancel.session());
        assertEquals(id("MC-1"), cancel.clOrdId());
        assertEquals(MassCancelScope.ALL, cancel.scope());
        assertEquals(0, cancel.symbol());
        assertEquals(Side.BUY, cancel.side());
        assertEquals(MassCancelCause.CLIENT_REQUEST, cancel.cause());
        assertEquals(id("DESK1"), cancel.onBehalfOfCompId());
        assertEquals(0, cancel.deliverToCompId());
        assertEquals(GATEWAY, cancel.metaData().sourceId());
        assertEquals(1, cancel.metaData().eventId());
        assertTrue(cancel.metaData().fixReceived() > 0, "stamped with when its FIX bytes arrived");
    }

    @Test
    void cancelOneSecuritysOrdersOfBothSides() throws Exception {
        massCancelRequest(request -> request.textField(FixTags.CL_ORD_ID, "MC-2")
                .charField(FixTags.MASS_CANCEL_REQUEST_TYPE, '1').textField(FixTags.SYMBOL, "VOD.L"));
        final MassCancel cancel = onlyCommand();
        assertEquals(MassCancelScope.SECURITY, cancel.scope());
        assertEquals(id("VOD.L"), cancel.symbol());
        assertNull(cancel.side());
    }

    @Test
    void oneSecurityWithoutASymbolIsRejectedNamingTag55AndNothingIsJournaled() throws Exception {
        massCancelRequest(request -> request.textField(FixTags.CL_ORD_ID, "MC-3")
                .charField(FixTags.MASS_CANCEL_REQUEST_TYPE, '1'));
        final FixFields reject = client.expect("3");
        assertEquals("1", reject.get(FixTags.SESSION_REJECT_REASON));
        assertEquals("55", reject.get(FixTags.REF_TAG_ID));
        assertEquals("q", reject.get(FixTags.REF_MSG_TYPE));
        massCancelRequest(request -> request.textField(FixTags.CL_ORD_ID, "MC-4")
                .charField(FixTags.MASS_CANCEL_REQUEST_TYPE, '7'));
        assertEquals(1, onlyCommand().metaData().eventId(), "the refused request took no eventId");
    }

    @Test
    void aRequestTypeSluiceDoesNotKeepGetsAMassCancelReportNotSupported() throws Exception {
        massCancelRequest(request -> request.textField(FixTags.DELIVER_TO_COMP_ID, "VENUE")
                .textField(FixTags.CL_ORD_ID, "MC-5").charField(FixTags.MASS_CANCEL_REQUEST_TYPE, '3'));
        final FixFields report = client.expect("r");
        assertEquals("MC-5", report.get(FixTags.CL_ORD_ID));
        assertEquals("NONE", report.get(FixTags.ORDER_ID));
        assertEquals("3", report.get(FixTags.MASS_CANCEL_REQUEST_TYPE));
        assertEquals("0", report.get(FixTags.MASS_CANCEL_RESPONSE), "cancel request rejected");
        assertEquals("0", report.get(FixTags.MASS_CANCEL_REJECT_REASON), "mass cancel not supported");
        assertEquals("0", report.get(FixTags.TOTAL_AFFECTED_ORDERS));
        assertEquals(MassCancelRefusals.TEXT, report.get(FixTags.TEXT));
        assertEquals("VENUE", report.get(FixTags.ON_BEHALF_OF_COMP_ID), "routed back");
        client.expectNothingElse();
        assertTrue(JournalProbe.commands(root, GATEWAY).isEmpty(), "nothing journaled");
    }

    @Test
    void aRequestTypeFix44DoesNotDefineIsASessionReject() throws Exception {
        massCancelRequest(request -> request.textField(FixTags.CL_ORD_ID, "MC-6")
                .charField(FixTags.MASS_CANCEL_REQUEST_TYPE, '9'));
        final FixFields reject = client.expect("3");
        assertEquals("5", reject.get(FixTags.SESSION_REJECT_REASON));
        assertEquals("530", reject.get(FixTags.REF_TAG_ID));
        client.expectNothingElse();
        assertTrue(JournalProbe.commands(root, GATEWAY).isEmpty(), "nothing journaled");
    }

    @Test
    void theEnginesCancelReportsAndMassCancelReportReachTheClient() throws Exception {
        final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);
        engine.executionReport(canceled(ExecType.CANCELED, OrdStatus.CANCELED));
        engine.massCancelReport(massCancelReport(MassCancelCause.CLIENT_REQUEST, RejectReason.NONE, 1));
        final FixFields canceled = client.expect("8");
        assertEquals("4", canceled.get(FixTags.EXEC_TYPE));
        assertEquals("4", canceled.get(FixTags.ORD_STATUS));
        assertEquals("0", canceled.get(FixTags.LEAVES_QTY));
        final FixFields report = client.expect("r");
        assertEquals("77", report.get(FixTags.ORDER_ID));
        assertEquals("MC-7", report.get(FixTags.CL_ORD_ID));
        assertEquals("1", report.get(FixTags.MASS_CANCEL_REQUEST_TYPE));
        assertEquals("1", report.get(FixTags.MASS_CANCEL_RESPONSE));
        assertFalse(report.has(FixTags.MASS_CANCEL_REJECT_REASON));
        assertEquals("1", report.get(FixTags.TOTAL_AFFECTED_ORDERS));
        assertEquals("VOD.L", report.get(FixTags.SYMBOL));
        assertEquals("2", report.get(FixTags.SIDE));
        assertEquals("DESK1", report.get(FixTags.DELIVER_TO_COMP_ID), "routed back as the request came");
        assertTrue(report.has(FixTags.TRANSACT_TIME));
        assertFalse(report.has(FixTags.TEXT));
    }

    @Test
    void aRefusedMassCancelIsReportedRejectedWithTheReason() throws Exception {
        final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);
        engine.massCancelReport(massCancelReport(MassCancelCause.CLIENT_REQUEST, RejectReason.UNKNOWN_SYMBOL, 0));
        final FixFields report = client.expect("r");
        assertEquals("1", report.get(FixTags.MASS_CANCEL_REQUEST_TYPE));
        assertEquals("0", report.get(FixTags.MASS_CANCEL_RESPONSE));
        assertEquals("1", report.get(FixTags.MASS_CANCEL_REJECT_REASON), "invalid or unknown security");
        assertEquals("0", report.get(FixTags.TOTAL_AFFECTED_ORDERS));
        assertEquals(RejectReason.UNKNOWN_SYMBOL.text(), report.get(FixTags.TEXT));
        assertEquals(99, ReportDelivery.massCancelRejectReason(RejectReason.KILL_SWITCH_ON), "any other: 99 Other");
    }

    @Test
    void theReportOfACancelOnDisconnectGoesToNoClientButItsCancelReportsDo() throws Exception {
        final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);
        engine.executionReport(canceled(ExecType.CANCELED, OrdStatus.CANCELED));
        engine.massCancelReport(massCancelReport(MassCancelCause.DISCONNECT, RejectReason.NONE, 1));
        engine.massCancelReport(massCancelReport(MassCancelCause.LOGOUT, RejectReason.NONE, 0));
        final ExecutionReport expired = canceled(ExecType.EXPIRED, OrdStatus.EXPIRED);
        expired.execId(9);
        engine.executionReport(expired);
        final long first = client.expect("8").seqNum();
        final FixFields after = client.expect("8");
        assertEquals(first + 1, after.seqNum(), "no message between: the two reports of cancel-on-disconnect were passed over");
        assertEquals("C", after.get(FixTags.EXEC_TYPE), "a DAY order's expiry");
        assertEquals("C", after.get(FixTags.ORD_STATUS));
        client.expectNothingElse();
    }

    @Test
    void aRestartInsideAnExcerptWithTheReportOfACancelOnDisconnectDeliversNothingTwice() throws Exception {
        final ExcerptAppender appender = engineJournal.createAppender();
        final EngineToGateway engine = Journals.methodWriter(appender, EngineToGateway.class);
        try (DocumentContext excerpt = appender.writingDocument()) {
            // One excerpt holds every report of one input; the report nobody is sent sits between two that are.
            engine.executionReport(canceled(ExecType.CANCELED, OrdStatus.CANCELED).execId(1));
            engine.massCancelReport(massCancelReport(MassCancelCause.DISCONNECT, RejectReason.NONE, 2));
            engine.executionReport(canceled(ExecType.CANCELED, OrdStatus.CANCELED).execId(2));
        }
        assertEquals("1", client.expect("8").get(FixTags.EXEC_ID));
        final FixFields second = client.expect("8");
        assertEquals("2", second.get(FixTags.EXEC_ID));
        client.expectNothingElse(); // its Heartbeat takes the number after the second report
        final long nextSeq = client.nextSeq();
        client.close();
        gateway.close();

        gateway = new RunningGateway(new GatewayConfig().gatewayId(GATEWAY).journalRoot(root).listen("tcp://127.0.0.1:0")
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1")));
        client = new TestFixClient(gateway.address(), "CLIENT1", nextSeq);
        client.logon("secret1");
        assertEquals(second.seqNum() + 2, client.expect("A").seqNum(), "no message stored again after the restart");
        client.expectNothingElse(); // and none sent again
    }

    private static ExecutionReport canceled(final ExecType execType, final OrdStatus status) {
        final ExecutionReport report = EventFixtures.executionReport();
        report.execType(execType).execId(8).lastQty(0).lastPx(0).leavesQty(0).timeInForce(TimeInForce.DAY);
        report.gatewayId(GATEWAY).session(id("CLIENT1")).ordStatus(status).origClOrdId(0);
        return report;
    }

    private static MassCancelReport massCancelReport(final MassCancelCause cause, final RejectReason reason,
                                                     final long affected) {
        final MassCancelReport report = new MassCancelReport().scope(MassCancelScope.SECURITY).symbol(id("VOD.L"))
                .side(Side.SELL).cause(cause).affectedOrders(affected);
        report.gatewayId(GATEWAY).session(id("CLIENT1")).orderId(77).clOrdId(id("MC-7")).origClOrdId(0)
                .ordStatus(null).rejectReason(reason).routing(id("DESK1"), 0);
        EventFixtures.metaData(report.metaData(), 9_000);
        return report;
    }
}
