package io.sluice.replication;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.NoOpGatewayRecords;
import io.sluice.contracts.NoOpGatewayToEngine;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.ExcerptCount;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code ./sluice promote --root DIR [--bootstrap-servers HOSTS]}: makes a replica root the deployment's primary, the
 * step of a standby takeover between "the primary is stopped or fenced" and "start the engine and gateways on the
 * standby". In order, refusing (exit {@value ReplicateMain#EXIT_REFUSED}, nothing changed) at the first problem:
 * <ol>
 *   <li>no receiver writes the root ({@link RootLock}, held until the end, so none starts meanwhile);</li>
 *   <li>the root is a replica ({@link RootIdentity}: a promoted root is reported and left as it is, exit 0);</li>
 *   <li>with {@code --bootstrap-servers}: the replica holds every excerpt the deployment's log holds (each journal's
 *   last excerpt in the log against the journal's last index); then it fences the deployment's shipper through Kafka
 *   (its {@code transactional.id}: the old primary's shipper can write nothing more) and checks again, as the fence
 *   makes final what that shipper had in flight; without it, neither is done, and it says so;</li>
 *   <li>every journal reads to its end with every record's checksum checked ({@link JournalReader});</li>
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
            return promote(root, bootstrapServers);
        } catch (final ReplicationRefusedException e) {
            System.err.println(e.getMessage());
            return ReplicateMain.EXIT_REFUSED;
        } catch (final CorruptJournalException e) {
            System.err.println(ROLE + ": refused: a damaged journal: " + e.getMessage());
            return ReplicateMain.EXIT_REFUSED;
        }
    }

    /** Whether a promotion still has to fence the deployment's shipper. */
    enum Fence {
        /** Fence it, between two checks that the replica has caught up ({@code ./sluice promote}). */
        FENCE,
        /** Already fenced by the caller (a {@link Standby}, whose claim fenced it): check once that it caught up. */
        DONE
    }

    /** Promotes {@code root} (see the class comment): @return the exit code, having printed what it did or why not */
    static int promote(final Path root, final String bootstrapServers) {
        return promote(root, bootstrapServers, Fence.FENCE);
    }

    /** As {@link #promote(Path, String)}, fencing only if {@code fence} says so. */
    static int promote(final Path root, final String bootstrapServers, final Fence fence) {
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
            final Map<String, Long> counts = verify(root);
            if (bootstrapServers == null) {
                System.out.println(ROLE + ": NOT checked against Kafka (no --bootstrap-servers): if the receiver had "
                        + "not caught up, records Kafka holds are missing here");
            } else {
                requireCaughtUp(identity.deployment(), bootstrapServers, root);
                if (fence == Fence.FENCE) {
                    fenceShipper(identity.deployment(), bootstrapServers);
                    requireCaughtUp(identity.deployment(), bootstrapServers, root); // what the fence made final
                }
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
     * Reads every journal under {@code root} to its end, every record's checksum checked.
     *
     * @return each journal's excerpt count, by name
     * @throws CorruptJournalException naming journal, file, index and offset of a damaged record
     */
    static Map<String, Long> verify(final Path root) {
        final Map<String, Long> counts = new TreeMap<>();
        final List<Path> dirs = new ArrayList<>();
        try (Stream<Path> children = Files.list(root)) {
            // A journal's directory without metadata.cq4t holds no journal: only the writer lock of a process that was
            // refused before it created one.
            children.filter(dir -> JournalName.parse(dir.getFileName().toString()) != null)
                    .filter(dir -> Files.exists(dir.resolve("metadata.cq4t"))).forEach(dirs::add);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + root.toAbsolutePath(), e);
        }
        for (final Path dir : dirs) {
            if (!JournalName.parse(dir.getFileName().toString()).holdsCalls()) {
                // The market-data journal holds batches, not calls: counted, not decoded (its checksums unchecked here).
                try (ChronicleQueue journal = Journals.openReadOnly(dir)) {
                    counts.put(dir.getFileName().toString(), ExcerptCount.of(journal));
                }
                continue;
            }
            try (ChronicleQueue journal = Journals.openReadOnly(dir);
                 ExcerptTailer tailer = journal.createTailer();
                 JournalReader reader = new JournalReader(journal, tailer, discardEverything())) {
                long count = 0;
                while (reader.readOneToEnd()) {
                    count++;
                }
                counts.put(dir.getFileName().toString(), count);
            }
        }
        return counts;
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

    private static void requireCaughtUp(final String deployment, final String servers, final Path root) {
        final List<String> behind = new ArrayList<>();
        try {
            for (final Map.Entry<String, Long> kafka : LogRecords.lastIndexes(servers, deployment, KAFKA_WAIT).entrySet()) {
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
    static long lastIndex(final Path dir) {
        if (!Files.exists(dir.resolve("metadata.cq4t"))) {
            return -1;
        }
        try (ChronicleQueue journal = Journals.openReadOnly(dir)) {
            return Math.max(-1, journal.lastIndex());
        }
    }

    /** Takes every record of every journal type and keeps nothing: reading is the check. */
    private static Object[] discardEverything() {
        final AdminCommands adminCommands = new AdminCommands() {
            @Override
            public void adminCommand(final AdminCommand command) {
            }
        };
        return new Object[] {new NoOpEngineToGateway(), new NoOpGatewayToEngine(), new NoOpGatewayRecords(),
            adminCommands};
    }
}
