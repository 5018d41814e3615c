package io.sluice.replication;

import net.openhft.chronicle.queue.impl.RollingChronicleQueue;
import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.replication.AcknowledgedIndexReader;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * The shipping side of replication, as an Agrona agent: tails every journal under a primary root (opened read-only,
 * so it can never slow or disturb a writer) and publishes each excerpt, bytes unchanged, to the journal's topic
 * ({@link ReplicationTopics}) through an idempotent producer with {@code acks=all}.
 * <ul>
 *   <li><b>Resume</b>: there is no local offset file. For each journal it reads the last record of its topic; the
 *   excerpt after that record's index is the next to ship. The record's bytes must equal the local excerpt at that
 *   index, and the topic must hold as many records as the journal has excerpts up to it, or the shipper refuses
 *   (another root shipped under this deployment, or a topic that lost or doubled records).</li>
 *   <li><b>Order and causality</b>: one partition per journal keeps each journal's order; the {@link CausalGate}
 *   holds an engine excerpt until its gateway input is acknowledged, and a gateway's sent-report record until the
 *   engine excerpt is.</li>
 *   <li><b>Kafka unreachable</b>: sends that cannot be taken are retried (the producer retries forever; an excerpt
 *   it refuses stays pending here), the state change is printed once, and the lag lines show the lag growing.</li>
 *   <li><b>Counters</b>: per journal, the highest index Kafka acknowledged (which gateways in acknowledged mode poll,
 *   {@link AcknowledgedIndexReader}), the records shipped, the lag in excerpts and in µs, and Kafka's state and errors,
 *   in the shipper's counters file, {@code <root>/counters/shipper.counters} ({@link ReplicationCounters}), for
 *   {@code ./sluice stat} and {@code ./sluice metrics}.</li>
 *   <li>New journals (a new gateway) are found by a look at the root every {@value #DISCOVERY_MILLIS} ms.</li>
 * </ul>
 * Not a hot path of the deployment: it runs in its own process, and allocates per excerpt (Kafka's records).
 */
public final class Shipper implements Agent {
    static final String ROLE = AcknowledgedIndexReader.SHIPPER_PROCESS;
    /** How often the root is looked at for new journals. */
    static final long DISCOVERY_MILLIS = 1000;
    /** How long Kafka may take to answer a resume query before it is called unreachable and retried. */
    static final long KAFKA_QUERY_MILLIS = 5000;
    /** How long unacknowledged excerpts may wait for any acknowledgement before Kafka is called unreachable. */
    static final long ACK_SILENCE_MILLIS = 10_000;
    /** How often the lag counters are brought up to date. */
    static final long COUNTERS_MILLIS = 100;
    /** The producer's batch.size: the most bytes of one journal's records in one produce request. */
    static final int BATCH_BYTES = 256 * 1024;
    /** The most excerpts one journal ships in one round before the next journal's turn. */
    static final int BATCH = 256;

    private final ReplicationConfig config;
    private final Path root;
    private KafkaLink link;
    private final CausalGate gate = new CausalGate();
    private final Map<String, ShippedJournal> journals = new LinkedHashMap<>();
    private final ExcerptCall call = new ExcerptCall();
    private final UnsafeBuffer excerptBuffer = new UnsafeBuffer(new byte[0]);
    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;
    private KafkaConsumer<byte[], byte[]> resumeConsumer;
    private ReplicationCounters counters;
    private long nextDiscoveryMillis;
    private long nextLagReportMillis;
    private long nextCountersMillis;
    /** What the producer's callback said, on this thread, while {@link #send} was in {@code producer.send}. */
    private Exception refusedInSend;

    public Shipper(final ReplicationConfig config) {
        this.config = config;
        this.root = config.root();
    }

    @Override
    public void onStart() {
        RootIdentity.claim(root, config.deployment(), RootIdentity.Role.PRIMARY, ROLE);
        counters = new ReplicationCounters(root, ROLE);
        link = new KafkaLink(ROLE, config.bootstrapServers(), counters);
        admin = Admin.create(adminProperties(config.bootstrapServers(), "sluice-shipper-admin"));
        producer = new KafkaProducer<>(producerProperties(config), new ByteArraySerializer(), new ByteArraySerializer());
        resumeConsumer = new KafkaConsumer<>(consumerProperties(config.bootstrapServers(), "sluice-shipper-resume"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        System.out.println(ROLE + ": shipping every journal under " + root.toAbsolutePath() + " as deployment "
                + config.deployment() + " to kafka at " + config.bootstrapServers() + " (topics "
                + ReplicationTopics.prefix(config.deployment()) + "<journal>, replication factor "
                + config.replicationFactor() + ", min.insync.replicas " + config.minInsyncReplicas() + ")");
    }

    @Override
    public int doWork() {
        final long now = System.currentTimeMillis();
        int work = 0;
        if (now >= nextDiscoveryMillis) {
            nextDiscoveryMillis = now + DISCOVERY_MILLIS;
            discover();
            work += resume();
        }
        for (final ShippedJournal journal : journals.values()) {
            if (journal.state != ShippedJournal.State.SHIPPING) {
                continue;
            }
            final Throwable failure = journal.failure.get();
            if (failure != null) {
                throw new ReplicationRefusedException(ROLE + ": kafka refused an excerpt of journal " + journal.name
                        + " for good (" + failure + "); nothing after it was taken. A restart resumes after the last "
                        + "record Kafka holds");
            }
            final int acknowledged = journal.processAcknowledgements(gate);
            if (acknowledged > 0) {
                journal.counters.acknowledgedIndex.setRelease(journal.processedIndex);
                journal.counters.records.getAndAddRelease(acknowledged);
                link.up();
                work++;
            }
            work += ship(journal);
        }
        watchAcknowledgements();
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

    /** Ships up to {@link #BATCH} excerpts of {@code journal}: @return how many */
    private int ship(final ShippedJournal journal) {
        int sent = 0;
        while (sent < BATCH && !journal.inFlightFull()) {
            if (journal.pending == null && !readNext(journal)) {
                break;
            }
            excerptBuffer.wrap(journal.pending);
            final boolean readable = call.read(excerptBuffer, journal.pending.length);
            checkReadable(journal, readable);
            if (readable && !gate.mayShip(journal.name, call)) {
                break;
            }
            final long eventId = journal.name.holdsEngineInputs() ? call.longAt(RecordLayout.EVENT_ID) : 0;
            if (!send(journal)) {
                break;
            }
            journal.sent(journal.pendingIndex, eventId, journal.pendingReadTicks);
            journal.pending = null;
            sent++;
        }
        return sent;
    }

    /** An engine excerpt or a command the gate cannot read stops the shipper: it cannot tell what it answers. */
    private void checkReadable(final ShippedJournal journal, final boolean readable) {
        final boolean needsMetaData = journal.name.kind() != JournalName.Kind.GATEWAY_OUT;
        if (needsMetaData && (!readable || !call.holds(RecordLayout.BODY))) {
            throw ReplicationRefusedException.at(ROLE, journal.name, journal.pendingIndex,
                    "the excerpt is not a record with MetaData, so the causal order cannot be kept");
        }
        if (readable && journal.name.kind() == JournalName.Kind.GATEWAY_OUT && call.methodId() == RecordLayout.SENT
                && !call.holds(RecordLayout.SENT_ENGINE_INDEX + Long.BYTES)) {
            throw ReplicationRefusedException.at(ROLE, journal.name, journal.pendingIndex,
                    "a sent-message record too short to hold its engine index");
        }
    }

    private boolean readNext(final ShippedJournal journal) {
        try (DocumentContext dc = journal.tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return false;
            }
            final Bytes<?> bytes = dc.wire().bytes();
            final byte[] copy = new byte[(int) bytes.readRemaining()];
            bytes.read(copy);
            journal.pending = copy;
            journal.pendingIndex = dc.index();
            journal.pendingReadTicks = SluiceClock.nowTicks();
            journal.lastReadIndex = journal.pendingIndex;
            return true;
        }
    }

    /**
     * @return true if the producer took the pending excerpt (it will be acknowledged, or fail for good); false if it
     * refused it at once (no metadata for the topic, no buffer space: Kafka unreachable), which it reports by calling
     * the callback on this thread before {@code send} returns: then nothing was queued, and the excerpt stays pending
     */
    private boolean send(final ShippedJournal journal) {
        final RecordHeaders headers = new RecordHeaders();
        headers.add(ReplicationTopics.INDEX_HEADER, ReplicationTopics.longHeader(journal.pendingIndex));
        headers.add(ReplicationTopics.READ_HEADER, ReplicationTopics.longHeader(journal.pendingReadTicks));
        final long index = journal.pendingIndex;
        final Thread sender = Thread.currentThread();
        refusedInSend = null;
        try {
            producer.send(new ProducerRecord<>(journal.topic, 0, null, null, journal.pending, headers), (metadata, e) -> {
                if (e == null) {
                    journal.acknowledgedIndex.set(index);
                    journal.lastAcknowledgedNanos = System.nanoTime();
                    // Wakes the agent if its idle strategy parked it: what the causal gate held behind this excerpt
                    // (and an acknowledged-mode gateway's next message) ships now, not after the park.
                    LockSupport.unpark(sender);
                } else if (Thread.currentThread() == sender) {
                    refusedInSend = e; // before send() returned: nothing was queued
                } else {
                    journal.failure.compareAndSet(null, e);
                }
            });
        } catch (final org.apache.kafka.common.errors.TimeoutException e) {
            refusedInSend = e;
        }
        if (refusedInSend != null) {
            link.unreachable("the producer could not take an excerpt of " + journal.name + ": " + refusedInSend.getMessage());
            return false;
        }
        return true;
    }

    /** Calls Kafka unreachable when excerpts wait and no acknowledgement came for {@link #ACK_SILENCE_MILLIS}. */
    private void watchAcknowledgements() {
        final long now = System.nanoTime();
        for (final ShippedJournal journal : journals.values()) {
            if (journal.inFlight() > 0
                    && now - journal.lastAcknowledgedNanos > TimeUnit.MILLISECONDS.toNanos(ACK_SILENCE_MILLIS)) {
                link.unreachable(journal.inFlight() + " excerpts of " + journal.name + " unacknowledged for "
                        + TimeUnit.NANOSECONDS.toMillis(now - journal.lastAcknowledgedNanos) + " ms");
                return;
            }
        }
    }

    /** Opens every journal under the root not yet known. */
    private void discover() {
        try (Stream<Path> entries = Files.list(root)) {
            for (final Path dir : entries.sorted().toList()) {
                final String name = dir.getFileName().toString();
                final JournalName journal = JournalName.parse(name);
                if (journal == null || journals.containsKey(name) || !Files.exists(dir.resolve("metadata.cq4t"))) {
                    continue;
                }
                journals.put(name, new ShippedJournal(journal, ReplicationTopics.topic(config.deployment(), name), dir));
                System.out.println(ROLE + ": found journal " + name);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list the journal root " + root.toAbsolutePath(), e);
        }
    }

    /** Resumes every journal still resuming, from what Kafka holds: @return how many resumed */
    private int resume() {
        final List<ShippedJournal> resuming = new ArrayList<>();
        for (final ShippedJournal journal : journals.values()) {
            if (journal.state == ShippedJournal.State.RESUMING) {
                resuming.add(journal);
            }
        }
        if (resuming.isEmpty()) {
            return 0;
        }
        try {
            createTopics(resuming);
            for (final ShippedJournal journal : resuming) {
                resume(journal);
            }
        } catch (final KafkaUnanswered e) {
            link.unreachable(e.getMessage());
            return 0;
        }
        link.up();
        return resuming.size();
    }

    private void createTopics(final List<ShippedJournal> resuming) {
        final List<NewTopic> topics = new ArrayList<>();
        for (final ShippedJournal journal : resuming) {
            topics.add(new NewTopic(journal.topic, 1, (short) config.replicationFactor()).configs(Map.of(
                    "min.insync.replicas", Integer.toString(config.minInsyncReplicas()),
                    "retention.ms", "-1",
                    "retention.bytes", "-1",
                    "unclean.leader.election.enable", "false")));
        }
        admin.createTopics(topics).values().forEach((topic, future) -> {
            try {
                future.get(KAFKA_QUERY_MILLIS, TimeUnit.MILLISECONDS);
            } catch (final ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new KafkaUnanswered("creating topic " + topic + ": " + e.getCause());
                }
            } catch (final TimeoutException e) {
                throw new KafkaUnanswered("creating topic " + topic + ": no answer in " + KAFKA_QUERY_MILLIS + " ms");
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaUnanswered("interrupted");
            }
        });
    }

    /** Learns from Kafka where {@code journal} resumes, checks that it fits the local journal, and starts shipping. */
    private void resume(final ShippedJournal journal) {
        final TopicPartition partition = new TopicPartition(journal.topic, 0);
        final Duration wait = Duration.ofMillis(KAFKA_QUERY_MILLIS);
        final long end;
        final long start;
        try {
            awaitMetadata(journal.topic);
            end = resumeConsumer.endOffsets(List.of(partition), wait).get(partition);
            start = resumeConsumer.beginningOffsets(List.of(partition), wait).get(partition);
        } catch (final org.apache.kafka.common.errors.TimeoutException e) {
            throw new KafkaUnanswered("reading the metadata and offsets of " + journal.topic + ": " + e.getMessage());
        }
        if (end == 0) {
            journal.tailer.toStart();
            start(journal, -1, "from its first excerpt (its topic is empty)");
            return;
        }
        if (start >= end) {
            throw ReplicationRefusedException.at(ROLE, journal.name, -1, "topic " + journal.topic + " holds no record any more"
                    + " (log start offset " + start + ", end offset " + end + "): Kafka lost or deleted them, so where to "
                    + "resume cannot be learnt");
        }
        final ConsumerRecord<byte[], byte[]> last = recordAt(partition, end - 1);
        final long index = ReplicationTopics.longHeader(last.headers(), ReplicationTopics.INDEX_HEADER);
        if (!journal.tailer.moveToIndex(index)) {
            throw ReplicationRefusedException.at(ROLE, journal.name, index, "Kafka's topic " + journal.topic
                    + " holds this index as its last record (offset " + (end - 1) + ") but the local journal has no excerpt"
                    + " there: this root is not the one its deployment's topics were shipped from");
        }
        final byte[] local;
        final long eventId;
        try (DocumentContext dc = journal.tailer.readingDocument()) {
            final Bytes<?> bytes = dc.wire().bytes();
            local = new byte[(int) bytes.readRemaining()];
            bytes.read(local);
        }
        if (!Arrays.equals(local, last.value())) {
            throw ReplicationRefusedException.at(ROLE, journal.name, index, "Kafka's last record of " + journal.topic
                    + " (offset " + (end - 1) + ") differs from the local excerpt at that index: the journal diverges from"
                    + " what was shipped");
        }
        final long excerptsUpToIt = ((RollingChronicleQueue) journal.queue).countExcerpts(journal.queue.firstIndex(), index) + 1;
        if (start == 0 && excerptsUpToIt != end) {
            throw ReplicationRefusedException.at(ROLE, journal.name, index, "topic " + journal.topic + " holds " + end
                    + " records up to this excerpt, the local journal " + excerptsUpToIt + ": records were lost or doubled");
        }
        excerptBuffer.wrap(local);
        eventId = journal.name.holdsEngineInputs() && call.read(excerptBuffer, local.length)
                ? call.longAt(RecordLayout.EVENT_ID) : 0;
        journal.acknowledgedIndex.set(index);
        journal.acknowledgedHere(gate, index, eventId);
        start(journal, index, "after " + IndexText.of(index) + ", the last of " + end + " records Kafka holds");
    }

    /** Has the producer learn {@code topic}'s metadata now, so that the first send does not wait for it. */
    private void awaitMetadata(final String topic) {
        final long deadline = System.currentTimeMillis() + KAFKA_QUERY_MILLIS;
        while (true) {
            try {
                producer.partitionsFor(topic);
                return;
            } catch (final org.apache.kafka.common.errors.TimeoutException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
            }
        }
    }

    private ConsumerRecord<byte[], byte[]> recordAt(final TopicPartition partition, final long offset) {
        resumeConsumer.assign(List.of(partition));
        resumeConsumer.seek(partition, offset);
        final long deadline = System.currentTimeMillis() + KAFKA_QUERY_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            for (final ConsumerRecord<byte[], byte[]> record : resumeConsumer.poll(Duration.ofMillis(100))) {
                if (record.offset() == offset) {
                    resumeConsumer.unsubscribe();
                    return record;
                }
            }
        }
        resumeConsumer.unsubscribe();
        throw new KafkaUnanswered("reading the last record of " + partition + " (offset " + offset + ")");
    }

    private void start(final ShippedJournal journal, final long acknowledgedIndex, final String where) {
        journal.counters = counters.journal(journal.name.name());
        journal.counters.acknowledgedIndex.setRelease(acknowledgedIndex);
        journal.lastReadIndex = acknowledgedIndex;
        journal.state = ShippedJournal.State.SHIPPING;
        System.out.println(ROLE + ": journal " + journal.name + " resumes " + where);
    }

    /** @return how many excerpts of {@code journal} Kafka does not hold yet: read or not, sent or not */
    private long behind(final ShippedJournal journal) {
        final long unread = journal.state == ShippedJournal.State.SHIPPING
                ? journal.excerptsAfter(journal.lastReadIndex) + (journal.pending != null ? 1 : 0)
                : journal.excerptsAfter(-1);
        return journal.inFlight() + unread;
    }

    private void updateLagCounters() {
        final long now = SluiceClock.nowTicks();
        for (final ShippedJournal journal : journals.values()) {
            if (journal.counters != null) {
                journal.counters.lagMessages.setRelease(behind(journal));
                final long oldest = journal.oldestUnacknowledgedReadTicks();
                journal.counters.lagMicros.setRelease(oldest == 0 ? 0 : (now - oldest) / SluiceClock.TICKS_PER_MICRO);
            }
        }
    }

    private void reportLag() {
        final StringBuilder line = new StringBuilder(ROLE).append(": lag");
        for (final ShippedJournal journal : journals.values()) {
            line.append(" | ").append(journal.name).append(' ').append(behind(journal)).append(" behind (")
                    .append(journal.inFlight()).append(" unacknowledged, ").append(journal.acknowledged)
                    .append(" acknowledged since start)");
            if (journal.pending != null && readPending(journal) && !gate.mayShip(journal.name, call)) {
                line.append(" held for ").append(gate.waitingFor(journal.name, call));
            }
        }
        line.append(" | ").append(link.describe());
        System.out.println(line);
    }

    private boolean readPending(final ShippedJournal journal) {
        excerptBuffer.wrap(journal.pending);
        return call.read(excerptBuffer, journal.pending.length);
    }

    /** @return the properties of an idempotent producer that never gives up on an excerpt */
    static Properties producerProperties(final ReplicationConfig config) {
        final Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "sluice-shipper-" + config.deployment());
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        properties.put(ProducerConfig.RETRIES_CONFIG, Integer.toString(Integer.MAX_VALUE));
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(Integer.MAX_VALUE));
        properties.put(ProducerConfig.LINGER_MS_CONFIG, Integer.toString(config.lingerMillis()));
        // Larger than the default 16 KiB: a journal catching up (after an outage, or flat out) ships in fewer requests.
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(BATCH_BYTES));
        // send() waits this long at most for a topic's metadata (fetched by resume() before the first send, but dropped
        // by the producer when a broker goes away) or buffer space; then it refuses the excerpt, which stays pending.
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "200");
        properties.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return properties;
    }

    static Properties adminProperties(final String servers, final String clientId) {
        final Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return properties;
    }

    static Properties consumerProperties(final String servers, final String clientId) {
        final Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        properties.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return properties;
    }

    @Override
    public void onClose() {
        if (producer != null) {
            try {
                producer.close(Duration.ofSeconds(2));
            } catch (final KafkaException ignored) {
                // closing on the way out; a restart resumes from what Kafka holds
            }
        }
        if (resumeConsumer != null) {
            resumeConsumer.close();
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(1));
        }
        journals.values().forEach(ShippedJournal::close);
        if (counters != null) {
            counters.close();
        }
    }

    @Override
    public String roleName() {
        return ROLE;
    }

    /** Kafka did not answer a query in time: retried at the next discovery. */
    private static final class KafkaUnanswered extends RuntimeException {
        KafkaUnanswered(final String message) {
            super(message, null, false, false);
        }
    }
}
