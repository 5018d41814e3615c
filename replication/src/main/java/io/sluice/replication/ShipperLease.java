package io.sluice.replication;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.PrimaryLease;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.admin.AdminJournal;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The primary's lease as its shipper keeps it, told to the engine through the admin journal. The engine reads no clock,
 * so the shipper, which knows whether Kafka takes its writes, appends {@link AdminAction#LEASE_LAPSED} when Kafka has
 * acknowledged none of its writes sent in the last {@link ReplicationConfig#leaseMillis()}, {@link
 * AdminAction#LEASE_REGAINED} when Kafka acknowledges one sent after that, and {@link AdminAction#FENCED} when a newer
 * primary fenced it; the engine then rejects new orders and replaces ({@link PrimaryLease}), and replay, replicas and
 * shadows reach the same state from the same records. What the engine holds is the last of these commands in the
 * admin journal: read at start, so a restarted shipper knows it. The lease runs from the first write Kafka
 * acknowledges: before it, nothing is told (a shipper starting while Kafka starts does not stop the trading). A root
 * whose engine was told FENCED is never shipped again. Runs on the shipper's agent thread; acknowledgements come from
 * Kafka's I/O thread too ({@link #acknowledged}).
 */
final class ShipperLease implements AutoCloseable {
    private static final long USER = ShortTextLongConverter.INSTANCE.parse("shipper");
    /** {@link #acknowledgedSentNanos} before Kafka first acknowledged a write: no lease is held yet, none can lapse. */
    private static final long NEVER = Long.MIN_VALUE;

    private final Path root;
    private final String deployment;
    private final long leaseNanos;
    private final NanoClock clock;
    /** The admin journal, opened once there is one: a root without one gets one only when the engine is told. */
    private AdminJournal admin;
    private final AdminCommand command = new AdminCommand();
    private PrimaryLease told;
    /** When the newest write Kafka acknowledged was sent (System.nanoTime()); {@link #NEVER} before the first. */
    private volatile long acknowledgedSentNanos = NEVER;
    /** When the lease lapsed, System.nanoTime(): only a write sent after it regains it. */
    private long lapsedNanos;

    /**
     * Reads what the engine of {@code config}'s root was last told, in its admin journal (none: the lease is held).
     *
     * @throws ReplicationRefusedException if it was told FENCED: the root is a fenced primary's, and never ships again
     */
    ShipperLease(final ReplicationConfig config, final NanoClock clock) {
        this.clock = clock;
        this.root = config.root();
        this.deployment = config.deployment();
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(config.leaseMillis());
        final PrimaryLease[] last = {PrimaryLease.HELD};
        if (Files.exists(Journals.adminJournal(root))) {
            admin = AdminJournal.open(root);
            admin.readAll((AdminCommands) read -> {
                if (read.action() == AdminAction.LEASE_LAPSED) {
                    last[0] = PrimaryLease.LAPSED;
                } else if (read.action() == AdminAction.LEASE_REGAINED) {
                    last[0] = PrimaryLease.HELD;
                } else if (read.action() == AdminAction.FENCED) {
                    last[0] = PrimaryLease.FENCED;
                }
            });
        }
        told = last[0];
        if (told == PrimaryLease.FENCED) {
            close();
            throw new ReplicationRefusedException(Shipper.ROLE + ": refused: the root " + root.toAbsolutePath()
                    + " was fenced by a newer primary of deployment " + deployment + " (its admin journal says FENCED):"
                    + " it never ships again. Stand by with a new root, re-seeded from Kafka");
        }
        lapsedNanos = clock.nanoTime();
    }

    /** Kafka acknowledged a write sent at {@code sentNanos} (System.nanoTime()): from Kafka's I/O thread or the agent's. */
    synchronized void acknowledged(final long sentNanos) {
        final long newest = acknowledgedSentNanos;
        if (newest == NEVER || sentNanos - newest > 0) {
            acknowledgedSentNanos = sentNanos;
        }
    }

    /** Tells the engine the lease lapsed, or is held again, if that changed: @return 1 if it told it, else 0 */
    int check(final long nowNanos) {
        final long acknowledged = acknowledgedSentNanos;
        if (acknowledged == NEVER) {
            return 0;
        }
        if (told == PrimaryLease.HELD && nowNanos - acknowledged >= leaseNanos) {
            lapsedNanos = nowNanos;
            tell(PrimaryLease.LAPSED, AdminAction.LEASE_LAPSED, "Kafka has acknowledged none of its writes sent in the last "
                    + TimeUnit.NANOSECONDS.toMillis(nowNanos - acknowledged) + " ms (lease "
                    + TimeUnit.NANOSECONDS.toMillis(leaseNanos) + " ms): the engine rejects new orders and replaces until"
                    + " Kafka takes them again");
            return 1;
        }
        if (told == PrimaryLease.LAPSED && acknowledged - lapsedNanos > 0) {
            tell(PrimaryLease.HELD, AdminAction.LEASE_REGAINED, "Kafka acknowledged a write sent "
                    + TimeUnit.NANOSECONDS.toMillis(acknowledged - lapsedNanos) + " ms after the lease lapsed: the engine"
                    + " takes orders again");
            return 1;
        }
        return 0;
    }

    /** A newer primary fenced this one: tells the engine to reject new orders and replaces for good. */
    void fenced() {
        if (told != PrimaryLease.FENCED) {
            tell(PrimaryLease.FENCED, AdminAction.FENCED, "fenced by a newer primary of deployment " + deployment
                    + ": the engine rejects new orders and replaces for good; this root never ships again");
        }
    }

    private void tell(final PrimaryLease state, final AdminAction action, final String why) {
        if (admin == null) {
            admin = AdminJournal.open(root);
        }
        command.action(action).user(USER).reason(USER);
        command.metaData().clearTimestamps().commandWriting(SluiceClock.nowTicks());
        final long eventId = admin.append(command);
        told = state;
        System.out.println(Shipper.ROLE + ": lease " + state.name().toLowerCase() + " (admin command " + eventId + ", "
                + action + "): " + why);
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
        }
    }
}
