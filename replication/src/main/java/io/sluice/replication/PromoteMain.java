package io.sluice.replication;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.NoOpGatewayRecords;
import io.sluice.contracts.NoOpGatewayToEngine;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * {@code ./sluice promote --root DIR [--bootstrap-servers HOSTS]}: makes a replica root the deployment's primary, the
 * step of a standby takeover between "the primary is stopped or fenced" and "start the engine and gateways on the
 * standby". In order, refusing (exit {@value ReplicateMain#EXIT_REFUSED}, nothing changed) at the first problem:
 * <ol>
 *   <li>no receiver writes the root ({@link RootLock}, held until the end, so none starts meanwhile);</li>
 *   <li>the root is a replica ({@link RootIdentity}: a promoted root is reported and left as it is, exit 0);</li>
 *   <li>with {@code --bootstrap-servers}: no transaction of the deployment's shipper is being completed (a commit's
 *   markers are written partition by partition, so until they all are, some topics show the transaction's records and
 *   others not yet): it waits up to {@link #COMPLETION_WAIT} for that, else refuses naming the state; then the replica
 *   holds every record Kafka holds of every topic of its deployment (each topic's last committed record against the
 *   journal's last index); without it, neither is checked, and it says so;</li>
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
    /** How long promote waits for Kafka to complete a shipper's transaction it finds being committed or aborted. */
    static final Duration COMPLETION_WAIT = Duration.ofSeconds(30);
    /** How often it asks again meanwhile. */
    private static final long COMPLETION_POLL_NANOS = 50_000_000L;
    /** The states of a transaction whose outcome is decided but whose markers are still being written. */
    private static final Set<TransactionState> COMPLETING = EnumSet.of(TransactionState.PREPARE_COMMIT,
            TransactionState.PREPARE_ABORT, TransactionState.PREPARE_EPOCH_FENCE);

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

    /** Promotes {@code root} (see the class comment): @return the exit code, having printed what it did or why not */
    static int promote(final Path root, final String bootstrapServers) {
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
                awaitNoCommitInProgress(identity.deployment(), bootstrapServers);
                requireCaughtUp(identity.deployment(), bootstrapServers, root);
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
            throw new java.io.UncheckedIOException("cannot list " + root.toAbsolutePath(), e);
        }
        for (final Path dir : dirs) {
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
     * Waits (at most {@link #COMPLETION_WAIT}) until no transaction of the shipper of {@code deployment} is being
     * completed ({@code PrepareCommit}, {@code PrepareAbort}: its outcome decided, its markers written partition by
     * partition), so that the committed indexes read next are those of whole transactions.
     *
     * @throws ReplicationRefusedException if one still is after the wait (naming its state), or Kafka cannot tell
     */
    private static void awaitNoCommitInProgress(final String deployment, final String servers) {
        final String transactionalId = Shipper.transactionalId(deployment);
        final long deadline = System.nanoTime() + COMPLETION_WAIT.toNanos();
        boolean waiting = false;
        try (Admin admin = Admin.create(Shipper.adminProperties(servers, "sluice-promote"))) {
            while (true) {
                final TransactionState state = shipperTransactionState(admin, transactionalId, servers);
                if (state == null || !COMPLETING.contains(state)) {
                    System.out.println(ROLE + ": no transaction of the shipper (transactional.id " + transactionalId
                            + ") is being completed (" + (state == null ? "Kafka knows no such transactional.id"
                            : "state " + state) + ")");
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new ReplicationRefusedException(ROLE + ": refused: a transaction of the shipper (transactional.id "
                            + transactionalId + ") is still in state " + state + " after " + COMPLETION_WAIT.toSeconds()
                            + " s: Kafka has not finished writing its markers, so which records are committed cannot be "
                            + "read yet. Check the brokers (the transaction coordinator), then promote again.");
                }
                if (!waiting) {
                    waiting = true;
                    System.out.println(ROLE + ": a transaction of the shipper (transactional.id " + transactionalId
                            + ") is in state " + state + ": its markers are written partition by partition; waiting up to "
                            + COMPLETION_WAIT.toSeconds() + " s for Kafka to complete it before reading what is committed");
                }
                LockSupport.parkNanos(COMPLETION_POLL_NANOS);
            }
        }
    }

    /**
     * @return the state of the transactional.id's current transaction, or null if Kafka knows no such id (no shipper
     * ever ran)
     * @throws ReplicationRefusedException if Kafka does not answer
     */
    private static TransactionState shipperTransactionState(final Admin admin, final String transactionalId,
                                                            final String servers) {
        try {
            return admin.describeTransactions(List.of(transactionalId)).description(transactionalId)
                    .get(KAFKA_WAIT.toMillis(), TimeUnit.MILLISECONDS).state();
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof TransactionalIdNotFoundException) {
                return null;
            }
            throw cannotTell(transactionalId, servers, String.valueOf(e.getCause()));
        } catch (final TimeoutException e) {
            throw cannotTell(transactionalId, servers, "no answer in " + KAFKA_WAIT.toSeconds() + " s");
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw cannotTell(transactionalId, servers, "interrupted");
        }
    }

    private static ReplicationRefusedException cannotTell(final String transactionalId, final String servers,
                                                          final String why) {
        return new ReplicationRefusedException(ROLE + ": refused: cannot read the state of the shipper's transactions "
                + "(transactional.id " + transactionalId + ") from kafka at " + servers + " (" + why + "): cannot tell "
                + "whether a commit is half written. Make Kafka reachable, or promote without --bootstrap-servers knowing "
                + "that.");
    }

    private static void requireCaughtUp(final String deployment, final String servers, final Path root) {
        final List<String> behind = new ArrayList<>();
        try {
            for (final Map.Entry<String, Long> kafka : CommittedRecords.lastIndexes(servers, deployment, KAFKA_WAIT).entrySet()) {
                final long local = lastIndex(root.resolve(kafka.getKey()));
                if (local < kafka.getValue()) {
                    behind.add(kafka.getKey() + " holds excerpts up to " + IndexText.of(local) + ", Kafka has committed up to "
                            + IndexText.of(kafka.getValue()));
                }
            }
        } catch (final KafkaException e) {
            throw new ReplicationRefusedException(ROLE + ": refused: cannot read the last committed records of deployment "
                    + deployment + "'s topics from kafka at " + servers + " (" + e.getMessage() + "): cannot tell whether "
                    + "the replica holds everything Kafka holds. Make Kafka reachable, or promote without --bootstrap-servers"
                    + " knowing that.");
        }
        if (!behind.isEmpty()) {
            throw new ReplicationRefusedException(ROLE + ": refused: the replica is behind Kafka: " + String.join("; ", behind)
                    + ". Let a receiver catch up (./sluice replicate, mode: receive), stop it, then promote.");
        }
        System.out.println(ROLE + ": the replica holds every record Kafka holds of deployment " + deployment);
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
