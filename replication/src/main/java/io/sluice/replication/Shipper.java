package io.sluice.replication;

import io.sluice.contracts.journal.ExcerptCount;
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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;
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
import java.util.stream.Stream;

/**
 * The shipping side of replication, as an Agrona agent: tails every journal under a primary root (opened read-only,
 * so it can never slow or disturb a writer) and publishes each excerpt, bytes unchanged, to the journal's topic
 * ({@link ReplicationTopics}) through a transactional producer with {@code acks=all}.
 * <ul>
 *   <li><b>Transactions</b>: Kafka's idempotence covers one producer session only; a killed shipper's sends could still
 *   be appended after its successor resumed before them. So the producer has a stable {@code transactional.id} per
 *   deployment: {@code initTransactions()} at start fences any earlier shipper and aborts the transaction it left open,
 *   and every reader (this shipper's resume, receivers, promote) reads {@code read_committed}. A transaction is
 *   committed once a round of the agent has shipped all there was (group commit), or every
 *   {@link ReplicationConfig#transactionMicros()}; an
 *   excerpt counts as acknowledged (the counter gateways in acknowledged mode poll, what the causal gate goes by) once
 *   committed. An aborted transaction (a send Kafka refused) makes every journal resume from Kafka again.</li>
 *   <li><b>Resume</b>: there is no local offset file. For each journal it reads the last committed record of its
 *   topic ({@link CommittedRecords}); the excerpt after that record's index is the next to ship. The record's bytes
 *   must equal the local excerpt at that index, or the shipper refuses (another root shipped under this deployment,
 *   or a journal that diverged).</li>
 *   <li><b>Order and causality</b>: one partition per journal keeps each journal's order; the {@link CausalGate}
 *   holds an engine excerpt until its gateway input is committed or sent in the open transaction (a commit is atomic
 *   across partitions), and a gateway's sent-report record until the engine excerpt is. While the open transaction
 *   holds a cause whose effect has not been read yet, it stays open up to {@link ReplicationConfig#commitWaitMicros()},
 *   so that a report's three records usually share one commit.</li>
 *   <li><b>One shipper per deployment</b>: a {@link RootLock} refuses a second shipper on the same root; a shipper whose
 *   producer a newer one of its deployment fenced stops ({@link ShipperFencedException}) instead of fencing it back.</li>
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
    /** How long sent, uncommitted excerpts may wait for any acknowledgement before Kafka is called unreachable. */
    static final long ACK_SILENCE_MILLIS = 10_000;
    /** How often the lag counters are brought up to date. */
    static final long COUNTERS_MILLIS = 100;
    /** The producer's batch.size: the most bytes of one journal's records in one produce request. */
    static final int BATCH_BYTES = 256 * 1024;
    /** The producer's transaction.timeout.ms: how long Kafka lets a transaction stay open before it aborts it. */
    static final int TRANSACTION_TIMEOUT_MILLIS = 10_000;
    /** The most excerpts one journal ships in one round before the next journal's turn. */
    static final int BATCH = 256;

    private final ReplicationConfig config;
    private final Path root;
    /** Held while this shipper runs: one shipper per root. */
    private RootLock lock;
    private KafkaLink link;
    private final CausalGate gate = new CausalGate();
    private final Map<String, ShippedJournal> journals = new LinkedHashMap<>();
    private final ExcerptCall call = new ExcerptCall();
    private final UnsafeBuffer excerptBuffer = new UnsafeBuffer(new byte[0]);
    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;
    private ProducerState producerState = ProducerState.INITIALIZING;
    /** The transaction open now, null between a commit (or abort) and the next excerpt sent. */
    private Transaction transaction;
    private long initializingSinceMillis;
    private CommittedRecords committedRecords;
    private ReplicationCounters counters;
    private long nextDiscoveryMillis;
    private long nextLagReportMillis;
    private long nextCountersMillis;
    /** What the producer's callback said, on this thread, while {@link #send} was in {@code producer.send}. */
    private Exception refusedInSend;
    /** Set while shipping when a journal's excerpts fill {@link ShippedJournal#MAX_IN_FLIGHT}: commit now. */
    private boolean transactionFull;
    /** Set while shipping when a journal had more to ship than {@link #BATCH}: the round did not catch up. */
    private boolean backlog;
    /** How many excerpts this round of the agent sent. */
    private int shippedThisRound;

    public Shipper(final ReplicationConfig config) {
        this.config = config;
        this.root = config.root();
    }

    @Override
    public void onStart() {
        lock = RootLock.take(root, RootLock.Kind.SHIPPER, ROLE);
        RootIdentity.claim(root, config.deployment(), RootIdentity.Role.PRIMARY, ROLE);
        counters = new ReplicationCounters(root, ROLE);
        link = new KafkaLink(ROLE, config.bootstrapServers(), counters);
        admin = Admin.create(adminProperties(config.bootstrapServers(), "sluice-shipper-admin"));
        producer = newProducer();
        initializingSinceMillis = System.currentTimeMillis();
        committedRecords = new CommittedRecords(config.bootstrapServers(), "sluice-shipper-resume",
                Duration.ofMillis(KAFKA_QUERY_MILLIS));
        System.out.println(ROLE + ": shipping every journal under " + root.toAbsolutePath() + " as deployment "
                + config.deployment() + " to kafka at " + config.bootstrapServers() + " (topics "
                + ReplicationTopics.prefix(config.deployment()) + "<journal>, replication factor "
                + config.replicationFactor() + ", min.insync.replicas " + config.minInsyncReplicas() + "), in transactions of "
                + "transactional.id " + transactionalId(config.deployment()) + " committed "
                + (config.transactionMicros() == 0 ? "once caught up (group commit)" : "every "
                + config.transactionMicros() + " µs"));
    }

    @Override
    public int doWork() {
        final long now = System.currentTimeMillis();
        int work = switch (producerState) {
            case INITIALIZING -> initialize(now);
            case COMMITTING -> commit();
            case ABORTING -> abort();
            case READY -> 0;
        };
        if (producerState == ProducerState.READY) {
            if (now >= nextDiscoveryMillis) {
                nextDiscoveryMillis = now + DISCOVERY_MILLIS;
                discover();
                work += resume();
            }
            transactionFull = false;
            backlog = false;
            shippedThisRound = 0;
            for (final ShippedJournal journal : journals.values()) {
                if (producerState != ProducerState.READY || transaction != null && transaction.failed()) {
                    break;
                }
                if (journal.state == ShippedJournal.State.SHIPPING) {
                    work += ship(journal);
                }
            }
            if (producerState == ProducerState.ABORTING) {
                work += abort();
            } else if (transaction != null && transaction.failed()) {
                startAbort(transaction.failure());
                work += abort();
            } else if (transaction != null && commitDue()) {
                producerState = ProducerState.COMMITTING;
                work += commit();
            }
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

    /**
     * Group commit: with {@code transactionMicros} 0, the open transaction is committed once a round has shipped all
     * there was (each journal caught up, or held by the causal gate), so that a trickle commits at once and a backlog
     * (a burst, a catch-up, a shipper slower than the writers) ships in few, large transactions; else once it has been
     * open {@code transactionMicros}. At once when a journal's excerpts fill it.
     * <p>
     * Effects in the cause's transaction: while the open transaction holds a cause whose effect the shipper has not read
     * yet (a command without its engine excerpt, an engine excerpt without a {@code sent} record,
     * {@link CausalGate#awaitsEffects()}), it stays open, for at most {@code commitWaitMicros} from its first excerpt, and
     * it is committed after a round that found nothing more to ship (so that the records a writer appends together,
     * such as the {@code sent} records of a report's two messages, share it). A gateway in acknowledged mode then waits
     * for one commit per report instead of one per causal step. The writers never wait for it: the shipper only tails.
     */
    private boolean commitDue() {
        if (transactionFull) {
            return true;
        }
        final long openNanos = System.nanoTime() - transaction.openedNanos;
        if (config.transactionMicros() > 0) {
            return openNanos >= config.transactionMicros() * 1000;
        }
        if (backlog) {
            return false;
        }
        return openNanos >= config.commitWaitMicros() * 1000 || shippedThisRound == 0 && !gate.awaitsEffects();
    }

    /**
     * Registers the shipper's transactional.id with Kafka: fences a shipper of the same deployment still running (a
     * killed one's producer, whose sends may still be in flight) and aborts the transaction it left open, so that none
     * of its records can become visible after this one has resumed. Retried every round while Kafka does not answer.
     */
    private int initialize(final long now) {
        try {
            producer.initTransactions();
        } catch (final org.apache.kafka.common.errors.TimeoutException e) {
            if (now - initializingSinceMillis > KAFKA_QUERY_MILLIS) {
                link.unreachable("initialising transactions (transactional.id " + transactionalId(config.deployment())
                        + "): " + e.getMessage());
            }
            return 0;
        }
        producerState = ProducerState.READY;
        nextDiscoveryMillis = 0;
        return 1;
    }

    /**
     * Commits the open transaction (flushing what it holds first): its excerpts become visible to every reader, and
     * count as acknowledged (the index a gateway in acknowledged mode waits for, and what the causal gate goes by). A
     * commit Kafka does not answer in time is retried every round, and nothing more is sent meanwhile.
     */
    private int commit() {
        try {
            producer.commitTransaction();
        } catch (final org.apache.kafka.common.errors.TimeoutException e) {
            return 0;
        } catch (final KafkaException e) {
            startAbort(e);
            return abort();
        }
        gate.committed();
        for (final ShippedJournal journal : journals.values()) {
            final int committed = journal.committed();
            if (committed > 0) {
                journal.counters.acknowledgedIndex.setRelease(journal.processedIndex);
                journal.counters.records.getAndAddRelease(committed);
            }
        }
        counters.commits.incrementRelease();
        transaction = null;
        producerState = ProducerState.READY;
        link.up();
        return 1;
    }

    private void startAbort(final Exception why) {
        checkNotFenced(why);
        checkNotForGood(why);
        System.out.println(ROLE + ": aborting the open transaction (" + why + "); every journal resumes from what Kafka "
                + "has committed");
        producerState = ProducerState.ABORTING;
    }

    /**
     * Aborts the open transaction; every journal then resumes from its last committed record, as after a restart. A
     * producer that cannot abort (fenced, or in a fatal state) is replaced: the new one's initialisation aborts what is
     * open. Retried every round while Kafka does not answer.
     */
    private int abort() {
        try {
            producer.abortTransaction();
            producerState = ProducerState.READY;
        } catch (final org.apache.kafka.common.errors.TimeoutException e) {
            return 0;
        } catch (final KafkaException e) {
            checkNotFenced(e);
            System.out.println(ROLE + ": the producer cannot abort (" + e + "): replacing it; its successor's "
                    + "initialisation aborts the open transaction");
            producer.close(Duration.ZERO);
            producer = newProducer();
            initializingSinceMillis = System.currentTimeMillis();
            producerState = ProducerState.INITIALIZING;
        }
        transaction = null;
        gate.aborted();
        for (final ShippedJournal journal : journals.values()) {
            journal.rewind();
        }
        nextDiscoveryMillis = 0;
        return 1;
    }

    /**
     * A producer fenced by a newer one of the same transactional.id (another shipper of this deployment called
     * {@code initTransactions()}) makes this shipper a zombie: it stops, rather than re-initialise and fence the other
     * back.
     */
    private void checkNotFenced(final Exception why) {
        for (Throwable e = why; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof org.apache.kafka.common.errors.ProducerFencedException) {
                throw new ShipperFencedException(config.deployment(), transactionalId(config.deployment()), why);
            }
        }
        if (transaction != null && transaction.failed() && transaction.failure() != why) {
            checkNotFenced(transaction.failure());
        }
    }

    /** An excerpt Kafka refuses for what it is (too large, invalid) would be refused again: stop, naming it. */
    private void checkNotForGood(final Exception why) {
        boolean forGood = false;
        for (Throwable e = transaction != null && transaction.failed() ? transaction.failure() : why; e != null;
             e = e.getCause() == e ? null : e.getCause()) {
            forGood |= e instanceof org.apache.kafka.common.errors.RecordTooLargeException
                    || e instanceof org.apache.kafka.common.errors.RecordBatchTooLargeException
                    || e instanceof org.apache.kafka.common.InvalidRecordException;
        }
        if (forGood) {
            throw new ReplicationRefusedException(ROLE + ": kafka refused an excerpt for good (" + why + (transaction != null
                    && transaction.failedJournal != null ? ", journal " + transaction.failedJournal + ", index "
                    + IndexText.of(transaction.failedIndex) : "") + "); nothing after it was committed. A restart resumes "
                    + "after the last record Kafka has committed");
        }
    }

    private KafkaProducer<byte[], byte[]> newProducer() {
        return new KafkaProducer<>(transactionalProducerProperties(config), new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    /** Ships up to {@link #BATCH} excerpts of {@code journal} in the open transaction: @return how many */
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
            if (!send(journal)) {
                break;
            }
            gate.sent(journal.name, readable ? call : null, journal.pendingIndex);
            journal.sent(journal.pendingIndex, journal.pendingReadTicks);
            journal.pending = null;
            sent++;
        }
        shippedThisRound += sent;
        if (sent == BATCH) {
            backlog = true;
        }
        if (journal.inFlightFull()) {
            transactionFull = true;
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
        if (transaction == null) {
            try {
                producer.beginTransaction();
            } catch (final KafkaException e) {
                startAbort(e);
                return false;
            }
            transaction = new Transaction(System.nanoTime());
        }
        final Transaction current = transaction;
        final RecordHeaders headers = new RecordHeaders();
        headers.add(ReplicationTopics.READ_HEADER, ReplicationTopics.longHeader(journal.pendingReadTicks));
        final long index = journal.pendingIndex;
        final Thread sender = Thread.currentThread();
        refusedInSend = null;
        try {
            producer.send(new ProducerRecord<>(journal.topic, 0, null, ReplicationTopics.indexKey(index), journal.pending,
                    headers), (metadata, e) -> {
                if (e == null) {
                    journal.lastAcknowledgedNanos = System.nanoTime();
                } else if (Thread.currentThread() == sender) {
                    refusedInSend = e; // before send() returned: nothing was queued
                } else {
                    current.fail(journal.name, index, e); // ignored if that transaction is already aborted
                }
            });
        } catch (final KafkaException e) {
            refusedInSend = e;
        }
        if (refusedInSend != null) {
            // The transaction cannot be committed now (the producer is in an abortable state): abort it and resume.
            link.unreachable("the producer could not take an excerpt of " + journal.name + ": " + refusedInSend.getMessage());
            current.fail(journal.name, index, refusedInSend);
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

    /**
     * Learns from Kafka where {@code journal} resumes (its topic's last committed record), checks that it is the local
     * excerpt at that index, byte for byte, and starts shipping after it.
     */
    private void resume(final ShippedJournal journal) {
        final TopicPartition partition = new TopicPartition(journal.topic, 0);
        final CommittedRecords.Bounds bounds;
        final ConsumerRecord<byte[], byte[]> last;
        try {
            awaitMetadata(journal.topic);
            bounds = committedRecords.bounds(partition);
            last = committedRecords.last(partition, bounds);
        } catch (final org.apache.kafka.common.errors.TimeoutException e) {
            throw new KafkaUnanswered("reading the metadata and last committed record of " + journal.topic + ": "
                    + e.getMessage());
        }
        if (last == null && bounds.start() == 0) {
            journal.tailer.toStart();
            start(journal, -1, "from its first excerpt (its topic holds no committed record)");
            return;
        }
        if (last == null) {
            throw ReplicationRefusedException.at(ROLE, journal.name, -1, "topic " + journal.topic + " holds no committed"
                    + " record any more (log start offset " + bounds.start() + ", last stable offset " + bounds.stable()
                    + "): Kafka lost or deleted them, so where to resume cannot be learnt");
        }
        final long index = CommittedRecords.indexOf(last);
        if (!journal.tailer.moveToIndex(index)) {
            throw ReplicationRefusedException.at(ROLE, journal.name, index, "Kafka's topic " + journal.topic
                    + " holds this index as its last committed record (offset " + last.offset() + ") but the local journal "
                    + "has no excerpt there: this root is not the one its deployment's topics were shipped from");
        }
        final byte[] local;
        final long eventId;
        try (DocumentContext dc = journal.tailer.readingDocument()) {
            final Bytes<?> bytes = dc.wire().bytes();
            local = new byte[(int) bytes.readRemaining()];
            bytes.read(local);
        }
        if (!Arrays.equals(local, last.value())) {
            throw ReplicationRefusedException.at(ROLE, journal.name, index, "Kafka's last committed record of "
                    + journal.topic + " (offset " + last.offset() + ") differs from the local excerpt at that index: the "
                    + "journal diverges from what was shipped");
        }
        excerptBuffer.wrap(local);
        eventId = journal.name.holdsEngineInputs() && call.read(excerptBuffer, local.length)
                ? call.longAt(RecordLayout.EVENT_ID) : 0;
        journal.resumesAfter(gate, index, eventId);
        start(journal, index, "after " + IndexText.of(index) + ", its last record Kafka has committed (offset "
                + last.offset() + ")");
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

    private void start(final ShippedJournal journal, final long acknowledgedIndex, final String where) {
        if (journal.counters == null) { // once: a journal resumes again after an aborted transaction, same counters
            journal.counters = counters.journal(journal.name.name());
        }
        journal.counters.acknowledgedIndex.setRelease(acknowledgedIndex);
        journal.lastReadIndex = acknowledgedIndex;
        journal.state = ShippedJournal.State.SHIPPING;
        System.out.println(ROLE + ": journal " + journal.name + " resumes " + where);
    }

    /**
     * @return how many excerpts of {@code journal} Kafka does not hold yet, read or not, sent or not; or
     * {@link ExcerptCount#UNKNOWN} at the instant its writer creates a cycle file
     */
    private long behind(final ShippedJournal journal) {
        final boolean shipping = journal.state == ShippedJournal.State.SHIPPING;
        final long after = journal.excerptsAfter(shipping ? journal.lastReadIndex : -1);
        if (after == ExcerptCount.UNKNOWN) {
            return ExcerptCount.UNKNOWN;
        }
        return journal.inFlight() + after + (shipping && journal.pending != null ? 1 : 0);
    }

    private void updateLagCounters() {
        final long now = SluiceClock.nowTicks();
        for (final ShippedJournal journal : journals.values()) {
            if (journal.counters != null) {
                final long behind = behind(journal);
                if (behind != ExcerptCount.UNKNOWN) { // else the last figure stands until the next report
                    journal.counters.lagMessages.setRelease(behind);
                }
                final long oldest = journal.oldestUnacknowledgedReadTicks();
                journal.counters.lagMicros.setRelease(oldest == 0 ? 0 : (now - oldest) / SluiceClock.TICKS_PER_MICRO);
            }
        }
    }

    private void reportLag() {
        final StringBuilder line = new StringBuilder(ROLE).append(": lag");
        for (final ShippedJournal journal : journals.values()) {
            line.append(" | ").append(journal.name).append(' ').append(behind(journal)).append(" behind (")
                    .append(journal.inFlight()).append(" uncommitted, ").append(journal.acknowledged)
                    .append(" committed since start)");
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

    /** @return the transactional id of the shipper of {@code deployment}: one shipper per deployment's primary root */
    static String transactionalId(final String deployment) {
        return "sluice-shipper-" + deployment;
    }

    /**
     * @return {@link #producerProperties} with the shipper's stable {@code transactional.id}: a restarted shipper's
     * {@code initTransactions()} fences the one before it and aborts its open transaction
     */
    static Properties transactionalProducerProperties(final ReplicationConfig config) {
        final Properties properties = producerProperties(config);
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(config.deployment()));
        // A transaction a shipper left open (killed, or cut off from Kafka) holds back every read_committed reader of its
        // topics until a new shipper's initTransactions() aborts it, or Kafka does after this long.
        properties.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.toString(TRANSACTION_TIMEOUT_MILLIS));
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
        // Only what a shipper committed: never a record of a transaction it aborted, or one a killed shipper left open.
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return properties;
    }

    @Override
    public void onClose() {
        if (producer != null) {
            finishTransaction();
            try {
                producer.close(Duration.ofSeconds(2));
            } catch (final KafkaException ignored) {
                // closing on the way out; a restart resumes from what Kafka holds
            }
        }
        if (committedRecords != null) {
            committedRecords.close();
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(1));
        }
        journals.values().forEach(ShippedJournal::close);
        if (counters != null) {
            counters.close();
        }
        if (lock != null) {
            lock.close();
        }
    }

    /**
     * On a graceful stop, commits the open transaction (what it holds passed the causal gate), else aborts it: a
     * transaction left open would hold back every reader of its topics until Kafka times it out.
     */
    private void finishTransaction() {
        final long deadline = System.currentTimeMillis() + 2000;
        while (transaction != null && System.currentTimeMillis() < deadline) {
            try {
                if (!transaction.failed() && producerState != ProducerState.ABORTING) {
                    producer.commitTransaction();
                } else {
                    producer.abortTransaction();
                }
                transaction = null;
            } catch (final org.apache.kafka.common.errors.TimeoutException e) {
                // not answered yet: again, until the deadline
            } catch (final KafkaException e) {
                return; // the producer cannot finish it: Kafka aborts it after transaction.timeout.ms
            }
        }
    }

    @Override
    public String roleName() {
        return ROLE;
    }

    /** Where the producer is in its transactions' life. */
    private enum ProducerState {
        /** {@code initTransactions()} not yet answered: nothing is resumed or sent. */
        INITIALIZING,
        /** Shipping: a transaction is open once an excerpt is sent, and committed when due. */
        READY,
        /** A commit not yet answered: retried, nothing more sent. */
        COMMITTING,
        /** An abort not yet answered: retried; then every journal resumes from Kafka. */
        ABORTING
    }

    /**
     * One open transaction: when it was opened, and the first failure a send of it reported from the producer's I/O
     * thread (then it must be aborted). Callbacks of a transaction already aborted write to an object no longer looked at.
     */
    private static final class Transaction {
        final long openedNanos;
        private volatile Exception failure;
        JournalName failedJournal;
        long failedIndex;

        Transaction(final long openedNanos) {
            this.openedNanos = openedNanos;
        }

        synchronized void fail(final JournalName journal, final long index, final Exception e) {
            if (failure == null) {
                failedJournal = journal;
                failedIndex = index;
                failure = e;
            }
        }

        boolean failed() {
            return failure != null;
        }

        Exception failure() {
            return failure;
        }
    }

    /** Kafka did not answer a query in time: retried at the next discovery. */
    private static final class KafkaUnanswered extends RuntimeException {
        KafkaUnanswered(final String message) {
            super(message, null, false, false);
        }
    }
}
