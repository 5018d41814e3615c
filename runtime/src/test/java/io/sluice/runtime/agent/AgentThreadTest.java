package io.sluice.runtime.agent;

import io.sluice.runtime.TimerSlack;
import io.sluice.runtime.process.CpuPinning;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How every Sluice thread runs: set up in onStart, stopped by any failure (reported), closed within a bound. */
final class AgentThreadTest {
    @Test
    void aFailureStopsTheAgentClosesItAndIsReported() throws Exception {
        final IllegalStateException planted = new IllegalStateException("planted");
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicLong slack = new AtomicLong();
        final AgentThread thread = AgentThread.start(new TestAgent() {
            private int rounds;

            @Override
            public void onStart() {
                slack.set(TimerSlack.current());
            }

            @Override
            public int doWork() {
                if (++rounds == 3) {
                    throw planted;
                }
                return 1;
            }

            @Override
            public void onClose() {
                closed.set(true);
            }
        }, new BusySpinIdleStrategy(), CpuPinning.NONE, AgentThread.Priority.NORMAL);
        assertTrue(thread.awaitClosed(30, TimeUnit.SECONDS), "the failure stops the agent");
        assertSame(planted, thread.failure(), "the failure itself, not Agrona's wrapper");
        assertTrue(closed.get(), "onClose ran");
        if (TimerSlack.current() >= 0) { // Linux
            assertEquals(TimerSlack.FINE_NANOS, slack.get(), "onStart ran with fine timer slack");
        }
    }

    @Test
    void anAgentThatIsDoneStopsWithoutAFailure() throws Exception {
        final AgentThread thread = AgentThread.start(new TestAgent() {
            @Override
            public int doWork() {
                throw new AgentTerminationException();
            }
        }, new BusySpinIdleStrategy(), CpuPinning.NONE, AgentThread.Priority.NORMAL);
        assertTrue(thread.awaitClosed(30, TimeUnit.SECONDS));
        assertNull(thread.failure());
    }

    @Test
    void closingGivesUpAfterItsTimeoutWhenTheWorkInHandDoesNotEnd() throws Exception {
        final CountDownLatch inWork = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AgentThread thread = AgentThread.start(new TestAgent() {
            @Override
            public int doWork() throws InterruptedException {
                inWork.countDown();
                release.await();
                return 1;
            }
        }, new BusySpinIdleStrategy(), CpuPinning.NONE, AgentThread.Priority.NORMAL);
        assertTrue(inWork.await(30, TimeUnit.SECONDS));
        assertFalse(thread.close(50, TimeUnit.MILLISECONDS), "a bounded close returns, the work still in hand");
        release.countDown();
        assertTrue(thread.awaitClosed(30, TimeUnit.SECONDS), "the agent stops after the work in hand");
        assertNull(thread.failure(), "never interrupted");
    }

    /** An agent doing nothing, for tests to override. */
    private abstract static class TestAgent implements Agent {
        @Override
        public int doWork() throws Exception {
            return 0;
        }

        @Override
        public String roleName() {
            return "test agent";
        }
    }
}
