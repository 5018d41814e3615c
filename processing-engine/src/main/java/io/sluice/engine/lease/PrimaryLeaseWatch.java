package io.sluice.engine.lease;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.PrimaryLease;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.counters.PrimaryLeaseGauges;
import io.sluice.runtime.counters.ShipperGauge;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Tells the engine when its primary's lease lapses and when it is held again, from the engine process itself. An Agrona
 * {@link Agent} on the engine's background thread that reads the lease the shipper publishes ({@link
 * PrimaryLeaseGauges}: when the newest write Kafka acknowledged was sent, and the lease) and appends {@link
 * AdminAction#LEASE_LAPSED} to the admin journal once none sent in the last lease was acknowledged, whatever the
 * reason: Kafka unreachable, the shipper killed, hung or stopped. It appends {@link AdminAction#LEASE_REGAINED} once a
 * write sent after the lapse is acknowledged (a shipper that reaches Kafka again, or one started again). The engine
 * acts on those as on any input, so replay, replicas and shadows reach the same state; the engine itself never reads a
 * clock. A FENCED the shipper appended is final: the watch appends nothing after it.
 * <p>
 * <b>When a lease exists.</b> The lease begins with the first write Kafka acknowledged that this watch saw: on a root no
 * shipper ever published a lease on (a deployment without replication), or while a shipper started with the engine
 * has not reached Kafka yet, it appends nothing. It remembers the newest acknowledged write of every shipper it saw, so
 * a shipper restarted after a {@code kill -9} holds the lease again only from its own first acknowledgement. What the
 * engine was last told is the last lease command in the admin journal, which it follows.
 * <p>
 * <b>Ready before it is needed.</b> It opens the admin journal and builds its reader when it is made, at the engine's
 * start, so the build generates that reader's class ({@code EngineCodegen}): a lapse finds nothing to open and nothing
 * for Chronicle to compile, which on a loaded host took seconds of the lease. It runs on a thread of its own, never
 * behind the engine's disk work.
 * <p>
 * <b>Cost.</b> A turn reads two gauges (memory reads) and the clock, and the admin journal's new commands (rare); it
 * allocates only when it appends.
 */
public final class PrimaryLeaseWatch implements Agent {
    /** The user and reason of the commands it writes. */
    public static final String NAME = "lease";
    /** How long after a failed append it tries again. */
    static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long NAME_CODE = ShortTextLongConverter.INSTANCE.parse(NAME);

    private final NanoClock clock;
    private final ShipperGauge acknowledgedSent;
    private final ShipperGauge leaseMillis;
    private final AdminCommand command = new AdminCommand();
    /** Appends the lease's commands; {@link #told} follows what the engine is told. */
    private final AdminJournal journal;
    private final MethodReader told;
    private PrimaryLease engineHolds = PrimaryLease.HELD;
    /** The newest acknowledged write's send time of every shipper seen, or {@link PrimaryLeaseGauges#NEVER}. */
    private long newestSentNanos = PrimaryLeaseGauges.NEVER;
    private long leaseNanos;
    /** When the engine was told (or found) LAPSED: only a write sent after it regains the lease. */
    private long lapsedNanos;
    private long retryNanos;

    /** @param clock the host's monotonic clock, the shipper's (System.nanoTime()) */
    public PrimaryLeaseWatch(final Path root, final NanoClock clock) {
        this.clock = clock;
        acknowledgedSent = new ShipperGauge(root, PrimaryLeaseGauges.ACKNOWLEDGED_SENT, PrimaryLeaseGauges.NEVER, clock);
        leaseMillis = new ShipperGauge(root, PrimaryLeaseGauges.LEASE_MILLIS, 0, clock);
        journal = AdminJournal.open(root, clock);
        told = journal.follow((AdminCommands) read -> {
            final AdminAction action = read.action();
            if (engineHolds == PrimaryLease.FENCED) {
                return;
            }
            if (action == AdminAction.FENCED) {
                engineHolds = PrimaryLease.FENCED;
            } else if (action == AdminAction.LEASE_LAPSED && engineHolds != PrimaryLease.LAPSED) {
                engineHolds = PrimaryLease.LAPSED;
                lapsedNanos = clock.nanoTime();
            } else if (action == AdminAction.LEASE_REGAINED) {
                engineHolds = PrimaryLease.HELD;
            }
        });
    }

    @Override
    public int doWork() {
        final long sent = acknowledgedSent.value();
        if (sent != PrimaryLeaseGauges.NEVER && (newestSentNanos == PrimaryLeaseGauges.NEVER
                || sent - newestSentNanos > 0)) {
            newestSentNanos = sent;
        }
        final long lease = leaseMillis.value();
        if (lease > 0) {
            leaseNanos = TimeUnit.MILLISECONDS.toNanos(lease);
        }
        if (newestSentNanos == PrimaryLeaseGauges.NEVER || leaseNanos == 0) {
            return 0; // no lease yet
        }
        final long now = clock.nanoTime();
        if (now - retryNanos < 0) {
            return 0;
        }
        try {
            return follow() + decide(now);
        } catch (final RuntimeException e) {
            System.err.println("engine: lease watch: cannot append to the admin journal, retrying in "
                    + TimeUnit.NANOSECONDS.toMillis(RETRY_NANOS) + " ms: " + e);
            retryNanos = now + RETRY_NANOS;
            return 0;
        }
    }

    /** Reads the lease commands appended since the last turn: @return how many commands were read */
    private int follow() {
        int read = 0;
        while (told.readOne()) {
            read++;
        }
        return read;
    }

    /** Appends LEASE_LAPSED or LEASE_REGAINED if the lease moved: @return 1 if it appended */
    private int decide(final long now) {
        if (engineHolds == PrimaryLease.HELD && (now - newestSentNanos >= leaseNanos || newestSentNanos - now > 0)) {
            lapsedNanos = now;
            append(AdminAction.LEASE_LAPSED, "no write acknowledged by Kafka within the lease ("
                    + TimeUnit.NANOSECONDS.toMillis(leaseNanos) + " ms): " + (newestSentNanos - now > 0
                    ? "the newest the shipper published was sent after now, before this host booted"
                    : "the newest the shipper published was sent " + TimeUnit.NANOSECONDS.toMillis(now - newestSentNanos)
                    + " ms ago") + " (Kafka unreachable, or the shipper gone); the engine rejects new orders and replaces"
                    + " until Kafka acknowledges a write the shipper sent after this");
            engineHolds = PrimaryLease.LAPSED;
            return 1;
        }
        if (engineHolds == PrimaryLease.LAPSED && newestSentNanos - lapsedNanos > 0 && now - newestSentNanos < leaseNanos) {
            append(AdminAction.LEASE_REGAINED, "Kafka acknowledged a write the shipper sent "
                    + TimeUnit.NANOSECONDS.toMillis(newestSentNanos - lapsedNanos) + " ms after the lease lapsed:"
                    + " the engine takes orders again");
            engineHolds = PrimaryLease.HELD;
            return 1;
        }
        return 0;
    }

    private void append(final AdminAction action, final String why) {
        command.action(action).gatewayId(0).session(0).symbol(0).sequence(0, 0).user(NAME_CODE).reason(NAME_CODE);
        command.metaData().clearTimestamps().commandWriting(SluiceClock.nowTicks());
        final long eventId = journal.append(command);
        System.out.println("engine: lease " + (action == AdminAction.LEASE_LAPSED ? "lapsed" : "held") + " (admin"
                + " command " + eventId + ", " + action + "): " + why);
    }

    @Override
    public void onClose() {
        acknowledgedSent.close();
        leaseMillis.close();
        journal.close();
    }

    /** @return the class of its admin journal reader, which the build must have generated (see the class doc) */
    Class<?> readerClass() {
        return told.getClass();
    }

    @Override
    public String roleName() {
        return "primary lease watch";
    }
}
