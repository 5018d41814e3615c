package io.sluice.runtime.agent;

import io.sluice.runtime.TimerSlack;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.IdlePriority;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one Agrona {@link Agent} on a thread of its own with an {@link AgentRunner}: how every long-running thread of
 * a Sluice process runs. The one place where a thread is set up, in the agent's {@code onStart} on that thread: fine
 * timer slack ({@link TimerSlack}, so that a backing-off thread's short parks stay short), optional pinning to a CPU
 * ({@link CpuPinning}, its outcome printed) and, if asked, idle scheduling priority for the process
 * ({@link IdlePriority}).
 * <p>
 * The error policy: an agent that is done throws Agrona's {@link AgentTerminationException} without a cause, which
 * stops it with no failure; any other {@link Throwable} that escapes the agent ({@code onStart} or {@code doWork}) stops it: the
 * runner closes it ({@code onClose}, on its thread) and {@link #failure()} returns what stopped it, for the process to
 * name in its message and exit code. Errors an agent can survive are handled inside the agent (a gateway logs out the
 * one session a message failed in; the disk keeper retries later); nothing is skipped here.
 * <p>
 * Stopping: {@link #close(long, TimeUnit)} stops the agent after its {@code doWork} in hand and waits a bounded time for
 * it to close; {@link SigtermHook} does that for SIGTERM.
 */
public final class AgentThread implements AutoCloseable {
    /** What else {@code onStart} does to the thread. */
    public enum Priority {
        /** The thread keeps the scheduling priority it was started with. */
        NORMAL,
        /** Every thread of this process goes under Linux's {@code SCHED_IDLE} (a live tail). */
        IDLE_PROCESS
    }

    /** How long a background agent's thread sleeps when it found nothing to do. */
    public static final long BACKGROUND_SLEEP_MILLIS = 1;

    private final AgentRunner runner;
    private final Placed placed;

    private AgentThread(final Placed placed, final IdleStrategy idle) {
        this.placed = placed;
        runner = new AgentRunner(idle, placed::recordFailure, null, placed);
    }

    /**
     * Starts {@code agent} on a new daemon thread named after its role (the process's main thread waits for it).
     *
     * @param pinCpu the CPU to pin the thread to, or {@link CpuPinning#NONE}
     */
    public static AgentThread start(final Agent agent, final IdleStrategy idle, final int pinCpu, final Priority priority) {
        final AgentThread thread = new AgentThread(new Placed(agent, pinCpu, priority), idle);
        AgentRunner.startOnThread(thread.runner, runnable -> {
            final Thread started = new Thread(runnable, agent.roleName());
            started.setDaemon(true);
            return started;
        });
        return thread;
    }

    /**
     * Starts a background agent (disk keeping, pretouching): unpinned, at normal priority, sleeping
     * {@value #BACKGROUND_SLEEP_MILLIS} ms whenever a round had nothing to do.
     */
    public static AgentThread startBackground(final Agent agent) {
        return start(agent, IdleConfig.sleepNanos(TimeUnit.MILLISECONDS.toNanos(BACKGROUND_SLEEP_MILLIS)).newStrategy(),
                CpuPinning.NONE, Priority.NORMAL);
    }

    /** Waits until the agent has closed: stopped by {@link #close}, or by a failure. */
    public void awaitClosed() throws InterruptedException {
        placed.closed.await();
    }

    /** @return true if the agent closed within {@code timeout} */
    public boolean awaitClosed(final long timeout, final TimeUnit unit) throws InterruptedException {
        return placed.closed.await(timeout, unit);
    }

    /** @return what stopped the agent (the cause, not Agrona's wrapper), or null if nothing failed */
    public Throwable failure() {
        return placed.failure.get();
    }

    /** @return the agent's role name */
    public String roleName() {
        return placed.roleName();
    }

    /**
     * Stops the agent after the {@code doWork} in hand and waits at most {@code timeout} for it to close (it is never
     * interrupted: an interrupt would close Chronicle's file channels under it).
     *
     * @return true if it closed in time
     */
    public boolean close(final long timeout, final TimeUnit unit) {
        try {
            runner.close((int) Math.max(1, Math.min(Integer.MAX_VALUE, unit.toMillis(timeout))), thread -> {
                throw new StopTimedOut();
            });
            return true;
        } catch (final StopTimedOut e) {
            return false;
        }
    }

    /** Stops the agent and waits for it to close, however long that takes. */
    @Override
    public void close() {
        while (!close(1, TimeUnit.SECONDS)) {
            Thread.onSpinWait();
        }
    }

    /** Thrown by the close-fail action to end a bounded wait instead of interrupting the agent's thread. */
    private static final class StopTimedOut extends RuntimeException {
        StopTimedOut() {
            super(null, null, false, false);
        }
    }

    /** The agent, with the thread set up before it starts and the error policy around its work. */
    private static final class Placed implements Agent {
        private final Agent agent;
        private final int pinCpu;
        private final Priority priority;
        private final CountDownLatch closed = new CountDownLatch(1);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private CpuPinning pinning;

        Placed(final Agent agent, final int pinCpu, final Priority priority) {
            this.agent = agent;
            this.pinCpu = pinCpu;
            this.priority = priority;
        }

        @Override
        public void onStart() {
            TimerSlack.set(TimerSlack.FINE_NANOS);
            if (priority == Priority.IDLE_PROCESS) {
                System.out.println(agent.roleName() + ": " + IdlePriority.applyToThisProcess());
            }
            pinning = CpuPinning.pinCurrentThread(pinCpu, agent.roleName() + " thread");
            if (pinCpu != CpuPinning.NONE) {
                System.out.println(agent.roleName() + ": " + pinning.outcome());
            }
            agent.onStart();
        }

        @Override
        public int doWork() throws Exception {
            try {
                return agent.doWork();
            } catch (final AgentTerminationException e) {
                throw e;
            } catch (final Throwable t) {
                throw new AgentTerminationException(t);
            }
        }

        @Override
        public void onClose() {
            try {
                agent.onClose();
            } finally {
                if (pinning != null) {
                    pinning.close();
                }
                closed.countDown();
            }
        }

        @Override
        public String roleName() {
            return agent.roleName();
        }

        void recordFailure(final Throwable t) {
            if (t instanceof AgentTerminationException && t.getCause() == null) {
                return; // the agent's own way to say it is done (a tail that read a finished set), not a failure
            }
            final Throwable cause = t instanceof AgentTerminationException && t.getCause() != null ? t.getCause() : t;
            failure.compareAndSet(null, cause);
        }
    }
}
