package io.sluice.gateway;

import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.testkit.fix.TestFixClient;
import org.agrona.concurrent.EpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway's error policy: a failure while processing one client's message is confined to that client. Its
 * session is logged out ({@value Gateway#INTERNAL_ERROR_TEXT}) and closed, the other sessions are served on, and the
 * failing client can log on again. The failure is planted in the test's clock (the gateway's own seam for time), which
 * throws once when read while a session processes a message.
 */
final class SessionFailureTest {
    @TempDir
    Path root;

    @Test
    void aFailureInOneSessionsMessageLogsThatSessionOutAndTheGatewayServesTheOthersOn() throws Exception {
        final PlantedFailure clock = new PlantedFailure();
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1"))
                .session(new SessionConfig("CLIENT2", "SLUICE", "secret2"));
        try (RunningGateway gateway = new RunningGateway(config, clock);
             TestFixClient failing = new TestFixClient(gateway.address(), "CLIENT1", 1);
             TestFixClient other = new TestFixClient(gateway.address(), "CLIENT2", 1)) {
            failing.logon("secret1");
            failing.expect("A");
            other.logon("secret2");
            other.expect("A");

            clock.armed.set(true);
            failing.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, "poison"));
            assertEquals(Gateway.INTERNAL_ERROR_TEXT, failing.expect("5").get(FixTags.TEXT));
            failing.expectClosed();
            assertFalse(clock.armed.get(), "the planted failure went off");

            other.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, "still-there"));
            assertEquals("still-there", other.expect("0").get(FixTags.TEST_REQ_ID));
            assertTrue(gateway.running(), "the gateway serves on");
        }
    }

    /** The system clock, throwing once, when armed, if read while a FIX session processes a client message. */
    private static final class PlantedFailure implements EpochClock {
        final AtomicBoolean armed = new AtomicBoolean();

        @Override
        public long time() {
            if (armed.get() && inMessageProcessing() && armed.compareAndSet(true, false)) {
                throw new IllegalStateException("planted failure in a session's message");
            }
            return System.currentTimeMillis();
        }

        private static boolean inMessageProcessing() {
            return StackWalker.getInstance().walk(frames -> frames.anyMatch(frame ->
                    frame.getClassName().endsWith("FixSession") && frame.getMethodName().equals("onMessage")));
        }
    }
}
