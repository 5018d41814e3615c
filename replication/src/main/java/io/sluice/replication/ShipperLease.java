package io.sluice.replication;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.counters.PrimaryLeaseGauges;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The primary's lease as its shipper keeps it: the shipper's side of it, what only the shipper knows. It publishes when
 * the newest write Kafka acknowledged was sent, and its lease, in its counters file ({@link PrimaryLeaseGauges}); the
 * lease watch in the engine process, which also sees a shipper that died or hangs, tells the engine when the lease
 * lapses and when it is held again. When a newer primary fenced it, the shipper itself appends {@link AdminAction#FENCED}
 * to the admin journal before it stops, and a root whose admin journal holds FENCED is never shipped again. Runs on
 * the shipper's agent thread; acknowledgements come from Kafka's I/O thread too ({@link #acknowledged}).
 */
final class ShipperLease {
    private static final long USER = ShortTextLongConverter.INSTANCE.parse("shipper");

    private final Path root;
    private final String deployment;
    private final ReplicationCounters counters;
    private final NanoClock clock;
    private final AdminCommand command = new AdminCommand();
    private boolean fencedTold;

    /**
     * Publishes the lease of {@code config} in {@code counters}, no write acknowledged yet; {@code clock}, the
     * process's, times an admin append's wait for another's.
     *
     * @throws ReplicationRefusedException if the root's admin journal says FENCED: the root is a fenced primary's, and
     *                                     never ships again
     */
    ShipperLease(final ReplicationConfig config, final ReplicationCounters counters, final NanoClock clock) {
        this.root = config.root();
        this.deployment = config.deployment();
        this.counters = counters;
        this.clock = clock;
        if (Files.exists(Journals.adminJournal(root))) {
            final boolean[] fenced = {false};
            try (AdminJournal admin = AdminJournal.open(root, clock)) {
                admin.readAll((AdminCommands) read -> fenced[0] |= read.action() == AdminAction.FENCED);
            }
            if (fenced[0]) {
                throw new ReplicationRefusedException(Shipper.ROLE + ": refused: the root " + root.toAbsolutePath()
                        + " was fenced by a newer primary of deployment " + deployment + " (its admin journal says"
                        + " FENCED): it never ships again. Stand by with a new root, re-seeded from Kafka");
            }
        }
        counters.leaseMillis.setRelease(config.leaseMillis());
    }

    /** Kafka acknowledged a write sent at {@code sentNanos} (System.nanoTime()): from Kafka's I/O thread or the agent's. */
    synchronized void acknowledged(final long sentNanos) {
        final long newest = counters.leaseAcknowledgedSent.get();
        if (newest == PrimaryLeaseGauges.NEVER || sentNanos - newest > 0) {
            counters.leaseAcknowledgedSent.setRelease(sentNanos);
        }
    }

    /** A newer primary fenced this one: tells the engine to reject new orders and replaces for good. Once. */
    void fenced() {
        if (fencedTold) {
            return;
        }
        fencedTold = true;
        command.action(AdminAction.FENCED).user(USER).reason(USER);
        command.metaData().clearTimestamps().commandWriting(SluiceClock.nowTicks());
        final long eventId;
        try (AdminJournal admin = AdminJournal.open(root, clock)) {
            eventId = admin.append(command);
        }
        System.out.println(Shipper.ROLE + ": lease fenced (admin command " + eventId + ", FENCED): fenced by a newer"
                + " primary of deployment " + deployment + ": the engine rejects new orders and replaces for good; this"
                + " root never ships again");
    }
}
