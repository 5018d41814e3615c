package io.sluice.replay;

import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.NanoClock;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A fresh engine following journals that are still being written. The primary's own root, or a replica root that a
 * receiver fills journal by journal, each arriving in its own time. It feeds the inputs in the order the recorded
 * engine journal says the primary engine consumed them and compares each excerpt of reports as it is produced
 * ({@link ReplayRun}, exactly as a {@link Replay} does), so the first divergence is known at once. It waits, never
 * failing, while the recorded engine journal has no further input (the primary has not consumed more yet), while a
 * gateway journal does not hold the input the engine journal names next (that input is not replicated yet), and
 * until the journals appear at all.
 * <p>
 * An Agrona {@link Agent}: each {@code doWork} feeds up to {@value #INPUTS_PER_DUTY_CYCLE} inputs and says how many,
 * so the idle strategy backs off while there is nothing to follow. Once a second, when anything changed, it prints a
 * status line: inputs followed, reports compared, identical so far, how many recorded inputs it is behind, how long
 * after the primary it compared the last report, and what it waits for. It stops by itself at the first divergence,
 * after {@link Replay#stopAt} inputs, or after following nothing for the given idle time; it prints the summary in
 * {@link #onClose()}, also when SIGTERM closes it.
 * <p>
 * How far behind the primary it runs, in time: for each input compared, the clock ({@link SluiceClock}) minus the
 * recorded reports' {@code reportWriting}; the status line gives the last and the largest since the line before.
 * On another host this includes the offset between the two hosts' clocks.
 */
public final class ShadowEngine implements Agent {
    /** What the shadow is doing; its status line says so. */
    public enum State {
        /** The engine journal or a gateway journal to follow is not there yet. */
        AWAITING_JOURNALS,
        /** Feeding inputs the journals hold. */
        FOLLOWING,
        /** Every input the recorded engine journal holds is followed: waiting for the primary engine's next. */
        AWAITING_ENGINE_JOURNAL,
        /** The recorded engine journal names an input that its gateway journal does not hold yet. */
        AWAITING_INPUT,
        /** Stopped at the first divergent report. */
        DIVERGED,
        /** Stopped without a divergence: the input limit, the idle limit, or closed (SIGTERM). */
        STOPPED,
        /** Stopped by a journal it cannot follow (corrupt, of another format, or not what the engine journal names). */
        FAILED
    }

    /** Inputs fed in one duty cycle at most, so that the status line and a stop are not held back by a long catch-up. */
    private static final int INPUTS_PER_DUTY_CYCLE = 1024;
    private static final long STATUS_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How often a shadow waiting for its journals to appear looks for them. */
    private static final long JOURNAL_LOOK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Replay replay;
    private final NanoClock clock;
    private final PrintStream out;
    private final long untilIdleNanos;
    private volatile State state = State.AWAITING_JOURNALS;
    private volatile ReplayResult result;
    private ReplayRun run;
    private List<String> missingJournals = List.of();
    private long startNanos;
    private long lastWorkNanos;
    private long nextLookNanos;
    private long nextStatusNanos;
    private String lastStatus = "";
    private long lagTicks;
    private long maxLagTicks = Long.MIN_VALUE;
    private boolean comparedSinceStatus;

    /**
     * @param replay         the replay to run live: recorded root, engine config, output directory, clock, and
     *                       optionally {@link Replay#stopAt} and {@link Replay#sources} (its pace and progress are not
     *                       used)
     * @param out            where the status lines and the summary go
     * @param untilIdleNanos stop after following nothing for this long; 0 to follow until closed
     */
    public ShadowEngine(final Replay replay, final PrintStream out, final long untilIdleNanos) {
        this.replay = replay;
        this.clock = replay.clock();
        this.out = out;
        this.untilIdleNanos = untilIdleNanos;
    }

    /** Checks the output directory at once, rather than once the journals are there. */
    @Override
    public void onStart() {
        try {
            replay.checkedOutput();
        } catch (final RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
        startNanos = clock.nanoTime();
        lastWorkNanos = startNanos;
        nextLookNanos = startNanos;
        nextStatusNanos = startNanos + STATUS_INTERVAL_NANOS;
    }

    @Override
    public int doWork() {
        final long now = clock.nanoTime();
        final int work;
        try {
            work = run == null ? lookForJournals(now) : follow();
        } catch (final AgentTerminationException stopped) {
            throw stopped;
        } catch (final RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
        if (work > 0) {
            lastWorkNanos = now;
        } else if (untilIdleNanos > 0 && now - lastWorkNanos >= untilIdleNanos) {
            stop(State.STOPPED);
        }
        if (now - nextStatusNanos >= 0) {
            nextStatusNanos = now + STATUS_INTERVAL_NANOS;
            printStatusIfChanged();
        }
        return work;
    }

    private int lookForJournals(final long now) {
        if (now - nextLookNanos < 0) {
            return 0;
        }
        nextLookNanos = now + JOURNAL_LOOK_INTERVAL_NANOS;
        missingJournals = replay.journalsNotThere();
        if (!missingJournals.isEmpty()) {
            return 0;
        }
        run = replay.open();
        state = State.FOLLOWING;
        return 1;
    }

    private int follow() {
        int work = 0;
        while (work < INPUTS_PER_DUTY_CYCLE) {
            switch (run.step()) {
                case COMPARED -> {
                    work++;
                    lagTicks = SluiceClock.nowTicks() - run.recordedReportWriting();
                    maxLagTicks = Math.max(maxLagTicks, lagTicks);
                    comparedSinceStatus = true;
                    if (run.fed() >= replay.stopAt()) {
                        stop(State.STOPPED);
                    }
                }
                case SKIPPED -> work++;
                case DIVERGED -> stop(State.DIVERGED);
                case ENGINE_JOURNAL_ENDS -> {
                    state = State.AWAITING_ENGINE_JOURNAL;
                    return work;
                }
                case INPUT_NOT_ARRIVED -> {
                    state = State.AWAITING_INPUT;
                    return work;
                }
            }
        }
        state = State.FOLLOWING;
        return work;
    }

    /** Ends the agent: Agrona's termination without a cause is a stop, not a failure ({@code AgentThread}). */
    private void stop(final State finalState) {
        state = finalState;
        throw new AgentTerminationException();
    }

    private void printStatusIfChanged() {
        final String status = status();
        if (!status.equals(lastStatus)) {
            lastStatus = status;
            out.println(status);
            out.flush();
        }
    }

    /** @return the status line: counts, how far behind the recorded engine journal, and what it waits for */
    private String status() {
        if (run == null) {
            return "shadow: waiting for journals under " + replay.recorded().toAbsolutePath() + ": "
                    + String.join(", ", missingJournals);
        }
        final String counts = String.format(Locale.ROOT,
                "shadow: %,d inputs followed, %,d reports compared, identical so far; %,d inputs behind the engine journal",
                run.fed(), run.reports(), run.recordedInputsAhead());
        final String lag = comparedSinceStatus ? String.format(Locale.ROOT,
                "; compared %.3f ms after the primary (max %.3f ms)",
                lagTicks / (SluiceClock.TICKS_PER_MICRO * 1e3), maxLagTicks / (SluiceClock.TICKS_PER_MICRO * 1e3)) : "";
        comparedSinceStatus = false;
        maxLagTicks = Long.MIN_VALUE;
        return counts + lag + switch (state) {
            case AWAITING_ENGINE_JOURNAL -> "; waiting for the engine journal to grow";
            case AWAITING_INPUT -> "; waiting for event " + run.awaitedEvent() + " of gateway " + run.awaitedSource()
                    + " (the engine journal names it, its gateway journal does not hold it yet)";
            default -> "";
        };
    }

    @Override
    public void onClose() {
        if (state != State.DIVERGED && state != State.FAILED) {
            state = State.STOPPED;
        }
        if (run == null) {
            result = new ReplayResult(0, 0, clock.nanoTime() - startNanos, null);
            if (state != State.FAILED) {
                out.println("shadow: stopped before its journals were there: followed nothing");
            }
        } else {
            try {
                result = new ReplayResult(run.fed(), run.reports(), clock.nanoTime() - startNanos, run.divergence());
                out.println(state == State.FAILED ? "shadow: stopped by a failure; the " + result.reports()
                        + " reports before it were identical" : result.summary());
                if (state == State.DIVERGED) {
                    out.println("shadow: the recorded engine journal is " + Journals.engineJournal(replay.recorded()).toAbsolutePath()
                            + ", the shadow's is " + replay.outputJournal().toAbsolutePath());
                }
                out.printf(Locale.ROOT, "shadow: %,d inputs followed in %.3f s%n", result.inputs(), result.elapsedNanos() / 1e9);
            } finally {
                run.close();
            }
        }
        out.flush();
    }

    @Override
    public String roleName() {
        return "shadow";
    }

    /** @return what the shadow is doing; safe to read from any thread */
    public State state() {
        return state;
    }

    /** @return what it found, once closed; null before */
    public ReplayResult result() {
        return result;
    }
}
