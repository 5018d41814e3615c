package io.sluice.replication;

import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.marketdata.journal.BatchLayout;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.AcknowledgementWaiters;
import io.sluice.runtime.process.CpuPinning;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;

/**
 * The shipping side of replication, as an Agrona agent: tails every journal under a primary root and appends its
 * excerpts to the deployment's log. The journals are opened read-only, so it can never slow or disturb a writer; the
 * excerpts go bytes unchanged to the log ({@link LogTopic}: one partition, frames of several excerpts, {@link
 * LogFrame}) with {@code acks=all}.
 * <ul>
 *   <li><b>Order and causality</b>: one partition written in order keeps one order for every journal; the
 *   {@link CausalGate} holds an engine excerpt until its command is earlier in the log, and a gateway's sent-report
 *   record until its engine excerpt is. So any prefix of the log is a state the primary passed through.</li>
 *   <li><b>Acknowledged</b>: an excerpt counts as acknowledged once Kafka acknowledges its frame (and so every frame
 *   before it): the producer's callback publishes each journal's acknowledged index at once, the counter gateways in
 *   acknowledged mode poll ({@link AcknowledgedIndexReader}).</li>
 *   <li><b>Fencing</b>: the producer's {@code transactional.id} is the deployment's ({@link ShipperTransactions});
 *   its initialisation fences every earlier shipper, whose late writes Kafka refuses, before this one reads where
 *   to resume; transactions are committed on a timer, never waiting for the shipper to catch up.</li>
 *   <li><b>Resume</b>: there is no local offset file. Each journal resumes after its last excerpt in the log
 *   ({@link LogRecords}; a transaction's first frame follows a positions record, so that is found near the log's end), which
 *   must be the local excerpt at that index (its CRC-32C), or the shipper refuses (another root shipped under this
 *   deployment, or a journal that diverged). After an aborted transaction every journal resumes so again. The log is
 *   read on a thread of its own ({@link LogEndQuery}): the agent beats meanwhile.</li>
 *   <li><b>Progress under load</b>: frames go out as fast as Kafka acknowledges them, bounded only by the bytes in
 *   flight ({@link InFlightFrames}); nothing waits for the shipper to catch up, and its lag line says whether the
 *   backlog shrinks ({@link ShipperLag}). A frame not full waits for the one in flight, so the frames grow with the
 *   rate and Kafka's round trip: one request per round trip, however many orders it carries.</li>
 *   <li><b>Lease</b>: it publishes when the newest write Kafka acknowledged was sent; Kafka acknowledging none for
 *   {@code leaseMillis} (or the shipper gone) makes the engine process's lease watch stop new orders, and a fence makes
 *   the shipper tell the engine itself, through the admin journal ({@link ShipperLease}).</li>
 *   <li><b>One shipper per deployment</b>: a {@link RootLock} refuses a second shipper on the same root; a shipper whose
 *   producer a newer one fenced stops ({@link ShipperFencedException}) instead of fencing it back.</li>
 *   <li>New journals (a new gateway) are found by a look at the root every {@value #DISCOVERY_MILLIS} ms
 *   ({@link JournalDiscovery}).</li>
 * </ul>
 * Not a hot path of the deployment: it runs in its own process, and allocates per frame (Kafka's records).
 */
public final class Shipper implements Agent {
    static final String ROLE = AcknowledgedIndexReader.SHIPPER_PROCESS;
    /** How often the root is looked at for new journals. */
    static final long DISCOVERY_MILLIS = 1000;
    /** How long Kafka may take to answer a query (a resume's fetch, topics) before it is called unreachable. */
    static final long KAFKA_QUERY_MILLIS = 5000;
    /** How long the resume's query thread sleeps between looks for a question: it adds at most this to a resume. */
    static final long LOG_END_QUERY_SLEEP_MILLIS = 10;
    /** How long a frame may wait for its acknowledgement before Kafka is called unreachable. */
    static final long ACK_SILENCE_MILLIS = 10_000;
    /** How often the lag counters are brought up to date. */
    static final long COUNTERS_MILLIS = 100;
    /** A frame is sent once it holds this many bytes (or nothing more can be read): a record Kafka takes whole. */
    static final int FRAME_BYTES = 64 * 1024;
    /** The most excerpts one journal adds to a frame before the next journal's turn. */
    static final int TURN = 64;
    /** {@link #parkNanos()}: nothing to wait for but new excerpts, whose arrival nothing announces. */
    static final long NO_KNOWN_WAIT = -1;
    /** The most frames one round of the agent sends, before it looks at its other duties. */
    static final int FRAMES_PER_ROUND = 16;

    private final ReplicationConfig config;
    private final Path root;
    private final String topic;
    private RootLock lock;
    private KafkaLink link;
    private final CausalGate gate = new CausalGate();
    private final Map<String, ShippedJournal> journals = new LinkedHashMap<>();
    /** The journals in the order frames take them: causes first ({@link JournalDiscovery}). */
    private final List<ShippedJournal> ordered = new ArrayList<>();
    /** Journals the log holds excerpts of that this shipper does not ship (yet): kept in every positions record. */
    private final Map<String, LogRecords.LastExcerpt> unshipped = new TreeMap<>();
    private final ExcerptCall call = new ExcerptCall();
    private final LogFrameWriter frame = new LogFrameWriter();
    private final InFlightFrames inFlight = new InFlightFrames();
    private final ShipperLag lag;
    private final CRC32C crc = new CRC32C();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[0]);
    private final ShipperHeartbeat heartbeat;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private ShipperLease lease;
    private Admin admin;
    private ShipperTransactions transactions;
    private LogEndQuery logEnds;
    private AgentThread logEndsThread;
    /** How many transactions were aborted: an answer of {@link #logEnds} asked before the last is stale. */
    private long aborts;
    private ReplicationCounters counters;
    private boolean topicReady;
    private long nextDiscoveryMillis;
    private long nextLagReportMillis;
    private long nextCountersMillis;
    /** How often the shipper looks whether a gateway waits for Kafka's acknowledgements. */
    static final long WAITERS_MILLIS = 100;
    /** How long a frame not full stays open for the excerpts that follow its first, ns, while a gateway waits. */
    private final long awaitedHoldNanos;
    /** The same while no gateway waits for Kafka's acknowledgements. */
    private final long asynchronousHoldNanos;
    /** The hold in force: {@link #awaitedHoldNanos} while a gateway waits, else the other; -1 before the first look. */
    private long frameHoldNanos = -1;
    private long nextWaitersMillis;
    /** When the open frame began to be read (SluiceClock ticks), and when its first excerpts were in it (nanoTime). */
    private long frameFirstReadTicks;
    private long frameOpenedNanos;

    /**
     * @param nanoClock  the process's monotonic clock
     * @param epochClock the process's wall clock
     */
    public Shipper(final ReplicationConfig config, final NanoClock nanoClock, final EpochClock epochClock) {
        this.config = config;
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
        this.lag = new ShipperLag(nanoClock);
        this.root = config.root();
        this.topic = LogTopic.of(config.deployment());
        this.heartbeat = new ShipperHeartbeat(config);
        this.awaitedHoldNanos = TimeUnit.MICROSECONDS.toNanos(config.frameHoldMicros());
        this.asynchronousHoldNanos = TimeUnit.MICROSECONDS.toNanos(config.asynchronousFrameHoldMicros());
    }

    /**
     * Starts a shipper of {@code config} on a thread of its own, idling as {@link ShipperIdle} does (parked while it
     * waits for Kafka, else as configured): how the shipper process and a promoted standby run one.
     */
    static AgentThread start(final ReplicationConfig config, final NanoClock nanoClock, final EpochClock epochClock) {
        final Shipper shipper = new Shipper(config, nanoClock, epochClock);
        return AgentThread.start(shipper, new ShipperIdle(shipper, config.idle().newStrategy()), CpuPinning.NONE,
                AgentThread.Priority.NORMAL);
    }

    @Override
    public void onStart() {
        lock = RootLock.take(root, RootLock.Kind.SHIPPER, ROLE);
        RootIdentity.claim(root, config.deployment(), RootIdentity.Role.PRIMARY, ROLE);
        counters = new ReplicationCounters(root, ROLE);
        lease = new ShipperLease(config, counters, nanoClock);
        link = new KafkaLink(ROLE, config.bootstrapServers(), counters, epochClock);
        admin = Admin.create(KafkaClients.admin(config.bootstrapServers(), "sluice-shipper-admin"));
        transactions = new ShipperTransactions(config, link, counters, nanoClock, epochClock);
        logEnds = new LogEndQuery(new LogRecords(config.bootstrapServers(), "sluice-shipper-resume",
                config.deployment(), Duration.ofMillis(KAFKA_QUERY_MILLIS), nanoClock));
        logEndsThread = AgentThread.start(logEnds, IdleConfig.sleepNanos(
                TimeUnit.MILLISECONDS.toNanos(LOG_END_QUERY_SLEEP_MILLIS)).newStrategy(), CpuPinning.NONE,
                AgentThread.Priority.NORMAL);
        System.out.println(ROLE + ": shipping every journal under " + root.toAbsolutePath() + " as deployment "
                + config.deployment() + " to kafka at " + config.bootstrapServers() + " (log " + topic
                + ", replication factor " + config.replicationFactor() + ", min.insync.replicas "
                + config.minInsyncReplicas() + "), as transactional.id "
                + KafkaClients.transactionalId(config.deployment()) + " (one shipper per deployment), its transaction "
                + "committed every " + config.transactionMillis() + " ms, a frame held open up to "
                + config.frameHoldMicros() + " µs for the excerpts that follow its first while a gateway waits for "
                + "Kafka's acknowledgements, " + config.asynchronousFrameHoldMicros() + " µs while none does");
    }

    /**
     * One round: drives the transactions, ships, beats, publishes the lease. Fenced by a newer primary, it tells the engine
     * ({@link ShipperLease#fenced}) before it stops.
     */
    @Override
    public int doWork() {
        try {
            final long start = nanoClock.nanoTime();
            final long committing = transactions.commitNanos();
            final int work = round();
            lag.round(nanoClock.nanoTime() - start, transactions.commitNanos() - committing);
            return work;
        } catch (final ShipperFencedException e) {
            lease.fenced();
            throw e;
        }
    }

    private int round() {
        final long now = epochClock.time();
        int work = transactions.drive(now);
        if (transactions.takeAborted()) {
            rewind();
        }
        if (inFlight.retireAcknowledged(lease) > 0) {
            link.up();
            work++;
        }
        if (now >= nextWaitersMillis) {
            nextWaitersMillis = now + WAITERS_MILLIS;
            holdFor(AcknowledgementWaiters.any(root));
        }
        if (transactions.state() == ShipperTransactions.State.READY) {
            // A heartbeat needs no journal resumed: the shipper beats while it resumes after an outage.
            if (topicReady && heartbeat.due(now)) {
                work += beat(now);
            }
            if (transactions.state() == ShipperTransactions.State.READY && now >= nextDiscoveryMillis) {
                nextDiscoveryMillis = now + DISCOVERY_MILLIS;
                JournalDiscovery.discover(root, journals, ordered)
                        .forEach(journal -> System.out.println(ROLE + ": found journal " + journal.name));
                askWhereJournalsEnd();
            }
            work += resumeAnswered();
            if (transactions.state() == ShipperTransactions.State.READY) {
                work += ship();
            }
            if (transactions.state() == ShipperTransactions.State.READY) {
                work += transactions.commitIfDue(nanoClock.nanoTime());
            }
        }
        watchAcknowledgements();
        if (now >= nextCountersMillis) {
            nextCountersMillis = now + COUNTERS_MILLIS;
            lag.updateCounters(ordered, inFlight);
        }
        if (config.lagReportMillis() > 0 && now >= nextLagReportMillis) {
            nextLagReportMillis = now + config.lagReportMillis();
            System.out.println(lag.line(ordered, held(), link.describe()));
        }
        return work;
    }

    /** Sets the hold for whether a gateway waits for Kafka's acknowledgements, saying so when that changes. */
    private void holdFor(final boolean awaited) {
        final long hold = awaited ? awaitedHoldNanos : asynchronousHoldNanos;
        if (hold != frameHoldNanos) {
            System.out.println(ROLE + ": " + (awaited ? "a gateway waits" : "no gateway waits") + " for Kafka's "
                    + "acknowledgements (" + AcknowledgementWaiters.path(root, "<journal>") + "): a frame not full is "
                    + "held up to " + TimeUnit.NANOSECONDS.toMicros(hold) + " µs");
        }
        frameHoldNanos = hold;
    }

    /**
     * Sends a heartbeat to the lease topic in the open transaction, opening one if none is. A heartbeat writes nothing
     * to the log, so it needs no positions record and no journal resumed: a shipper beats while it resumes after an
     * outage. @return 1 if the producer took it
     */
    private int beat(final long nowMillis) {
        if (transactions.transaction() == null && !transactions.begin()) {
            return 0;
        }
        return transactions.send(heartbeat.next(nowMillis), heartbeat.acknowledged(nanoClock.nanoTime(),
                transactions.transaction(), lease), "a heartbeat") ? 1 : 0;
    }

    /**
     * Sends frames of what the journals hold, causes first, while Kafka keeps up. A frame not full stays open until its
     * first excerpt has waited {@code frameHoldMicros} (the rest of an order's records follow within tens of µs), and
     * while an earlier frame is unacknowledged: a trickle ships at once, a stream in one request per Kafka round trip,
     * full frames back to back. Fewer, fuller frames mean fewer requests and wake-ups for the shipper, the broker and
     * the receiver, which share the host's cores with the trading path. @return the excerpts framed
     */
    private int ship() {
        int shipped = 0;
        for (int round = 0; round < FRAMES_PER_ROUND && inFlight.hasRoom(); round++) {
            if (frame.entries() == 0) {
                frameFirstReadTicks = SluiceClock.nowTicks();
                frame.start(LogFrame.Kind.EXCERPTS);
            }
            final int before = frame.entries();
            fill();
            if (before == 0 && frame.entries() > 0) {
                // Counted from after the first excerpts were read: a thread descheduled between a clock read and
                // the excerpts' would otherwise shorten the hold by that pause.
                frameOpenedNanos = nanoClock.nanoTime();
            }
            shipped += frame.entries() - before;
            if (frame.entries() == 0 || frame.length() < FRAME_BYTES
                    && (!inFlight.isEmpty() || nanoClock.nanoTime() - frameOpenedNanos < frameHoldNanos)) {
                break;
            }
            final boolean taken = send(frameFirstReadTicks);
            frame.start(LogFrame.Kind.EXCERPTS);
            if (!taken) {
                break;
            }
        }
        return shipped;
    }

    /** Fills the frame, journal by journal in causal order, turn by turn, until it is full or nothing more passes. */
    private void fill() {
        boolean progress = true;
        final long now = SluiceClock.nowTicks();
        while (progress && frame.length() < FRAME_BYTES) {
            progress = false;
            for (final ShippedJournal journal : ordered) {
                if (journal.state == ShippedJournal.State.SHIPPING && take(journal, now) > 0) {
                    progress = true;
                }
            }
        }
    }

    /** Adds up to {@link #TURN} excerpts of {@code journal} to the frame: @return how many */
    private int take(final ShippedJournal journal, final long nowTicks) {
        int taken = 0;
        while (taken < TURN && frame.length() < FRAME_BYTES) {
            if (!journal.hasPending() && !journal.readNext(nowTicks)) {
                break;
            }
            final boolean readable = call.read(journal.pending, journal.pendingLength);
            checkReadable(journal, readable);
            if ((readable || !journal.name.holdsCalls()) && !gate.mayShip(journal.name, call)) {
                break;
            }
            frame.excerpt(journal.nameBytes, journal.pendingIndex, journal.pendingReadTicks, journal.pending,
                    journal.pendingLength);
            gate.shipped(journal.name, readable ? call : null, journal.pendingIndex);
            journal.framed(LogFrame.checksum(crc, journal.pending.byteArray(), 0, journal.pendingLength));
            taken++;
        }
        return taken;
    }

    /**
     * Hands the frame to the producer, opening a transaction first if none is open; a transaction's first frame follows
     * a positions record (each journal's last excerpt in the log before it).
     *
     * @return false if the producer refused (the transaction is aborted next)
     */
    private boolean send(final long firstReadTicks) {
        final byte[] value = frame.toValue();
        final int excerpts = frame.entries();
        if (transactions.transaction() == null && !transactions.begin()
                || transactions.transaction().log() == ShipperTransactions.Log.UNTOUCHED && !sendPositions()) {
            rewindFrame();
            return false;
        }
        final SentFrame sent = sentFrame(value.length, firstReadTicks);
        if (!transactions.send(new ProducerRecord<>(topic, 0, null, value), sent, "a frame of " + excerpts + " excerpts")) {
            rewindFrame();
            return false;
        }
        inFlight.add(sent);
        for (final ShippedJournal journal : ordered) {
            if (journal.frameCount > 0) {
                journal.frameSent();
            }
        }
        return true;
    }

    /**
     * @return how long the shipper may park after a round without work, ns, or {@link #NO_KNOWN_WAIT}: until Kafka
     * answers the frame in flight (at most {@link ShipperIdle#AWAIT_MICROS}; the answer unparks it) when the open frame
     * is not full (it waits for that answer) or no more may be in flight; until the open frame's hold ends when nothing
     * is in flight. Read by {@link ShipperIdle}.
     */
    long parkNanos() {
        if (transactions.state() != ShipperTransactions.State.READY) {
            return NO_KNOWN_WAIT;
        }
        if (!inFlight.isEmpty() && (frame.length() < FRAME_BYTES || !inFlight.hasRoom())) {
            return ShipperIdle.AWAIT_NANOS;
        }
        if (frame.entries() > 0 && frame.length() < FRAME_BYTES) {
            return Math.max(0, frameHoldNanos - (nanoClock.nanoTime() - frameOpenedNanos));
        }
        return NO_KNOWN_WAIT;
    }

    /** A frame the producer did not take: the transaction is aborted next, and every journal resumes from the log. */
    private void rewindFrame() {
        for (final ShippedJournal journal : ordered) {
            journal.frameCount = 0;
        }
    }

    private SentFrame sentFrame(final int bytes, final long firstReadTicks) {
        int count = 0;
        for (final ShippedJournal journal : ordered) {
            count += journal.frameCount > 0 ? 1 : 0;
        }
        final ShippedJournal[] held = new ShippedJournal[count];
        final long[] lastIndex = new long[count];
        final int[] excerpts = new int[count];
        int i = 0;
        for (final ShippedJournal journal : ordered) {
            if (journal.frameCount > 0) {
                held[i] = journal;
                lastIndex[i] = journal.frameLastIndex;
                excerpts[i++] = journal.frameCount;
            }
        }
        return new SentFrame(held, lastIndex, excerpts, transactions.transaction(), bytes, firstReadTicks,
                nanoClock.nanoTime(), Thread.currentThread()); // the agent's thread, which the answer wakes
    }

    /** Sends a positions record: every journal's last excerpt in the log (handed to the producer) before it. */
    private boolean sendPositions() {
        final LogFrameWriter positions = new LogFrameWriter();
        positions.start(LogFrame.Kind.POSITIONS);
        final Map<String, LogRecords.LastExcerpt> all = new TreeMap<>(unshipped);
        for (final ShippedJournal journal : ordered) {
            if (journal.state == ShippedJournal.State.SHIPPING) {
                all.put(journal.name.name(), new LogRecords.LastExcerpt(journal.loggedIndex, journal.loggedChecksum));
            }
        }
        all.forEach((name, last) -> positions.position(name.getBytes(StandardCharsets.US_ASCII),
                last.index(), last.checksum()));
        final byte[] value = positions.toValue();
        final ShipperTransactions.Transaction transaction = transactions.transaction();
        if (!transactions.send(new ProducerRecord<>(topic, 0, null, value), (metadata, e) -> {
            if (e != null) {
                transaction.fail(null, -1, e);
            }
        }, "a positions record")) {
            return false;
        }
        transaction.positioned();
        return true;
    }

    /**
     * An engine excerpt, a command or a market-data batch the gate cannot read stops the shipper: it cannot tell what
     * it answers.
     */
    private void checkReadable(final ShippedJournal journal, final boolean readable) {
        if (!journal.name.holdsCalls()) {
            if (journal.pendingLength < BatchLayout.BLOCKS) {
                throw ReplicationRefusedException.at(ROLE, journal.name, journal.pendingIndex,
                        "a market-data excerpt too short to hold the engine index it answers");
            }
            return;
        }
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

    /** An aborted transaction: nothing in flight counts, the gate forgets, and every journal resumes from the log. */
    private void rewind() {
        frame.start(LogFrame.Kind.EXCERPTS);
        inFlight.clear();
        gate.forget();
        for (final ShippedJournal journal : ordered) {
            journal.rewind();
        }
        aborts++;
        nextDiscoveryMillis = 0;
    }

    /** Calls Kafka unreachable when a frame has waited {@link #ACK_SILENCE_MILLIS} for its acknowledgement. */
    private void watchAcknowledgements() {
        if (!inFlight.isEmpty()) {
            final long waited = nanoClock.nanoTime() - inFlight.oldestSentNanos();
            if (waited > TimeUnit.MILLISECONDS.toNanos(ACK_SILENCE_MILLIS)) {
                link.unreachable("a frame unacknowledged for " + TimeUnit.NANOSECONDS.toMillis(waited) + " ms");
            }
        }
    }

    /** @return what the first journal held by the gate waits for, for the lag line, or null */
    private String held() {
        for (final ShippedJournal journal : ordered) {
            if (journal.hasPending() && (call.read(journal.pending, journal.pendingLength) || !journal.name.holdsCalls())
                    && !gate.mayShip(journal.name, call)) {
                return journal.name + " held for " + gate.waitingFor(journal.name, call);
            }
        }
        return null;
    }

    /**
     * Asks where each journal ends in the log ({@link LogEndQuery}, answered on its own thread) if a journal waits to
     * resume and no question is out; creates the log topic first, once.
     */
    private void askWhereJournalsEnd() {
        if (logEnds.state() != LogEndQuery.State.IDLE || !anyResuming()) {
            return;
        }
        try {
            prepareTopic();
        } catch (final KafkaUnanswered | KafkaException e) {
            link.unreachable("preparing the log " + topic + ": " + e.getMessage());
            return;
        }
        logEnds.ask(aborts);
    }

    /** @return true while a journal waits to learn where it resumes */
    private boolean anyResuming() {
        for (final ShippedJournal journal : ordered) {
            if (journal.state == ShippedJournal.State.RESUMING) {
                return true;
            }
        }
        return false;
    }

    /**
     * Resumes every journal still resuming once the log's ends are answered; an answer asked before the last abort is
     * dropped and asked again, a failure retried at the next discovery. @return how many resumed
     */
    private int resumeAnswered() {
        switch (logEnds.state()) {
            case ANSWERED -> {
                if (logEnds.askedAfterAborts() != aborts) {
                    logEnds.answer();
                    nextDiscoveryMillis = 0;
                    return 0;
                }
                return resume(logEnds.answer());
            }
            case FAILED -> {
                final RuntimeException e = logEnds.failure();
                if (e instanceof IllegalArgumentException) {
                    throw new ReplicationRefusedException(ROLE + ": refused: " + topic + " holds " + e.getMessage());
                }
                link.unreachable("reading where the journals end in " + topic + ": " + e.getMessage());
                return 0;
            }
            default -> {
                return 0;
            }
        }
    }

    /** Resumes every journal still resuming after its last excerpt in {@code last}: @return how many resumed */
    private int resume(final Map<String, LogRecords.LastExcerpt> last) {
        final List<ShippedJournal> resuming = new ArrayList<>();
        for (final ShippedJournal journal : ordered) {
            if (journal.state == ShippedJournal.State.RESUMING) {
                resuming.add(journal);
            }
        }
        unshipped.clear();
        unshipped.putAll(last);
        for (final ShippedJournal journal : ordered) {
            if (journal.state == ShippedJournal.State.SHIPPING) {
                unshipped.remove(journal.name.name());
            }
        }
        for (final ShippedJournal journal : resuming) {
            resume(journal, unshipped.remove(journal.name.name()));
        }
        link.up();
        return resuming.size();
    }

    /**
     * Resumes {@code journal} after {@code last}, its last excerpt in the log (null: none), having checked that it is
     * the local excerpt at that index (its CRC-32C); tells the gate what the log holds of it.
     */
    private void resume(final ShippedJournal journal, final LogRecords.LastExcerpt last) {
        if (journal.counters == null) { // once: a journal resumes again after an aborted transaction, same counters
            journal.counters = counters.journal(journal.name.name());
        }
        if (last == null || last.index() < 0) {
            journal.tailer.toStart();
            journal.resumeAfter(-1, 0);
            System.out.println(ROLE + ": journal " + journal.name + " resumes from its first excerpt (the log holds none"
                    + " of it)");
            return;
        }
        final long index = last.index();
        if (!journal.tailer.moveToIndex(index)) {
            throw ReplicationRefusedException.at(ROLE, journal.name, index, "the log " + topic + " holds this index as"
                    + " the journal's last excerpt but the local journal has no excerpt there: this root is not the one"
                    + " its deployment's log was shipped from");
        }
        final byte[] local;
        try (DocumentContext dc = journal.tailer.readingDocument()) {
            final Bytes<?> bytes = dc.wire().bytes();
            local = new byte[(int) bytes.readRemaining()];
            bytes.read(local);
        }
        if (LogFrame.checksum(crc, local, 0, local.length) != last.checksum()) {
            throw ReplicationRefusedException.at(ROLE, journal.name, index, "the journal's last excerpt in the log "
                    + topic + " differs from the local excerpt at that index (CRC-32C): the journal diverges from what "
                    + "was shipped");
        }
        scratch.wrap(local);
        if (journal.name.holdsEngineInputs() && call.read(scratch, local.length)) {
            gate.commandShipped(journal.name.gatewayId(), call.longAt(RecordLayout.EVENT_ID));
        } else if (journal.name.kind() == JournalName.Kind.ENGINE) {
            gate.shipped(journal.name, null, index);
        }
        journal.resumeAfter(index, last.checksum());
        System.out.println(ROLE + ": journal " + journal.name + " resumes after " + IndexText.of(index)
                + ", its last excerpt in the log");
    }

    /**
     * Creates the log topic unless it exists, refuses a deployment with topics of an older format, and has the producer
     * learn the topic's metadata, so that the first send does not wait for it. Once.
     */
    private void prepareTopic() {
        if (topicReady) {
            return;
        }
        final Set<String> topics = answer(admin.listTopics().names(), "listing topics");
        for (final String name : topics) {
            if (LogTopic.isOlderFormat(config.deployment(), name)) {
                throw new ReplicationRefusedException(ROLE + ": refused: " + LogTopic.olderFormatRefusal(name));
            }
        }
        if (!topics.contains(heartbeat.topic())) {
            createTopic(LeaseTopic.newTopic(config));
        }
        if (!topics.contains(topic)) {
            final NewTopic log = new NewTopic(topic, 1, (short) config.replicationFactor()).configs(Map.of(
                    "min.insync.replicas", Integer.toString(config.minInsyncReplicas()),
                    "retention.ms", "-1",
                    "retention.bytes", "-1",
                    "unclean.leader.election.enable", "false"));
            createTopic(log);
        }
        for (final String learnt : List.of(topic, heartbeat.topic())) {
            if (!transactions.awaitMetadata(learnt, KAFKA_QUERY_MILLIS)) {
                throw new KafkaUnanswered("learning the metadata of " + learnt + ": no answer in " + KAFKA_QUERY_MILLIS
                        + " ms", null);
            }
        }
        topicReady = true;
    }

    private void createTopic(final NewTopic newTopic) {
        try {
            answer(admin.createTopics(List.of(newTopic)).all(), "creating topic " + newTopic.name());
        } catch (final KafkaUnanswered e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    private static <T> T answer(final KafkaFuture<T> future, final String what) {
        try {
            return future.get(KAFKA_QUERY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (final ExecutionException e) {
            throw new KafkaUnanswered(what + ": " + e.getCause(), e.getCause());
        } catch (final TimeoutException e) {
            throw new KafkaUnanswered(what + ": no answer in " + KAFKA_QUERY_MILLIS + " ms", null);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnanswered(what + ": interrupted", null);
        }
    }

    @Override
    public void onClose() {
        if (transactions != null) {
            transactions.close();
        }
        if (logEndsThread != null) {
            logEndsThread.close(KAFKA_QUERY_MILLIS + 1000, TimeUnit.MILLISECONDS); // its consumer closes with it
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

    @Override
    public String roleName() {
        return ROLE;
    }

    /** Kafka did not answer a query in time (or refused it): retried at the next discovery. */
    private static final class KafkaUnanswered extends RuntimeException {
        KafkaUnanswered(final String message, final Throwable cause) {
            super(message, cause, false, false);
        }
    }
}
