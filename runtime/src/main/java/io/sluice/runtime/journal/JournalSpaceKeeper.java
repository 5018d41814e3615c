package io.sluice.runtime.journal;

import io.sluice.runtime.agent.AgentThread;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The agent that keeps disk space reserved ahead of a process's journal writers ({@link JournalSpace}), so the
 * writers' own threads never make the system calls. Run on a background {@link AgentThread} (which sleeps
 * {@value AgentThread#BACKGROUND_SLEEP_MILLIS} ms when a round had nothing to do), alone (a gateway) or beside a
 * {@link JournalPretoucher} in a {@link org.agrona.concurrent.CompositeAgent} (the engine). A failure in a round is
 * printed and that journal tried again {@value #AFTER_FAILURE_MILLIS} ms later: it never ends the process, and a
 * writer whose reservation is not kept up sees it in {@link JournalSpace#level()} and stops before writing. Closing
 * (on the agent's thread) releases the files it held open.
 */
public final class JournalSpaceKeeper implements Agent {
    private static final long AFTER_FAILURE_MILLIS = 100;

    private final String name;
    private final List<JournalSpace> spaces;
    private final NanoClock clock;
    private final long[] retryAt;

    /**
     * Keeps {@code spaces}; {@code name} names the agent, e.g. {@code engine journal space keeper}; {@code clock} paces
     * the free-space checks and the retries after a failure.
     */
    public JournalSpaceKeeper(final String name, final List<JournalSpace> spaces, final NanoClock clock) {
        this.name = name;
        this.spaces = List.copyOf(spaces);
        this.clock = clock;
        retryAt = new long[spaces.size()];
        Arrays.fill(retryAt, clock.nanoTime());
    }

    @Override
    public int doWork() {
        final long now = clock.nanoTime();
        int work = 0;
        for (int i = 0; i < spaces.size(); i++) {
            if (now - retryAt[i] >= 0 && keep(i, now)) {
                work++;
            }
        }
        return work;
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
        spaces.forEach(JournalSpace::close);
    }

    @Override
    public String roleName() {
        return name;
    }
}
