package io.sluice.replication;

import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.journal.JournalSpaceKeeper;
import io.sluice.runtime.process.LockHeldException;
import io.sluice.runtime.process.ProcessLock;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The receiving side of replication, as an Agrona agent: reads its deployment's log ({@link LogTopic}) and rebuilds
 * every journal under the replica root. The same excerpts at the same indexes, byte for byte ({@link ReplicaJournal}),
 * in the log's order: so the replica, at any instant, is a state the primary passed through.
 * <ul>
 *   <li><b>Commit point</b>: the local journals. At start (after a {@code kill -9} too) the replica holds a prefix of
 *   the log, whose end a binary search over offsets finds ({@link LogRecords#resumeOffset}); the last frame it holds
 *   must equal its excerpts, and no journal may reach past the log's last excerpt of it, or the replica diverges from
 *   the primary and is refused. No consumer group offsets are used.</li>
 *   <li><b>One writer</b>: it holds the writer lock ({@link ProcessLock#journalWriter}) of every journal it rebuilds,
 *   those already under the root from its start, before it claims the root as a replica, and each new one before it
 *   creates it; a journal another process writes refuses it, naming that process's pid, and a process that would write
 *   one of them is refused.</li>
 *   <li><b>Checks</b>: every excerpt must be exactly the next of its journal; a gap or a mismatch stops the receiver
 *   naming the journal, the index and the reason. An excerpt the log holds twice (same index, same bytes: an excerpt
 *   never changes) is skipped and counted.</li>
 *   <li><b>A broker that lost data</b>: a log start offset beyond what the replica needs, or a log that ends before the
 *   replica does, is reported and stops the receiver; nothing is skipped.</li>
 *   <li><b>Lag</b>: every {@code lagReportMillis} it prints the offsets behind the log's end ({@code ?} while Kafka is
 *   unreachable, which the line then says first, with since when: a consumer with no broker connection for
 *   {@value #NO_CONNECTION_MILLIS} ms, or a topic listing unanswered for {@value #LISTING_MILLIS} ms) and per journal
 *   the age of the last excerpt written, in µs, from its writer's MetaData stamp (or the shipper's read time) to now.
 *   The same is in its counters file, {@code <root>/counters/receiver.counters} ({@link ReplicationCounters}).</li>
 * </ul>
 */
public final class Receiver implements Agent {
    static final String ROLE = "receiver";
    static final long DISCOVERY_MILLIS = 1000;
    /** How often the lag counters are brought up to date. */
    static final long COUNTERS_MILLIS = 100;
    /**
     * The longest a poll waits for records: the consumer waits in its selector and returns as soon as a fetch answers,
     * so the receiver neither spins nor sleeps past a record's arrival; the lag line waits at most this.
     */
    static final Duration POLL_WAIT = Duration.ofMillis(20);
    /** How long a topic listing may go unanswered before Kafka is called unreachable (a partition: no connection drops). */
    static final long LISTING_MILLIS = 2000;
    /** How long the consumer may hold no broker connection before Kafka is called unreachable (a broker died). */
    static final long NO_CONNECTION_MILLIS = 250;

    /** Where the receiver is in its life. */
    private enum State {
        /** The deployment's log does not exist yet (no shipper has run) or Kafka has not answered. */
        AWAITING_LOG,
        /** Reading the log. */
        RECEIVING,
        /** Reading paused: a journal of the next frame has no disk reserved yet. */
        HELD
    }

    private final ReplicationConfig config;
    private final Path root;
    private final TopicPartition partition;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private KafkaLink link;
    private ReplicationCounters counters;
    private final List<ReplicaJournal> journals = new ArrayList<>();
    /** Keeps disk reserved ahead of every replica journal, on one background thread for them all. */
    private JournalSpaceKeeper spaceKeeper;
    private AgentThread spaceKeeperThread;
    private final LogFrameReader frame = new LogFrameReader();
    private final ExcerptCall call = new ExcerptCall();
    private final UnsafeBuffer excerptBuffer = new UnsafeBuffer(new byte[0]);
    private final CRC32C crc = new CRC32C();
    private State state = State.AWAITING_LOG;
    private RootLock lock;
    /** The writer lock of each journal it rebuilds, by name: held from start, or from when a journal is found. */
    private final Map<String, ProcessLock> writerLocks = new TreeMap<>();
    private Admin admin;
    private KafkaConsumer<byte[], byte[]> consumer;
    private LogRecords logRecords;
    private KafkaFuture<Set<String>> listing;
    private long listingSinceMillis;
    /** The consumer's count of open broker connections (its metric {@code connection-count}). */
    private Metric connectionCount;
    private long noConnectionSinceMillis = -1;
    private long nextDiscoveryMillis;
    private long nextLagReportMillis;
    private long nextCountersMillis;
    private long received;
    /** The log offset below which every record is in the replica's journals (-1 before it resumes), for any thread. */
    private final AtomicLong writtenBelow = new AtomicLong(-1);

    /**
     * @param nanoClock  the process's monotonic clock
     * @param epochClock the process's wall clock
     */
    public Receiver(final ReplicationConfig config, final NanoClock nanoClock, final EpochClock epochClock) {
        this.config = config;
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
        this.root = config.root();
        this.partition = new TopicPartition(LogTopic.of(config.deployment()), 0);
    }

    @Override
    public void onStart() {
        lock = RootLock.take(root, RootLock.Kind.RECEIVER, ROLE);
        lockJournalsThere();
        RootIdentity.claim(root, config.deployment(), RootIdentity.Role.REPLICA, ROLE);
        counters = new ReplicationCounters(root, ROLE);
        spaceKeeper = new JournalSpaceKeeper("replica journal space keeper", List.of(), nanoClock);
        spaceKeeperThread = AgentThread.startBackground(spaceKeeper);
        link = new KafkaLink(ROLE, config.bootstrapServers(), counters, epochClock);
        admin = Admin.create(KafkaClients.admin(config.bootstrapServers(), "sluice-receiver-admin"));
        consumer = new KafkaConsumer<>(KafkaClients.batchedConsumer(config.bootstrapServers(), "sluice-receiver-"
                + config.deployment(), config.fetchMinBytes(), config.fetchMaxWaitMillis()), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        logRecords = new LogRecords(config.bootstrapServers(), "sluice-receiver-resume-" + config.deployment(),
                config.deployment(), Duration.ofSeconds(10), nanoClock);
        for (final Map.Entry<MetricName, ? extends Metric> metric : consumer.metrics().entrySet()) {
            if (metric.getKey().name().equals("connection-count") && metric.getKey().group().equals("consumer-metrics")) {
                connectionCount = metric.getValue();
            }
        }
        openExistingJournals();
        System.out.println(ROLE + ": rebuilding the journals of deployment " + config.deployment() + " under "
                + root.toAbsolutePath() + " from the log " + partition.topic() + " at " + config.bootstrapServers());
    }

    private void openExistingJournals() {
        try (Stream<Path> children = Files.list(root)) {
            for (final Path dir : children.sorted().toList()) {
                final JournalName name = JournalName.parse(dir.getFileName().toString());
                if (name != null && Files.exists(dir.resolve("metadata.cq4t"))) {
                    open(name);
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list the replica root " + root.toAbsolutePath(), e);
        }
    }

    @Override
    public int doWork() {
        final long now = epochClock.time();
        int work = list(now);
        if (state != State.AWAITING_LOG) {
            final ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(POLL_WAIT);
            } catch (final OffsetOutOfRangeException e) {
                throw lostData(e.offsetOutOfRangePartitions());
            }
            for (final ConsumerRecord<byte[], byte[]> record : records) {
                if (!write(record)) {
                    break; // held: this record and the ones after it come again
                }
                work++;
            }
            writtenBelow.setRelease(consumer.position(partition)); // a held record is sought back to, so not past it
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

    /**
     * Writes the excerpts of one record of the log.
     *
     * @return false if a journal of it has no disk reserved yet: then nothing of it was written, and the log is paused
     * at it until there is
     */
    private boolean write(final ConsumerRecord<byte[], byte[]> record) {
        final LogFrame.Kind kind = wrap(record);
        if (kind == LogFrame.Kind.POSITIONS) {
            while (frame.next()) {
                journalOf(record); // every journal the shipper ships appears on the replica, also while it is empty
            }
            return true;
        }
        while (frame.next()) {
            if (!journalOf(record).mayWrite()) {
                consumer.seek(partition, record.offset());
                consumer.pause(List.of(partition));
                state = State.HELD;
                return false;
            }
        }
        wrap(record);
        final long nowTicks = SluiceClock.nowTicks();
        while (frame.next()) {
            final ReplicaJournal journal = journalOf(record);
            final long index = frame.index();
            final String notNext = journal.notNext(index);
            if (notNext != null) {
                if (index <= journal.lastIndex && journal.holds(index, frame.value(), frame.excerptOffset(),
                        frame.excerptLength())) {
                    journal.duplicates++;
                    continue;
                }
                throw ReplicationRefusedException.at(ROLE, journal.name, index, "the excerpt in the record at offset "
                        + record.offset() + " of " + record.topic() + ": " + notNext + (index <= journal.lastIndex
                        ? ", and its bytes differ from the replica's excerpt there: the replica diverges from the primary"
                        : ""));
            }
            journal.write(index, frame.value(), frame.excerptOffset(), frame.excerptLength());
            journal.lastStampTicks = stampOf(journal.name);
            journal.counters.records.incrementRelease();
            journal.counters.lagMicros.setRelease((nowTicks - journal.lastStampTicks) / SluiceClock.TICKS_PER_MICRO);
            received++;
        }
        return true;
    }

    /**
     * @return the log offset below which every record is in the replica's journals, -1 before the receiver resumed: a
     * replica holds everything the log holds once this reaches the log's end (safe from any thread)
     */
    public long writtenBelow() {
        return writtenBelow.getAcquire();
    }

    private LogFrame.Kind wrap(final ConsumerRecord<byte[], byte[]> record) {
        try {
            return frame.wrap(record.value());
        } catch (final IllegalArgumentException e) {
            throw new ReplicationRefusedException(ROLE + ": the record at offset " + record.offset() + " of "
                    + record.topic() + " is " + e.getMessage() + ": not a Sluice log frame");
        }
    }

    /** @return the replica journal the frame's current entry names, opened (created) if it is new */
    private ReplicaJournal journalOf(final ConsumerRecord<byte[], byte[]> record) {
        for (final ReplicaJournal journal : journals) {
            if (frame.nameEquals(journal.nameBytes)) {
                return journal;
            }
        }
        final String name = frame.name();
        final JournalName journal = JournalName.parse(name);
        if (journal == null) {
            throw new ReplicationRefusedException(ROLE + ": the record at offset " + record.offset() + " of "
                    + record.topic() + " holds an excerpt of '" + name + "', which is no journal name of a deployment");
        }
        return open(journal);
    }

    private ReplicaJournal open(final JournalName name) {
        lockWriter(name);
        final ReplicaJournal journal = new ReplicaJournal(name, root.resolve(name.name()), spaceKeeper);
        journal.counters = counters.journal(name.name());
        journals.add(journal);
        return journal;
    }

    /** Resumes reading once every journal has disk reserved again. */
    private void resumeHeld() {
        if (state != State.HELD) {
            return;
        }
        for (final ReplicaJournal journal : journals) {
            if (!journal.mayWrite()) {
                return;
            }
        }
        state = State.RECEIVING;
        consumer.resume(List.of(partition));
    }

    /** @return the SluiceClock time the current entry's writer stamped its excerpt with, else when the shipper read it */
    private long stampOf(final JournalName journal) {
        excerptBuffer.wrap(frame.value(), frame.excerptOffset(), frame.excerptLength());
        if (call.read(excerptBuffer, frame.excerptLength()) && call.holds(RecordLayout.BODY)) {
            final long stamp = switch (journal.kind()) {
                case GATEWAY_COMMANDS, ADMIN -> call.longAt(RecordLayout.COMMAND_WRITING);
                case ENGINE -> call.longAt(RecordLayout.REPORT_WRITING);
                case GATEWAY_OUT -> call.methodId() == RecordLayout.DELIVERED ? call.longAt(RecordLayout.FIX_SENT) : 0;
                case MARKET_DATA -> 0; // a batch holds no MetaData
            };
            if (stamp > 0) {
                return stamp;
            }
        }
        return frame.readTicks();
    }

    /**
     * Calls Kafka unreachable as soon as the consumer, which fetches from the log's leader and so keeps a connection to
     * it, has had no broker connection for {@link #NO_CONNECTION_MILLIS}: a broker that died closes its connections at
     * once, long before a topic listing times out. Kafka is up again when a listing answers.
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

    /**
     * Lists the topics every {@link #DISCOVERY_MILLIS} (asynchronously: also how an unanswering Kafka shows): until the
     * log exists, and then once, to resume. @return 1 once resumed
     */
    private int list(final long now) {
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
        for (final String topic : topics) {
            if (LogTopic.isOlderFormat(config.deployment(), topic)) {
                throw new ReplicationRefusedException(ROLE + ": refused: " + LogTopic.olderFormatRefusal(topic));
            }
        }
        if (state != State.AWAITING_LOG || !topics.contains(partition.topic())) {
            return 0;
        }
        try {
            resume();
        } catch (final KafkaException e) {
            link.unreachable("reading the log to resume: " + e.getMessage());
            return 0;
        } catch (final IllegalArgumentException e) {
            throw new ReplicationRefusedException(ROLE + ": refused: " + partition.topic() + " holds " + e.getMessage());
        }
        state = State.RECEIVING;
        return 1;
    }

    /**
     * Finds where the replica resumes in the log, from what its journals hold: after the last frame it holds whole
     * ({@link LogRecords#resumeOffset}). Refuses a replica whose excerpts are not what the log holds.
     */
    private void resume() {
        final LogRecords.Bounds bounds = logRecords.bounds();
        final Map<String, Long> replicaLast = new HashMap<>();
        for (final ReplicaJournal journal : journals) {
            if (journal.lastIndex >= 0) {
                replicaLast.put(journal.name.name(), journal.lastIndex);
            }
        }
        final String topic = partition.topic();
        final long next;
        if (replicaLast.isEmpty()) {
            if (bounds.start() > 0) {
                throw new ReplicationRefusedException(ROLE + ": refused: topic " + topic + " starts at offset "
                        + bounds.start() + " but the replica needs offset 0 next: the broker lost or deleted records the"
                        + " replica never received");
            }
            next = bounds.start();
        } else {
            next = logRecords.resumeOffset(replicaLast, bounds);
            if (next == bounds.start()) {
                throw new ReplicationRefusedException(ROLE + ": refused: the replica holds excerpts (" + replicaLast
                        + ") but not the first frame of " + topic + " (offsets " + bounds.start() + " to "
                        + bounds.end() + "): the replica diverges from the primary, the broker lost records, or this "
                        + "replica was fed from another Kafka cluster");
            }
            checkHolds(logRecords.firstExcerptsFrom(next - 1, next));
            checkNotPast(logRecords.lastExcerpts(bounds));
        }
        consumer.assign(List.of(partition));
        consumer.seek(partition, next);
        System.out.println(ROLE + ": resumes at offset " + next + " of " + topic + " after " + replicaLast + " ("
                + Math.max(0, bounds.end() - next) + " offsets to receive)");
    }

    /** Refuses a replica whose excerpts in {@code record}, the last frame it holds whole, have other bytes. */
    private void checkHolds(final ConsumerRecord<byte[], byte[]> record) {
        wrap(record);
        while (frame.next()) {
            final ReplicaJournal journal = journalOf(record);
            if (!journal.holds(frame.index(), frame.value(), frame.excerptOffset(), frame.excerptLength())) {
                throw ReplicationRefusedException.at(ROLE, journal.name, frame.index(), "the replica's excerpt differs "
                        + "from the one at offset " + record.offset() + " of " + record.topic() + ": the replica diverges"
                        + " from the primary");
            }
        }
    }

    /** Refuses a replica holding a journal past the log's last excerpt of it, or other bytes there. */
    private void checkNotPast(final Map<String, LogRecords.LastExcerpt> logLast) {
        for (final ReplicaJournal journal : journals) {
            if (journal.lastIndex < 0) {
                continue;
            }
            final LogRecords.LastExcerpt last = logLast.get(journal.name.name());
            if (last == null || journal.lastIndex > last.index()) {
                throw ReplicationRefusedException.at(ROLE, journal.name, journal.lastIndex, "the replica holds the "
                        + "journal up to here, past the log's last excerpt of it (" + (last == null ? "none"
                        : IndexText.of(last.index())) + "): the broker lost records, or the replica diverges from the "
                        + "primary");
            }
            if (journal.lastIndex == last.index()) {
                final byte[] local = journal.excerptAt(last.index());
                if (local == null || LogFrame.checksum(crc, local, 0, local.length) != last.checksum()) {
                    throw ReplicationRefusedException.at(ROLE, journal.name, journal.lastIndex, "the replica's last "
                            + "excerpt differs from the log's (CRC-32C): the replica diverges from the primary");
                }
            }
        }
    }

    private ReplicationRefusedException lostData(final Map<TopicPartition, Long> partitions) {
        final StringBuilder text = new StringBuilder(ROLE).append(": the broker no longer holds records the replica needs:");
        partitions.forEach((lost, offset) -> text.append(' ').append(lost.topic()).append(" offset ").append(offset));
        return new ReplicationRefusedException(text.append(" (deleted or lost): nothing is skipped, so the receiver stops").toString());
    }

    /** @return the offsets behind the log's end, or -1 while that is unknown (Kafka unreachable, not resumed yet) */
    private long behind() {
        if (link.state() == KafkaLink.State.UNREACHABLE || state == State.AWAITING_LOG) {
            return -1;
        }
        final OptionalLong behind = consumer.currentLag(partition);
        return behind.orElse(-1);
    }

    private void updateLagCounters() {
        final long behind = behind();
        for (final ReplicaJournal journal : journals) {
            journal.counters.lagMessages.setRelease(behind);
        }
    }

    private void reportLag() {
        // The log's end is only known while Kafka answers: the last end the consumer heard of would read "0 behind".
        final boolean reachable = link.state() != KafkaLink.State.UNREACHABLE;
        if (state == State.AWAITING_LOG && reachable) {
            return;
        }
        final long now = SluiceClock.nowTicks();
        final StringBuilder line = new StringBuilder(ROLE).append(": lag");
        if (!reachable) {
            line.append(" | ").append(link.describe());
        }
        final long behind = behind();
        line.append(" | log ").append(behind < 0 ? "?" : Long.toString(behind)).append(" behind");
        if (state == State.HELD) {
            line.append(" (held: a journal has no disk reserved yet)");
        }
        for (final ReplicaJournal journal : journals) {
            line.append(" | ").append(journal.name);
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
            consumer.close(Duration.ZERO); // no group, nothing to commit: nothing to wait for
        }
        if (logRecords != null) {
            logRecords.close();
        }
        if (admin != null) {
            admin.close(Duration.ZERO);
        }
        if (spaceKeeperThread != null) {
            spaceKeeperThread.close(); // closes every journal's space, before the journals
        }
        journals.forEach(ReplicaJournal::close);
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
