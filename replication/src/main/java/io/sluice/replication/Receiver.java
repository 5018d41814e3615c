package io.sluice.replication;

import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.process.LockHeldException;
import io.sluice.runtime.process.ProcessLock;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

/**
 * The receiving side of replication, as an Agrona agent: consumes every topic of its deployment
 * ({@link ReplicationTopics}) and rebuilds each journal under the replica root, the same excerpts at the same indexes,
 * byte for byte ({@link ReplicaJournal}).
 * <ul>
 *   <li><b>Commit point</b>: the local journal. At start (after a {@code kill -9} too) the topic's committed record
 *   carrying the journal's last index is looked up ({@link CommittedRecords}); it must equal the last excerpt's bytes,
 *   or the replica diverges from the primary and is refused; the next record to consume follows it. No consumer group
 *   offsets are used. It reads {@code read_committed}: only what a shipper committed.</li>
 *   <li><b>One writer</b>: it holds the writer lock ({@link ProcessLock#journalWriter}) of every journal it rebuilds,
 *   those already under the root from its start, before it claims the root as a replica; a journal another process
 *   writes refuses it, naming that process's pid, and a process that would write one of them is refused.</li>
 *   <li><b>Checks</b>: every record must be exactly the next excerpt; a gap or a mismatch stops the receiver naming the
 *   journal, the index and the reason. A record Kafka holds twice (same index, same bytes) is skipped and counted.</li>
 *   <li><b>A broker that lost data</b>: a log start offset beyond the next record needed, or a partition shorter than
 *   the replica journal, is reported and stops the receiver; nothing is skipped.</li>
 *   <li><b>Lag</b>: every {@code lagReportMillis} it prints, per journal, the offsets behind Kafka's last stable offset
 *   (records and transaction markers; {@code ?} while Kafka is unreachable, which the line then says first, with since
 *   when: a consumer with no broker connection for {@value #NO_CONNECTION_MILLIS} ms, or a topic listing unanswered for
 *   {@value #LISTING_MILLIS} ms) and the age of
 *   the last record written, in µs, from its writer's MetaData stamp (or the shipper's read time) to now. The records
 *   behind, the lag of the newest record when written, the records received and Kafka's state are in its counters file,
 *   {@code <root>/counters/receiver.counters} ({@link ReplicationCounters}), for {@code ./sluice stat} and
 *   {@code ./sluice metrics}.</li>
 * </ul>
 */
public final class Receiver implements Agent {
    static final String ROLE = "receiver";
    static final long DISCOVERY_MILLIS = 1000;
    /** How often the lag counters are brought up to date. */
    static final long COUNTERS_MILLIS = 100;
    /**
     * The longest a poll waits for records: the consumer waits in its selector and returns as soon as a fetch answers,
     * so the receiver neither spins nor sleeps past a record's arrival; discovery and the lag line wait at most this.
     */
    static final Duration POLL_WAIT = Duration.ofMillis(20);
    /** How long a topic listing may go unanswered before Kafka is called unreachable (a partition: no connection drops). */
    static final long LISTING_MILLIS = 2000;
    /** How long the consumer may hold no broker connection before Kafka is called unreachable (a broker died). */
    static final long NO_CONNECTION_MILLIS = 250;

    private final ReplicationConfig config;
    private final Path root;
    private KafkaLink link;
    private ReplicationCounters counters;
    private final Map<String, ReplicaJournal> journals = new TreeMap<>();
    private final Map<String, ReplicaJournal> byTopic = new HashMap<>();
    private final ExcerptCall call = new ExcerptCall();
    private final UnsafeBuffer excerptBuffer = new UnsafeBuffer(new byte[0]);
    private RootLock lock;
    /** The writer lock of each journal it rebuilds, by name: held from start, or from when a journal is found. */
    private final Map<String, ProcessLock> writerLocks = new TreeMap<>();
    private Admin admin;
    private KafkaConsumer<byte[], byte[]> consumer;
    private CommittedRecords committedRecords;
    private KafkaFuture<Set<String>> listing;
    private long listingSinceMillis;
    /** The consumer's count of open broker connections (its metric {@code connection-count}). */
    private Metric connectionCount;
    private long noConnectionSinceMillis = -1;
    private long nextDiscoveryMillis;
    private long nextLagReportMillis;
    private long nextCountersMillis;
    private long received;

    public Receiver(final ReplicationConfig config) {
        this.config = config;
        this.root = config.root();
    }

    @Override
    public void onStart() {
        lock = RootLock.take(root, RootLock.Kind.RECEIVER, ROLE);
        lockJournalsThere();
        RootIdentity.claim(root, config.deployment(), RootIdentity.Role.REPLICA, ROLE);
        counters = new ReplicationCounters(root, ROLE);
        link = new KafkaLink(ROLE, config.bootstrapServers(), counters);
        admin = Admin.create(Shipper.adminProperties(config.bootstrapServers(), "sluice-receiver-admin"));
        consumer = new KafkaConsumer<>(Shipper.consumerProperties(config.bootstrapServers(), "sluice-receiver-" + config.deployment()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        committedRecords = new CommittedRecords(config.bootstrapServers(), "sluice-receiver-resume-" + config.deployment(),
                Duration.ofSeconds(10));
        for (final Map.Entry<MetricName, ? extends Metric> metric : consumer.metrics().entrySet()) {
            if (metric.getKey().name().equals("connection-count") && metric.getKey().group().equals("consumer-metrics")) {
                connectionCount = metric.getValue();
            }
        }
        System.out.println(ROLE + ": rebuilding the journals of deployment " + config.deployment() + " under "
                + root.toAbsolutePath() + " from kafka at " + config.bootstrapServers());
    }

    @Override
    public int doWork() {
        final long now = System.currentTimeMillis();
        int work = discover(now);
        if (!byTopic.isEmpty()) {
            final ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(POLL_WAIT);
            } catch (final OffsetOutOfRangeException e) {
                throw lostData(e.offsetOutOfRangePartitions());
            }
            for (final ConsumerRecord<byte[], byte[]> record : records) {
                write(record);
                work++;
            }
            resumeHeld();
            watchConnections(now);
        }
        if (now >= nextCountersMillis) {
            nextCountersMillis = now + COUNTERS_MILLIS;
            updateLagCounters();
        }
        if (config.lagReportMillis() > 0 && now >= nextLagReportMillis) {
            nextLagReportMillis = now + config.lagReportMillis();
            reportLag();
        }
        return work;
    }

    private void write(final ConsumerRecord<byte[], byte[]> record) {
        final ReplicaJournal journal = byTopic.get(record.topic());
        if (journal.held) {
            return; // it comes again once disk is reserved for its journal
        }
        final long index;
        try {
            index = ReplicationTopics.indexOf(record);
        } catch (final ReplicationRefusedException e) {
            throw ReplicationRefusedException.at(ROLE, journal.name, -1, e.getMessage());
        }
        final byte[] bytes = record.value() == null ? new byte[0] : record.value();
        final String notNext = journal.notNext(index);
        if (notNext != null) {
            if (index <= journal.lastIndex && journal.holds(index, bytes)) {
                journal.duplicates++;
                return;
            }
            throw ReplicationRefusedException.at(ROLE, journal.name, index, "record at offset " + record.offset() + " of "
                    + record.topic() + ": " + notNext + (index <= journal.lastIndex ? ", and its bytes differ from the "
                    + "replica's excerpt there: the replica diverges from the primary" : ""));
        }
        if (!journal.write(index, bytes)) {
            journal.held = true; // no disk reserved yet: this record and the ones after it come again
            consumer.seek(journal.partition, record.offset());
            consumer.pause(List.of(journal.partition));
            return;
        }
        journal.lastStampTicks = stampOf(journal.name, bytes, record);
        journal.counters.records.incrementRelease();
        journal.counters.lagMicros.setRelease((SluiceClock.nowTicks() - journal.lastStampTicks) / SluiceClock.TICKS_PER_MICRO);
        received++;
    }

    /** Resumes the partitions of journals held for disk space that now have it reserved. */
    private void resumeHeld() {
        for (final ReplicaJournal journal : journals.values()) {
            if (journal.held && journal.mayWrite()) {
                journal.held = false;
                consumer.resume(List.of(journal.partition));
            }
        }
    }

    /** @return the SluiceClock time the excerpt's writer stamped it with, else when the shipper read it */
    private long stampOf(final JournalName journal, final byte[] bytes, final ConsumerRecord<byte[], byte[]> record) {
        excerptBuffer.wrap(bytes);
        if (call.read(excerptBuffer, bytes.length) && call.holds(RecordLayout.BODY)) {
            final long stamp = switch (journal.kind()) {
                case GATEWAY_COMMANDS, ADMIN -> call.longAt(RecordLayout.COMMAND_WRITING);
                case ENGINE -> call.longAt(RecordLayout.REPORT_WRITING);
                case GATEWAY_OUT -> call.methodId() == RecordLayout.DELIVERED ? call.longAt(RecordLayout.FIX_SENT) : 0;
            };
            if (stamp > 0) {
                return stamp;
            }
        }
        try {
            return ReplicationTopics.longHeader(record.headers(), ReplicationTopics.READ_HEADER);
        } catch (final IllegalStateException e) {
            return 0;
        }
    }

    /**
     * Calls Kafka unreachable as soon as the consumer, which has partitions to fetch from and so keeps a connection to
     * their leaders, has had no broker connection for {@link #NO_CONNECTION_MILLIS}: a broker that died closes its
     * connections at once, long before a topic listing times out. Kafka is up again when a listing answers.
     */
    private void watchConnections(final long now) {
        if (connectionCount == null || link.state() != KafkaLink.State.UP) {
            noConnectionSinceMillis = -1;
            return;
        }
        if (((Number) connectionCount.metricValue()).doubleValue() > 0) {
            noConnectionSinceMillis = -1;
        } else if (noConnectionSinceMillis < 0) {
            noConnectionSinceMillis = now;
        } else if (now - noConnectionSinceMillis >= NO_CONNECTION_MILLIS) {
            link.unreachable("no connection to any broker for " + (now - noConnectionSinceMillis) + " ms");
            noConnectionSinceMillis = -1;
        }
    }

    /** Looks for new topics of the deployment (asynchronously) and adds their journals: @return how many */
    private int discover(final long now) {
        if (listing == null) {
            if (now < nextDiscoveryMillis) {
                return 0;
            }
            nextDiscoveryMillis = now + DISCOVERY_MILLIS;
            listingSinceMillis = now;
            listing = admin.listTopics().names();
            return 0;
        }
        if (!listing.isDone()) {
            if (now - listingSinceMillis > LISTING_MILLIS) {
                link.unreachable("no answer to a topic listing in " + LISTING_MILLIS + " ms");
            }
            return 0;
        }
        final Set<String> topics;
        try {
            topics = listing.get();
        } catch (final ExecutionException e) {
            link.unreachable("listing topics: " + e.getCause());
            listing = null;
            return 0;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
        listing = null;
        link.up();
        final List<ReplicaJournal> added = new ArrayList<>();
        for (final String topic : topics) {
            final JournalName name = ReplicationTopics.journalOf(config.deployment(), topic);
            if (name == null || byTopic.containsKey(topic)) {
                continue;
            }
            lockWriter(name);
            final ReplicaJournal journal = new ReplicaJournal(name, new TopicPartition(topic, 0), root.resolve(name.name()));
            added.add(journal);
        }
        if (added.isEmpty()) {
            return 0;
        }
        final Map<TopicPartition, Long> positions = new HashMap<>();
        for (final TopicPartition partition : consumer.assignment()) {
            positions.put(partition, consumer.position(partition)); // resume() reassigns the consumer
        }
        try {
            resume(added);
        } catch (final org.apache.kafka.common.errors.TimeoutException e) {
            link.unreachable("reading the offsets of new topics: " + e.getMessage());
            added.forEach(ReplicaJournal::close);
            reassign(positions);
            return 0;
        }
        for (final ReplicaJournal journal : added) {
            journal.counters = counters.journal(journal.name.name());
            journals.put(journal.name.name(), journal);
            byTopic.put(journal.partition.topic(), journal);
        }
        reassign(positions);
        return added.size();
    }

    /** Assigns every journal's partition, at {@code positions} where known, else at the journal's excerpt count. */
    private void reassign(final Map<TopicPartition, Long> positions) {
        final List<TopicPartition> partitions = new ArrayList<>();
        byTopic.values().forEach(journal -> partitions.add(journal.partition));
        consumer.assign(partitions);
        for (final ReplicaJournal journal : byTopic.values()) {
            consumer.seek(journal.partition, positions.getOrDefault(journal.partition, journal.nextOffset));
            if (journal.held) {
                consumer.pause(List.of(journal.partition));
            }
        }
    }

    /**
     * Finds where each new journal resumes in its topic, from what the replica holds: the committed record carrying the
     * replica's last index, which must equal its last excerpt byte for byte; the next offset is the one after it. Offsets
     * do not count excerpts (transaction markers, aborted records), so it is looked up ({@link CommittedRecords}), from
     * offset {@code count - 1}, which it cannot be before.
     */
    private void resume(final List<ReplicaJournal> added) {
        for (final ReplicaJournal journal : added) {
            final CommittedRecords.Bounds bounds = committedRecords.bounds(journal.partition);
            final String topic = journal.partition.topic();
            if (journal.count == 0) {
                if (bounds.start() > 0) {
                    throw ReplicationRefusedException.at(ROLE, journal.name, journal.lastIndex, "topic " + topic
                            + " starts at offset " + bounds.start() + " but the replica needs offset 0 next: the broker lost"
                            + " or deleted records the replica never received");
                }
                journal.nextOffset = 0;
            } else {
                final ConsumerRecord<byte[], byte[]> record = committedRecords.firstFrom(journal.partition,
                        journal.count - 1, bounds, journal.lastIndex);
                if (record == null) {
                    throw ReplicationRefusedException.at(ROLE, journal.name, journal.lastIndex, "topic " + topic
                            + " holds no committed record at or after the replica's last excerpt (offsets " + bounds.start()
                            + " to " + bounds.stable() + "): the broker lost records (or this replica was fed from another"
                            + " Kafka cluster)");
                }
                final long index = CommittedRecords.indexOf(record);
                if (index != journal.lastIndex || !Arrays.equals(record.value(), journal.excerptAt(index))) {
                    throw ReplicationRefusedException.at(ROLE, journal.name, journal.lastIndex, "the replica's last "
                            + "excerpt is not in topic " + topic + " (its first committed record from offset "
                            + (journal.count - 1) + " on is index " + IndexText.of(index) + " at offset " + record.offset()
                            + (index == journal.lastIndex ? ", with other bytes" : "") + "; log start offset "
                            + bounds.start() + "): the replica diverges from the primary, or the broker lost records");
                }
                journal.nextOffset = record.offset() + 1;
            }
            System.out.println(ROLE + ": journal " + journal.name + " resumes at offset " + journal.nextOffset + " after "
                    + IndexText.of(journal.lastIndex) + " (" + Math.max(0, bounds.stable() - journal.nextOffset)
                    + " offsets to receive: records and transaction markers)");
        }
    }

    private ReplicationRefusedException lostData(final Map<TopicPartition, Long> partitions) {
        final StringBuilder text = new StringBuilder(ROLE).append(": the broker no longer holds records the replica needs:");
        partitions.forEach((partition, offset) -> text.append(' ').append(partition.topic()).append(" offset ").append(offset));
        return new ReplicationRefusedException(text.append(" (deleted or lost): nothing is skipped, so the receiver stops").toString());
    }

    private void updateLagCounters() {
        final boolean reachable = link.state() != KafkaLink.State.UNREACHABLE;
        for (final ReplicaJournal journal : journals.values()) {
            final OptionalLong behind = reachable ? consumer.currentLag(journal.partition) : OptionalLong.empty();
            journal.counters.lagMessages.setRelease(behind.orElse(-1));
        }
    }

    private void reportLag() {
        // Kafka's end is only known while Kafka answers: the last end the consumer heard of would read "0 behind".
        final boolean reachable = link.state() != KafkaLink.State.UNREACHABLE;
        if (journals.isEmpty() && reachable) {
            return;
        }
        final long now = SluiceClock.nowTicks();
        final StringBuilder line = new StringBuilder(ROLE).append(": lag");
        if (!reachable) {
            line.append(" | ").append(link.describe());
        }
        for (final ReplicaJournal journal : journals.values()) {
            final OptionalLong behind = reachable ? consumer.currentLag(journal.partition) : OptionalLong.empty();
            line.append(" | ").append(journal.name).append(' ')
                    .append(behind.isPresent() ? Long.toString(behind.getAsLong()) : "?").append(" behind");
            if (journal.lastStampTicks > 0) {
                line.append(", last ").append((now - journal.lastStampTicks) / SluiceClock.TICKS_PER_MICRO).append(" µs old");
            }
            if (journal.duplicates > 0) {
                line.append(", ").append(journal.duplicates).append(" duplicates skipped");
            }
        }
        line.append(" | ").append(received).append(" received");
        System.out.println(line);
    }

    @Override
    public void onClose() {
        if (consumer != null) {
            consumer.close();
        }
        if (committedRecords != null) {
            committedRecords.close();
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(1));
        }
        journals.values().forEach(ReplicaJournal::close);
        if (counters != null) {
            counters.close();
        }
        writerLocks.values().forEach(ProcessLock::close);
        if (lock != null) {
            lock.close();
        }
    }

    /**
     * Takes the writer lock of every journal already under the root, before the root is claimed as a replica: a root
     * whose journals another process writes (an engine or gateway, the root given by mistake) refuses the receiver
     * before it changes anything there.
     */
    private void lockJournalsThere() {
        try (Stream<Path> entries = Files.list(root)) {
            for (final Path dir : entries.sorted().toList()) {
                final JournalName name = JournalName.parse(dir.getFileName().toString());
                if (name != null && Files.isDirectory(dir)) {
                    lockWriter(name);
                }
            }
        } catch (final NoSuchFileException none) {
            // a new root: no journals yet
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list the replica root " + root.toAbsolutePath(), e);
        }
    }

    /**
     * Takes the writer lock of journal {@code name} unless held already: the receiver is the journal's one writer. The
     * admin journal's directory is created owner-only first, as on the primary: an engine or gateway promoted onto this
     * root refuses a wider one.
     */
    private void lockWriter(final JournalName name) {
        if (writerLocks.containsKey(name.name())) {
            return;
        }
        if (name.kind() == JournalName.Kind.ADMIN) {
            AdminJournal.createOwnerOnly(root);
        }
        try {
            writerLocks.put(name.name(), ProcessLock.journalWriter(root.resolve(name.name()), ROLE));
        } catch (final LockHeldException e) {
            throw new ReplicationRefusedException(ROLE + ": refused: " + e.getMessage());
        }
    }

    @Override
    public String roleName() {
        return ROLE;
    }
}
