package io.sluice.bench.fix;

import com.sun.management.ThreadMXBean;
import io.sluice.bench.quickfixj.QuickFixJAcceptor;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.LatencySamples;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.OrderTerms;
import io.sluice.tools.fix.SessionIdentity;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load client must not disturb what it measures: once warm, sending orders and reading their reports
 * allocates nothing per order on the load thread (measured with the JVM's per-thread allocation counter; the
 * QuickFIX/J acceptor answering runs on threads of its own). Under one byte per order over 10,000 orders
 * rules out any per-order object while tolerating a one-off allocation by the JIT settling.
 */
class OrderLoadAllocationTest {
    private static final OrderTerms BUY = OrderTerms.of("ACC1", "SLC", OrderTerms.BUY, 10, "100", OrderTerms.DAY);

    @Test
    void sendingOrdersAndReadingReportsAllocatesNothingOnceWarm() throws Exception {
        final ThreadMXBean threads =
                (ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (QuickFixJAcceptor acceptor = QuickFixJAcceptor.start(0, List.of("LOAD1"));
             FixClientSession session = new FixClientSession(FixEndpoint.tcp("127.0.0.1", acceptor.port()),
                     new SessionIdentity("LOAD1", QuickFixJAcceptor.COMP_ID, "", ""))) {
            session.logon(Duration.ofSeconds(10));
            final Recorder latencies = OrderLoad.newRecorder();
            final LatencySamples samples = new LatencySamples(20_000);
            final OrderLoad load = new OrderLoad(session, BUY, 8, 1, latencies).samples(samples);
            final long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            assertTrue(load.run(10_000, deadline));

            final long before = threads.getCurrentThreadAllocatedBytes();
            assertTrue(load.run(10_000, deadline));
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            assertEquals(20_000, load.filled());
            assertTrue(allocated < 10_000, "less than a byte per order (one object per order would be 160,000 bytes)"
                    + " allocated by the load thread for 10,000 orders, but it allocated " + allocated
                    + " bytes; a few hundred once is the JIT settling");
        }
    }
}
