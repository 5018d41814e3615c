package io.sluice.engine.schedule;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.admin.AdminJournal;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;

import java.time.Instant;
import java.util.Arrays;

/**
 * Decides when the trading session opens and closes, and says so in the admin journal. An Agrona {@link Agent} on the
 * engine process's background thread that reads the wall clock ({@link EpochClock}, injected so tests drive time) and,
 * whenever it passes a boundary of the {@link TradingSchedule}, appends an {@link AdminAction#OPEN_TRADING} or {@link
 * AdminAction#CLOSE_TRADING} {@link AdminCommand} (user and reason {@value #NAME}) through {@link AdminJournal}.
 * The engine acts on those as on any input, so replay reproduces the trading day byte for byte; the engine itself
 * never reads a clock.
 * <p>
 * <b>What it writes.</b> When no instrument has a session of its own ({@link TradingSchedule#sharedByAll()}), one
 * command for all instruments (symbol 0); otherwise one per instrument whose state changes, naming its symbol, for
 * every instrument alike, so that a command for all never undoes an override.
 * <p>
 * <b>Start and catch-up.</b> Its first turn appends the state the schedule gives for now, for every instrument (or for
 * all at once): the engine, which starts every instrument closed when a schedule is configured, refuses a transition
 * to the state it is already in (TRADING_ALREADY_OPEN / _CLOSED), which is harmless. After that it appends only
 * changes. So a restart mid-day opens trading with one command, and a restart after a close the engine was down for
 * closes it (expiring the DAY orders) with one command: a missed day is never replayed boundary by boundary, and
 * boundaries the clock jumps over (a stalled process, a clock step) give at most one command per instrument, with the
 * state of now. Commands an operator writes ({@code ./sluice admin}) stand until the schedule's next boundary.
 * <p>
 * <b>Cost.</b> Between boundaries a turn reads the clock and compares it with the next boundary: no allocation, no
 * system call beyond the clock read. At a boundary it works out the new state and appends, allocating a little.
 * <p>
 * <b>Errors.</b> An append that fails (say, a full disk) is printed and retried every {@value #RETRY_MILLIS} ms with
 * the state of that time; the agent never stops the thread it shares with the journal's space keeper.
 */
public final class TradingScheduler implements Agent {
    /** The user and reason of the commands it writes. */
    public static final String NAME = "schedule";
    /** How long after a failed append it tries again. */
    public static final long RETRY_MILLIS = 1_000;

    private static final long NAME_CODE = ShortTextLongConverter.INSTANCE.parse(NAME);

    /** What the scheduler last wrote for an instrument (or for all). */
    private enum Written {
        NOTHING,
        OPEN,
        CLOSED
    }

    private final TradingSchedule schedule;
    private final AdminJournal journal;
    private final EpochClock clock;
    private final Written[] written;
    private final AdminCommand command = new AdminCommand();
    private long nextCheckMillis = Long.MIN_VALUE;
    private boolean failing;

    /** @param journal the admin journal to append to; the scheduler closes it when it closes */
    public TradingScheduler(final TradingSchedule schedule, final AdminJournal journal, final EpochClock clock) {
        this.schedule = schedule;
        this.journal = journal;
        this.clock = clock;
        written = new Written[schedule.sharedByAll() ? 1 : schedule.instrumentCount()];
        Arrays.fill(written, Written.NOTHING);
    }

    /** Appends what the schedule says for now when it has passed a boundary (or on its first turn); else nothing. */
    @Override
    public int doWork() {
        final long now = clock.time();
        if (now < nextCheckMillis) {
            return 0;
        }
        final Instant time = Instant.ofEpochMilli(now);
        int appended = 0;
        try {
            for (int i = 0; i < written.length; i++) {
                final Written wanted = schedule.isOpen(i, time) ? Written.OPEN : Written.CLOSED;
                if (written[i] != wanted) {
                    append(wanted, schedule.sharedByAll() ? 0 : schedule.symbol(i), time);
                    written[i] = wanted;
                    appended++;
                }
            }
        } catch (final RuntimeException e) {
            System.err.println("engine: trading schedule: cannot append to the admin journal, retrying in "
                    + RETRY_MILLIS + " ms: " + e);
            failing = true;
            nextCheckMillis = now + RETRY_MILLIS;
            return appended;
        }
        if (failing) {
            failing = false;
            System.out.println("engine: trading schedule: the admin journal takes commands again");
        }
        final Instant next = schedule.nextBoundaryAfter(time);
        nextCheckMillis = next == null ? Long.MAX_VALUE : next.toEpochMilli();
        return appended;
    }

    private void append(final Written state, final long symbol, final Instant time) {
        command.action(state == Written.OPEN ? AdminAction.OPEN_TRADING : AdminAction.CLOSE_TRADING)
                .gatewayId(0).session(0).symbol(symbol).sequence(0, 0).reason(NAME_CODE).user(NAME_CODE);
        command.metaData().commandWriting(SluiceClock.nowTicks());
        final long eventId = journal.append(command);
        System.out.println("engine: trading schedule: " + command.action() + " "
                + (symbol == 0 ? "for all instruments" : ShortTextLongConverter.INSTANCE.asString(symbol))
                + " at " + time + " (admin event " + eventId + ")");
    }

    /** @return the wall-clock time (epoch ms) of the next boundary it waits for; Long.MAX_VALUE if none */
    public long nextCheckMillis() {
        return nextCheckMillis;
    }

    @Override
    public void onClose() {
        journal.close();
    }

    @Override
    public String roleName() {
        return "trading scheduler";
    }
}
