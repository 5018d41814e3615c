package io.sluice.runtime.agent;

import org.agrona.concurrent.NanoClock;
import sun.misc.Signal;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one way a Sluice process stops: SIGTERM (or Ctrl-C) closes its agents, and it exits with its role's own code.
 * <p>
 * A clean stop exits 0, as the README's exit-code table says.
 * The JVM's own handling of these signals would run the shutdown hooks and exit with 128 plus the signal's number
 * (143, 130) whatever the role decides, and a supervisor would read every clean stop as a failure. So a role's
 * {@code main} calls {@link #handleSignals()} first: from then on the signals come here. With agents installed
 * ({@link #install}), a signal closes them, each after its {@code doWork} in hand, waiting at most
 * {@value #GRACE_SECONDS} s in all (a long recovery included: the journals are safe at any instant), and prints
 * {@code <role>: stopped}; the role's main thread, which waits for its agent ({@link AgentThread#awaitClosed()}), then
 * exits with its code through {@code System.exit} (the JVM's shutdown hooks run there). Agents still running after the
 * grace period, or a signal before any are installed (a process still starting), end the process with
 * {@code System.exit(0)} at once: it was asked to stop, and stopped.
 */
public final class SigtermHook implements AutoCloseable {
    /** The longest a process waits for its threads to close after SIGTERM. */
    public static final long GRACE_SECONDS = 5;
    private static final List<String> SIGNALS = List.of("TERM", "INT");
    /** Guards {@link #handling}, {@link #installed} and {@link #stopping}: a signal and the main thread meet here. */
    private static final Object LOCK = new Object();
    private static boolean handling;
    private static SigtermHook installed;
    private static Thread stopping;

    private final String role;
    private final long graceSeconds;
    private final NanoClock clock;
    private final List<AgentThread> threads;

    private SigtermHook(final String role, final long graceSeconds, final NanoClock clock, final List<AgentThread> threads) {
        this.role = role;
        this.graceSeconds = graceSeconds;
        this.clock = clock;
        this.threads = threads;
    }

    /** Takes SIGTERM and SIGINT from the JVM for this class: call first in a role's {@code main}. Idempotent. */
    public static void handleSignals() {
        synchronized (LOCK) {
            if (!handling) {
                for (final String name : SIGNALS) {
                    Signal.handle(new Signal(name), SigtermHook::onSignal);
                }
                handling = true;
            }
        }
    }

    /**
     * Installs the hook: SIGTERM closes {@code threads} in this order.
     *
     * @param role  names the process in messages
     * @param clock times the grace period
     */
    public static SigtermHook install(final String role, final NanoClock clock, final AgentThread... threads) {
        return install(role, GRACE_SECONDS, clock, threads);
    }

    /**
     * As {@link #install(String, NanoClock, AgentThread...)}, waiting at most {@code graceSeconds} (a tail's summary and
     * plot).
     */
    public static SigtermHook install(final String role, final long graceSeconds, final NanoClock clock,
                                      final AgentThread... threads) {
        handleSignals();
        final SigtermHook hook = new SigtermHook(role, graceSeconds, clock, List.of(threads));
        synchronized (LOCK) {
            installed = hook;
        }
        return hook;
    }

    private static void onSignal(final Signal signal) {
        synchronized (LOCK) {
            if (stopping != null) {
                return; // already stopping
            }
            final SigtermHook hook = installed;
            stopping = new Thread(hook == null ? () -> System.exit(0) : hook::stop, "sigterm-stop");
            stopping.start();
        }
    }

    /** Closes the threads, says so, and if they did not close in time ends the process anyway. */
    private void stop() {
        final long deadline = clock.nanoTime() + TimeUnit.SECONDS.toNanos(graceSeconds);
        boolean closed = true;
        for (final AgentThread thread : threads) {
            closed &= thread.close(Math.max(0, deadline - clock.nanoTime()), TimeUnit.NANOSECONDS);
        }
        System.out.println(closed ? role + ": stopped" : role + ": not stopped after " + graceSeconds + " s, exiting anyway");
        System.out.flush();
        if (!closed) {
            System.exit(0);
        }
    }

    /**
     * Uninstalls the hook once the agents are closed, by a signal or by a failure of their own; if a signal is stopping
     * them, first waits for it to have said so.
     */
    @Override
    public void close() {
        final Thread stop;
        synchronized (LOCK) {
            if (installed == this) {
                installed = null;
            }
            stop = stopping;
        }
        if (stop != null && stop != Thread.currentThread()) {
            try {
                stop.join(TimeUnit.SECONDS.toMillis(graceSeconds));
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
