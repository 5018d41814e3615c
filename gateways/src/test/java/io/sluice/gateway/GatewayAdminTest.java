package io.sluice.gateway;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.AdminRefusal;
import io.sluice.contracts.AdminResult;
import io.sluice.contracts.NoOpGatewayRecords;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.contracts.EventFixtures.id;
import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway's admin commands, on a real gateway process: commands appended to the admin journal as
 * {@code ./sluice admin} appends them, answered in the gateway's own journal. A disconnect logs the client out with
 * the reason and closes; set-seq on an offline session is what the next Logon sees; an unknown session, a connected
 * one (for set-seq), an offline one (for disconnect) and a bad sequence number are refused; another gateway's command
 * is left alone; after a kill -9 and restart no command is carried out twice. A start on an admin journal that others
 * could write is refused.
 */
class GatewayAdminTest {
    @TempDir
    Path dir;

    @Test
    void disconnectAndSetSequenceAreCarriedOutOnceAndBadOnesRefused() throws Exception {
        final OneSessionGateway gateway = new OneSessionGateway(dir);
        final Path root = gateway.journals();
        final long setSender = 50;
        final long setTarget = 70;
        long clientNextSeq;
        long gatewayLastSeq;
        final JavaProcess first = gateway.start("gateway-first");
        try (AdminJournal admin = AdminJournal.open(root, SystemNanoClock.INSTANCE);
             TestFixClient client = gateway.connect(1)) {
            client.logon(OneSessionGateway.PASSWORD);
            client.expect("A");

            assertEquals("1 REFUSED UNKNOWN_SESSION 0", answer(root, admin.append(disconnect(1, "NOBODY", "x"))));
            assertEquals("2 REFUSED SESSION_CONNECTED 0", answer(root, admin.append(setSeq(1, "CLIENT1", 5, 5))));

            assertEquals("3 ACKNOWLEDGED NONE 1", answer(root, admin.append(disconnect(1, "CLIENT1", "maint"))));
            final FixFields logout = client.expect("5");
            assertEquals(GatewayAdmin.DISCONNECT_TEXT + ": maint", logout.get(FixTags.TEXT));
            client.expectClosed();

            assertEquals("4 REFUSED SESSION_NOT_CONNECTED 0", answer(root, admin.append(disconnect(1, "CLIENT1", "again"))));
            assertEquals("5 REFUSED BAD_SEQUENCE_NUMBER 0", answer(root, admin.append(setSeq(1, "CLIENT1", 0, 9))));
            admin.append(disconnect(2, "CLIENT1", "other")); // gateway 2's: not answered here
            assertEquals("7 ACKNOWLEDGED NONE 0", answer(root, admin.append(setSeq(1, "CLIENT1", setSender, setTarget))));
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 7L), answers(root).stream().map(a -> a.eventId).toList());
        }
        try (TestFixClient client = gateway.connect(setTarget)) {
            client.logon(OneSessionGateway.PASSWORD);
            final FixFields logon = client.expect("A");
            assertEquals(setSender, logon.seqNum(), "the gateway's Logon answer carries the next MsgSeqNum set: " + logon);
            client.expectNothingElse(); // no ResendRequest: the client's 70 was the MsgSeqNum expected
            clientNextSeq = client.nextSeq();
            gatewayLastSeq = setSender + 1;
            first.kill9();
        }

        final JavaProcess second = gateway.start("gateway-second");
        try (TestFixClient client = gateway.connect(clientNextSeq)) {
            client.logon(OneSessionGateway.PASSWORD);
            final FixFields logon = client.expect("A");
            assertEquals(gatewayLastSeq + 1, logon.seqNum(),
                    "the restart kept the sequences and did not set them again: " + logon);
            client.expectNothingElse();
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 7L), answers(root).stream().map(a -> a.eventId).toList(),
                    "no command answered, nor carried out, twice");
        } finally {
            second.stop(10);
        }
    }

    @Test
    void aStartOnAnAdminJournalOthersCouldWriteIsRefused() throws Exception {
        final OneSessionGateway deployment = new OneSessionGateway(dir);
        final Path admin = Journals.adminJournal(deployment.journals());
        Files.createDirectories(admin);
        Files.setPosixFilePermissions(admin, PosixFilePermissions.fromString("rwxr-x---"));
        try (JavaProcess gateway = deployment.launch("gateway-wide")) {
            final int exit = gateway.waitFor(120);
            assertNotEquals(0, exit, gateway::logText);
            assertTrue(gateway.logText().contains("admin journal " + admin.toAbsolutePath())
                    && gateway.logText().contains("rwxr-x---"), gateway::logText);
            assertTrue(!gateway.logText().contains("listening on"), gateway::logText);
        }
    }

    private static AdminCommand disconnect(final int gateway, final String session, final String reason) {
        return new AdminCommand().action(AdminAction.DISCONNECT).gatewayId(gateway).session(id(session))
                .reason(id(reason)).user(id("tester"));
    }

    private static AdminCommand setSeq(final int gateway, final String session, final long sender, final long target) {
        return new AdminCommand().action(AdminAction.SET_SEQUENCE).gatewayId(gateway).session(id(session))
                .sequence(sender, target).user(id("tester"));
    }

    /** @return the gateway's answer to command {@code eventId}, waited for, as "eventId result refusal affected" */
    private static String answer(final Path root, final long eventId) {
        final Answer[] found = new Answer[1];
        await("gateway 1 answers admin command " + eventId, 30, () -> {
            for (final Answer answer : answers(root)) {
                if (answer.eventId == eventId) {
                    found[0] = answer;
                    return true;
                }
            }
            return false;
        });
        return found[0].toString();
    }

    /** One adminAnswered record, copied out. */
    private record Answer(long eventId, AdminResult result, AdminRefusal refusal, long affected) {
        @Override
        public String toString() {
            return eventId + " " + result + " " + refusal + " " + affected;
        }
    }

    /** @return every adminAnswered record in gateway 1's own journal */
    private static List<Answer> answers(final Path root) {
        final List<Answer> answers = new ArrayList<>();
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.gatewayDeliveries(root, 1))) {
            final MethodReader reader = queue.createTailer().methodReader(new NoOpGatewayRecords() {
                @Override
                public void adminAnswered(final AdminOutcome outcome) {
                    assertEquals(Journals.ADMIN_SOURCE_ID, outcome.metaData().sourceId());
                    answers.add(new Answer(outcome.metaData().eventId(), outcome.result(), outcome.refusal(),
                            outcome.affected()));
                }
            });
            while (reader.readOne()) {
                // collecting
            }
        }
        return answers;
    }
}
