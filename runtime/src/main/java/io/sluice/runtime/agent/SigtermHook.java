package io.sluice.runtime.agent;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one shutdown path of a Sluice process: on SIGTERM (or Ctrl-C) a JVM shutdown hook closes the process's agent
 * threads ({@link AgentThread#close(long, TimeUnit)}), each after its {@code doWork} in hand, and waits for them at most
 * {@value #GRACE_SECONDS} s in all, so the process answers SIGTERM within seconds in every state (a long recovery
 * included: the journals are safe at any instant). Prints {@code <role>: stopped}, or that it exits anyway.
 * The role's main thread waits for its agent to close ({@link AgentThread#awaitClosed()}) and {@link #remove()}s the
 * hook when the agent stopped by itself (a failure), before it exits with its own code.
 */
public final class SigtermHook implements AutoCloseable {
    /** The longest a process waits for its threads to close after SIGTERM. */
    public static final long GRACE_SECONDS = 5;

    private final Thread hook;

    private SigtermHook(final String role, final long graceSeconds, final List<AgentThread> threads) {
        hook = new Thread(() -> {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(graceSeconds);
            boolean closed = true;
            for (final AgentThread thread : threads) {
                closed &= thread.close(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            System.out.println(closed ? role + ": stopped"
                    : role + ": not stopped after " + graceSeconds + " s, exiting anyway");
            System.out.flush();
        }, role + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Installs the hook: SIGTERM closes {@code threads} in this order. @param role names the process in messages */
    public static SigtermHook install(final String role, final AgentThread... threads) {
        return new SigtermHook(role, GRACE_SECONDS, List.of(threads));
    }

    /** As {@link #install(String, AgentThread...)}, waiting at most {@code graceSeconds} (a tail's summary and plot). */
    public static SigtermHook install(final String role, final long graceSeconds, final AgentThread... threads) {
        return new SigtermHook(role, graceSeconds, List.of(threads));
    }

    /** Removes the hook (the process is exiting by itself); harmless while the hook itself runs. */
    public void remove() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException alreadyShuttingDown) {
            // stopping on SIGTERM: the hook is what is running
        }
    }

    @Override
    public void close() {
        remove();
    }
}
