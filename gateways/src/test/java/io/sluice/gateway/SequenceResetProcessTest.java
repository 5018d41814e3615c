package io.sluice.gateway;

import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The two sequence resets a FIX counterparty sends, against the gateway as a real child process: a SequenceReset
 * in Reset mode with MsgSeqNum 0, and a Logon with ResetSeqNumFlag on a logged-on session; then the gateway is
 * killed with SIGKILL, and its restart continues from the reset numbers.
 */
class SequenceResetProcessTest {
    @TempDir
    Path dir;

    /** Sends a TestRequest and returns the Heartbeat that answers it. */
    private static FixFields ping(final TestFixClient client, final String id) throws Exception {
        client.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, id));
        final FixFields heartbeat = client.expect("0");
        assertEquals(id, heartbeat.get(FixTags.TEST_REQ_ID));
        return heartbeat;
    }

    @Test
    void resetModeSequenceResetAndMidSessionResetLogonAndTheResetSurvivesAKill() throws Exception {
        final OneSessionGateway gateway = new OneSessionGateway(dir);

        final JavaProcess first = gateway.start("gateway-first");
        try (TestFixClient client = gateway.connect(1)) {
            // client: Logon 34=1                          -> gateway: Logon 34=1
            client.logon(OneSessionGateway.PASSWORD);
            assertEquals(1, client.expect("A").seqNum());
            // client: SequenceReset 34=0 36=10 (no 123)   -> gateway: nothing; expects 10 next
            client.nextSeq(0);
            client.send(MsgTypes.SEQUENCE_RESET, reset -> reset.longField(FixTags.NEW_SEQ_NO, 10));
            client.nextSeq(10);
            // client: TestRequest 34=10                   -> gateway: Heartbeat 34=2
            assertEquals(2, ping(client, "AFTER-SEQUENCE-RESET").seqNum());
            // client: Logon 34=1 141=Y                    -> gateway: Logon 34=1 141=Y, still logged on
            client.nextSeq(1);
            client.send(MsgTypes.LOGON, logon -> logon.longField(FixTags.ENCRYPT_METHOD, 0)
                    .longField(FixTags.HEART_BT_INT, 30).textField(FixTags.PASSWORD, OneSessionGateway.PASSWORD)
                    .booleanField(FixTags.RESET_SEQ_NUM_FLAG, true));
            final FixFields resetLogon = client.expect("A");
            assertEquals(1, resetLogon.seqNum());
            assertEquals("Y", resetLogon.get(FixTags.RESET_SEQ_NUM_FLAG));
            // client: TestRequest 34=2                    -> gateway: Heartbeat 34=2
            assertEquals(2, ping(client, "AFTER-RESET-LOGON").seqNum());
            first.kill9();
        }

        final JavaProcess second = gateway.start("gateway-second");
        try (TestFixClient client = gateway.connect(3)) {
            // client: Logon 34=3                          -> gateway: Logon 34=3 (the reset sequence continues)
            client.logon(OneSessionGateway.PASSWORD);
            assertEquals(3, client.expect("A").seqNum());
        } finally {
            second.stop(10);
        }
    }
}
