package io.sluice.gateway;

import io.sluice.contracts.Delivery;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.sluice.contracts.EventFixtures.id;
import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway as a real child process, killed with SIGKILL mid-session and started again: sequence
 * numbers continue in both directions, command eventIds continue without a gap, and every report reaches
 * the client exactly once (the one written while the gateway was down through the resend protocol).
 */
class GatewayRestartTest {
    @TempDir
    Path dir;

    private static ExecutionReport report(final long execId) {
        final ExecutionReport report = EventFixtures.executionReport();
        report.execId(execId);
        report.gatewayId(1).session(id("CLIENT1"));
        return report;
    }

    @Test
    void afterKillNineNothingIsLostOrDuplicatedAndSequencesContinue() throws Exception {
        final OneSessionGateway gateway = new OneSessionGateway(dir);
        final Path root = gateway.journals();
        final List<String> execIds = new ArrayList<>();
        long clientNextSeq;
        long lastSeqFromGateway;
        try (ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root))) {
            final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);

            final JavaProcess first = gateway.start("gateway-first");
            try (TestFixClient client = gateway.connect(1)) {
                client.logon(OneSessionGateway.PASSWORD);
                client.expect("A");
                client.newOrder("ORD-1", "VOD.L", '1', 100, "101.25");
                await("the order is a command", () -> JournalProbe.commands(root, 1).size() == 1);
                engine.executionReport(report(1));
                final FixFields one = client.expect("8");
                execIds.add(one.get(FixTags.EXEC_ID));
                lastSeqFromGateway = one.seqNum();
                clientNextSeq = client.nextSeq();
                // A delivery record is journaled just after the write that sent its report returned (its fixSent is
                // that moment), so a kill in between loses that latency record, never the report: wait for it here,
                // so that the end can say exactly one record per report and no report delivered twice.
                await("report 1's delivery is journaled", () -> JournalProbe.deliveries(root, 1).size() == 1);
                first.kill9();
            }

            engine.executionReport(report(2));

            final JavaProcess second = gateway.start("gateway-second");
            try (TestFixClient client = gateway.connect(clientNextSeq)) {
                client.logon(OneSessionGateway.PASSWORD);
                final FixFields logon = client.expect("A");
                assertTrue(logon.seqNum() > lastSeqFromGateway, "the gateway's sequence continues: " + logon);
                if (logon.seqNum() > lastSeqFromGateway + 1) {
                    client.send(MsgTypes.RESEND_REQUEST, request -> request
                            .longField(FixTags.BEGIN_SEQ_NO, lastSeqFromGateway + 1).longField(FixTags.END_SEQ_NO, 0));
                }
                FixFields next = client.receive();
                while (!"8".equals(next.msgType())) {
                    assertEquals("4", next.msgType(), "only gap fills may come before the report: " + next);
                    next = client.receive();
                }
                execIds.add(next.get(FixTags.EXEC_ID));
                client.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, "END"));
                for (FixFields reply = client.receive(); !"END".equals(reply.get(FixTags.TEST_REQ_ID));
                     reply = client.receive()) {
                    assertTrue(!"8".equals(reply.msgType()), "a report came twice: " + reply);
                }

                client.newOrder("ORD-2", "VOD.L", '2', 100, "101.25");
                await("the second order is a command", () -> JournalProbe.commands(root, 1).size() == 2);
                client.expectNothingElse();
            } finally {
                second.stop(10);
            }
        }
        assertEquals(List.of("1", "2"), execIds);
        final List<String> commands = JournalProbe.commands(root, 1);
        assertTrue(commands.get(0).contains("eventId: 1") && commands.get(1).contains("eventId: 2"), commands::toString);
        final List<Delivery> deliveries = JournalProbe.deliveries(root, 1);
        assertEquals(List.of(1L, 2L), deliveries.stream().map(Delivery::execId).collect(Collectors.toList()),
                "one delivery record per report");
    }
}
