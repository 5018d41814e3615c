package io.sluice.runtime.journal;

import io.sluice.runtime.agent.AgentThread;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The agent that keeps disk space reserved ahead of a process's journal writers ({@link JournalSpace}), so the
 * writers' own threads never make the system calls. Run on a background {@link AgentThread} (which sleeps
 * {@value AgentThread#BACKGROUND_SLEEP_MILLIS} ms when a round had nothing to do), alone (a gateway) or beside a
 * {@link JournalPretoucher} in a {@link org.agrona.concurrent.CompositeAgent} (the engine). A failure in a round is
 * printed and that journal tried again {@value #AFTER_FAILURE_MILLIS} ms later: it never ends the process, and a
 * writer whose reservation is not kept up sees it in {@link JournalSpace#level()} and stops before writing. A process
 * that opens journals as it runs (a receiver, one per journal the log names) hands each to its one keeper with
 * {@link #add}, rather than a thread per journal: each keeper thread wakes every {@value
 * AgentThread#BACKGROUND_SLEEP_MILLIS} ms, a context switch taken from the trading path on a small host. Closing (on the
 * agent's thread) releases the files of every space it was given.
 */
public final class JournalSpaceKeeper implements Agent {
    private static final long AFTER_FAILURE_MILLIS = 100;

    private final String name;
    private final List<JournalSpace> spaces = new ArrayList<>();
    private final ManyToOneConcurrentLinkedQueue<JournalSpace> added = new ManyToOneConcurrentLinkedQueue<>();
    private final NanoClock clock;
    private long[] retryAt = new long[0];

    /**
     * Keeps {@code initial} (and those {@link #add added} later); {@code name} names the agent, e.g. {@code engine
     * journal space keeper}; {@code clock} paces the free-space checks and the retries after a failure.
     */
    public JournalSpaceKeeper(final String name, final List<JournalSpace> initial, final NanoClock clock) {
        this.name = name;
        this.clock = clock;
        initial.forEach(added::offer);
    }

    /** Hands {@code space} to the keeper from any thread: kept from its next round on, and closed with the others. */
    public void add(final JournalSpace space) {
        added.offer(space);
    }

    @Override
    public int doWork() {
        final long now = clock.nanoTime();
        int work = admitAdded(now);
        for (int i = 0; i < spaces.size(); i++) {
            if (now - retryAt[i] >= 0 && keep(i, now)) {
                work++;
            }
        }
        return work;
    }

    private int admitAdded(final long now) {
        int admitted = 0;
        for (JournalSpace space = added.poll(); space != null; space = added.poll()) {
            spaces.add(space);
            retryAt = Arrays.copyOf(retryAt, spaces.size());
            retryAt[spaces.size() - 1] = now;
            admitted++;
        }
        return admitted;
    }

    private boolean keep(final int i, final long now) {
        final JournalSpace space = spaces.get(i);
        try {
            return space.keep(now);
        } catch (final RuntimeException | InternalError e) {
            System.err.println("journal " + space.dir() + ": keeping disk space reserved failed, trying again: " + e);
            retryAt[i] = now + TimeUnit.MILLISECONDS.toNanos(AFTER_FAILURE_MILLIS);
            return false;
        }
    }

    @Override
    public void onClose() {
        admitAdded(clock.nanoTime());
        spaces.forEach(JournalSpace::close);
    }

    @Override
    public String roleName() {
        return name;
    }
}
