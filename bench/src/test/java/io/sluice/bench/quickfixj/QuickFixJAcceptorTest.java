package io.sluice.bench.quickfixj;

import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.OrderTerms;
import io.sluice.tools.fix.SessionIdentity;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark baseline answers every order with an ack and a fill, to the Sluice load client. */
class QuickFixJAcceptorTest {
    private static final OrderTerms BUY = OrderTerms.of("ACC1", "SLC", OrderTerms.BUY, 100, "25.5",
            OrderTerms.DAY);

    @Test
    void answersEveryOrderWithAnAckAndAFillInPingPongAndPipelinedLoad() throws Exception {
        try (QuickFixJAcceptor acceptor = QuickFixJAcceptor.start(0, List.of("LOAD1"));
             FixClientSession session = new FixClientSession(FixEndpoint.tcp("127.0.0.1", acceptor.port()),
                     new SessionIdentity("LOAD1", QuickFixJAcceptor.COMP_ID, "", ""))) {
            session.logon(Duration.ofSeconds(10));
            final Recorder latencies = new Recorder(3);

            final OrderLoad pingPong = new OrderLoad(session, BUY, 1, 1, latencies);
            assertTrue(pingPong.run(300, deadline()));
            assertEquals(300, pingPong.filled());
            assertEquals(600, pingPong.reports());
            assertNull(pingPong.firstRejectText());

            final OrderLoad pipelined = new OrderLoad(session, BUY, 16, 1_000, latencies);
            assertTrue(pipelined.run(2_000, deadline()));
            assertEquals(2_000, pipelined.filled());
            assertEquals(4_000, pipelined.reports());

            final Histogram recorded = latencies.getIntervalHistogram();
            assertEquals(2_300, recorded.getTotalCount());
            assertTrue(recorded.getMinValue() > 0);
            session.logout();
        }
    }

    @Test
    void refusesAClientItDoesNotKnow() throws Exception {
        try (QuickFixJAcceptor acceptor = QuickFixJAcceptor.start(0, List.of("LOAD1"));
             FixClientSession stranger = new FixClientSession(FixEndpoint.tcp("127.0.0.1", acceptor.port()),
                     new SessionIdentity("STRANGER", QuickFixJAcceptor.COMP_ID, "", ""))) {
            assertThrows(IOException.class, () -> stranger.logon(Duration.ofSeconds(10)));
        }
    }

    private static long deadline() {
        return System.nanoTime() + Duration.ofSeconds(60).toNanos();
    }
}
