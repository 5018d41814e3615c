package io.sluice.replication;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice promote --root DIR [--bootstrap-servers HOSTS]}: makes a replica root the deployment's primary. It
 * is the step of a standby takeover between "the primary is stopped or fenced" and "start the engine and gateways on the
 * standby". In order, refusing (exit {@value ReplicateMain#EXIT_REFUSED}, nothing changed) at the first problem:
 * <ol>
 *   <li>no receiver writes the root ({@link RootLock}, held until the end, so none starts meanwhile);</li>
 *   <li>the root is a replica ({@link RootIdentity}: a promoted root is reported and left as it is, exit 0);</li>
 *   <li>with {@code --bootstrap-servers}: the replica holds every excerpt the deployment's log holds (each journal's
 *   last excerpt in the log against the journal's last index); then it fences the deployment's shipper through Kafka
 *   (its {@code transactional.id}: the old primary's shipper can write nothing more) and checks again, as the fence
 *   makes final what that shipper had in flight; without it, neither is done, and it says so;</li>
 *   <li>every journal reads to its end with every record's checksum checked ({@link JournalVerification});</li>
 *   <li>then the root's identity becomes {@code role: promoted}: a receiver that starts late refuses to write into it,
 *   and an engine or gateway, which refuse a replica root, start on it.</li>
 * </ol>
 * Exit codes: 0 promoted (or already promoted), {@value ReplicateMain#EXIT_BAD_CONFIG} not a replica root,
 * {@value ReplicateMain#EXIT_REFUSED} refused, {@value ReplicateMain#EXIT_FAILED} an unforeseen failure.
 */
@Command(name = "promote", mixinStandardHelpOptions = true,
        description = "Promotes a replica journal root to the deployment's primary, for a standby takeover.")
public final class PromoteMain implements Callable<Integer> {
    private static final String ROLE = "promote";
    private static final Duration KAFKA_WAIT = Duration.ofSeconds(15);
    @Option(names = "--root", required = true, paramLabel = "DIR", description = "the replica's journal root")
    private Path root;

    @Option(names = "--bootstrap-servers", paramLabel = "HOSTS",
            description = "Kafka, to check that the replica holds every record Kafka holds (recommended)")
    private String bootstrapServers;

    public static void main(final String[] args) {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
        System.exit(new CommandLine(new PromoteMain()).execute(args));
    }

    @Override
    public Integer call() {
        try {
            return promote(root, bootstrapServers, SystemNanoClock.INSTANCE);
        } catch (final ReplicationRefusedException e) {
            System.err.println(e.getMessage());
            return ReplicateMain.EXIT_REFUSED;
        } catch (final CorruptJournalException e) {
            System.err.println(ROLE + ": refused: a damaged journal: " + e.getMessage());
            return ReplicateMain.EXIT_REFUSED;
        }
    }

    /** Whether a promotion still has to fence the deployment's shipper and check the replica against the log. */
    enum Fence {
        /** Fence it, between two checks that the replica has caught up ({@code ./sluice promote}). */
        FENCE,
        /**
         * Done by the caller: a {@link Standby}, whose claim fenced the shipper and whose receiver then wrote every
         * record below the log's end, read after the fence ({@link Standby}'s catch-up).
         */
        DONE
    }

    /** Promotes {@code root} (see the class comment): @return the exit code, having printed what it did or why not */
    static int promote(final Path root, final String bootstrapServers, final NanoClock clock) {
        return promote(root, bootstrapServers, Fence.FENCE, clock);
    }

    /** As {@link #promote(Path, String, NanoClock)}, fencing only if {@code fence} says so. */
    static int promote(final Path root, final String bootstrapServers, final Fence fence, final NanoClock clock) {
        try (JournalVerification verification = new JournalVerification(root)) {
            return promote(root, bootstrapServers, fence, verification, clock);
        }
    }

    /**
     * As {@link #promote(Path, String, Fence, NanoClock)}, the journals' checksums checked by {@code verification}: read on to the
     * journals' ends from where it stands (a standby's verification has read what its receiver wrote before).
     */
    static int promote(final Path root, final String bootstrapServers, final Fence fence,
                       final JournalVerification verification, final NanoClock clock) {
        if (!Files.isDirectory(root)) {
            System.err.println(ROLE + ": " + root.toAbsolutePath() + " is no directory");
            return ReplicateMain.EXIT_BAD_CONFIG;
        }
        final RootIdentity.Recorded before = RootIdentity.read(root);
        if (!isReplica(before)) {
            return notReplicaExit(root, before); // no lock file left on a root that is no replica
        }
        try (RootLock lock = RootLock.take(root, RootLock.Kind.RECEIVER, ROLE)) {
            final RootIdentity.Recorded identity = RootIdentity.read(root); // again, now that no receiver can start
            if (!isReplica(identity)) {
                return notReplicaExit(root, identity);
            }
            verification.readToEnd();
            final Map<String, Long> counts = verification.counts();
            if (fence == Fence.DONE) {
                System.out.println(ROLE + ": fenced, and the replica holds what the log holds: checked by the caller");
            } else if (bootstrapServers == null) {
                System.out.println(ROLE + ": NOT checked against Kafka (no --bootstrap-servers): if the receiver had "
                        + "not caught up, records Kafka holds are missing here");
            } else {
                requireCaughtUp(identity.deployment(), bootstrapServers, root, clock);
                fenceShipper(identity.deployment(), bootstrapServers);
                requireCaughtUp(identity.deployment(), bootstrapServers, root, clock); // what the fence made final
            }
            RootIdentity.promote(root, identity.deployment());
            System.out.println(ROLE + ": promoted " + root.toAbsolutePath() + " (deployment " + identity.deployment()
                    + "): " + counts + " excerpts, every checksum checked. Start the engine and the gateways on it.");
            return 0;
        }
    }

    private static boolean isReplica(final RootIdentity.Recorded identity) {
        return identity != null && identity.role() == RootIdentity.Role.REPLICA;
    }

    /** @return the exit code for a root that is not a replica (0 if already promoted), having said what it is */
    private static int notReplicaExit(final Path root, final RootIdentity.Recorded identity) {
        if (identity != null && identity.role() == RootIdentity.Role.PROMOTED) {
            System.out.println(ROLE + ": " + root.toAbsolutePath() + " is already promoted (deployment "
                    + identity.deployment() + ")");
            return 0;
        }
        System.err.println(ROLE + ": " + root.toAbsolutePath() + " is no replica root (" + (identity == null
                ? "no " + RootIdentity.RELATIVE_PATH : "it is the primary of " + identity.deployment())
                + "): nothing to promote");
        return ReplicateMain.EXIT_BAD_CONFIG;
    }

    /**
     * Fences the deployment's shipper through Kafka: claims its {@code transactional.id}, which bumps the id's epoch and
     * aborts any transaction left open. From then on Kafka refuses every write of the old primary's shipper (it stops,
     * exit {@value ReplicateMain#EXIT_FENCED}, at its next write), so a gateway of the old primary in acknowledged mode
     * releases nothing more, and everything that shipper will ever have in the log is below the log's end.
     *
     * @throws ReplicationRefusedException if Kafka does not answer
     */
    private static void fenceShipper(final String deployment, final String servers) {
        final String transactionalId = KafkaClients.transactionalId(deployment);
        try (KafkaProducer<byte[], byte[]> fencer = new KafkaProducer<>(KafkaClients.fencer(servers, deployment),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            fencer.initTransactions();
        } catch (final KafkaException e) {
            throw new ReplicationRefusedException(ROLE + ": refused: cannot fence the deployment's shipper "
                    + "(transactional.id " + transactionalId + ") at kafka at " + servers + " (" + e.getMessage() + "). "
                    + "Make Kafka reachable, or promote without --bootstrap-servers knowing that the old primary's shipper"
                    + " may still write.");
        }
        System.out.println(ROLE + ": fenced the deployment's shipper (transactional.id " + transactionalId + "): Kafka "
                + "refuses its writes from now on");
    }

    private static void requireCaughtUp(final String deployment, final String servers, final Path root,
                                        final NanoClock clock) {
        final List<String> behind = new ArrayList<>();
        try {
            for (final Map.Entry<String, Long> kafka : LogRecords.lastIndexes(servers, deployment, KAFKA_WAIT, clock).entrySet()) {
                final long local = lastIndex(root.resolve(kafka.getKey()));
                if (local < kafka.getValue()) {
                    behind.add(kafka.getKey() + " holds excerpts up to " + IndexText.of(local) + ", the log up to "
                            + IndexText.of(kafka.getValue()));
                }
            }
        } catch (final KafkaException e) {
            throw new ReplicationRefusedException(ROLE + ": refused: cannot read where the journals end in deployment "
                    + deployment + "'s log from kafka at " + servers + " (" + e.getMessage() + "): cannot tell whether "
                    + "the replica holds everything Kafka holds. Make Kafka reachable, or promote without --bootstrap-servers"
                    + " knowing that.");
        }
        if (!behind.isEmpty()) {
            throw new ReplicationRefusedException(ROLE + ": refused: the replica is behind Kafka: " + String.join("; ", behind)
                    + ". Let a receiver catch up (./sluice replicate, mode: receive), stop it, then promote.");
        }
        System.out.println(ROLE + ": the replica holds every excerpt the log holds of deployment " + deployment);
    }

    /** @return the last index of the journal in {@code dir}, -1 if it has none (or does not exist) */
    private static long lastIndex(final Path dir) {
        if (!Files.exists(dir.resolve("metadata.cq4t"))) {
            return -1;
        }
        try (ChronicleQueue journal = Journals.openReadOnly(dir)) {
            return Math.max(-1, journal.lastIndex());
        }
    }
}
