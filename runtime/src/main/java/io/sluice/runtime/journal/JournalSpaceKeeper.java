package io.sluice.runtime.journal;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The thread that keeps disk space reserved ahead of a process's journal writers ({@link JournalSpace}): one per
 * process, a daemon backing off 1 ms between rounds, so the writers' own threads never make the system calls.
 * A failure in a round is printed and the round tried again later: it never ends the process, and a writer whose
 * reservation is not kept up sees it in {@link JournalSpace#level()} and stops before writing.
 */
public final class JournalSpaceKeeper implements AutoCloseable {
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long AFTER_FAILURE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final List<JournalSpace> spaces;
    private final Thread thread;
    private volatile boolean running = true;

    /** Starts keeping {@code spaces}, on a thread named {@code name}. */
    public JournalSpaceKeeper(final String name, final List<JournalSpace> spaces) {
        this.spaces = List.copyOf(spaces);
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the thread, waits for it, and releases the files it held open. */
    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            while (running) {
                boolean worked = false;
                for (final JournalSpace space : spaces) {
                    worked |= keep(space);
                }
                if (!worked) {
                    LockSupport.parkNanos(IDLE_NANOS);
                }
            }
        } finally {
            spaces.forEach(JournalSpace::close);
        }
    }

    private static boolean keep(final JournalSpace space) {
        try {
            return space.keep(System.nanoTime());
        } catch (final RuntimeException | InternalError e) {
            System.err.println("journal " + space.dir() + ": keeping disk space reserved failed, trying again: " + e);
            LockSupport.parkNanos(AFTER_FAILURE_NANOS);
            return false;
        }
    }
}
