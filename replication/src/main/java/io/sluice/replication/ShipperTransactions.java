package io.sluice.replication;

import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;

/**
 * The shipper's producer and its transactions' life: fencing and the commit policy. The producer has the
 * deployment's stable {@code transactional.id} ({@link KafkaClients#shipper}): its {@code initTransactions()} fences
 * every earlier holder of the id (a killed or cut-off shipper, whose late writes Kafka then refuses) and aborts the
 * transaction it left open, which makes the log final up to there: whatever that shipper will ever have in the log is
 * below the log's end once it returns. Readers read up to the high watermark ({@link KafkaClients#consumer}), so a
 * transaction gates no reader: it is committed every {@link ReplicationConfig#transactionMillis()}, whatever the
 * writers do (never "once caught up", which a shipper slower than its writers never is), to stay within
 * {@link KafkaClients#TRANSACTION_TIMEOUT_MILLIS}. A commit blocks the shipper for one flush and one EndTxn round trip.
 * <p>
 * A shipper fenced by a newer one ({@link ProducerFencedException}) stops ({@link ShipperFencedException}) rather than
 * fence it back; a failed send aborts the open transaction, after which every journal resumes from the log.
 */
final class ShipperTransactions implements AutoCloseable {
    /** How long Kafka may take to answer initTransactions() before it is called unreachable (it is retried). */
    static final long INIT_MILLIS = 5000;

    /** Where the producer is in its transactions' life. */
    enum State {
        /** {@code initTransactions()} not yet answered: nothing is resumed or sent. */
        INITIALIZING,
        /** Shipping: a transaction is open once a frame is sent, and committed when due. */
        READY,
        /** A commit not yet answered: retried, nothing more sent. */
        COMMITTING,
        /** An abort not yet answered: retried; then every journal resumes from the log. */
        ABORTING
    }

    private final ReplicationConfig config;
    private final KafkaLink link;
    private final ReplicationCounters counters;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private KafkaProducer<byte[], byte[]> producer;
    private State state = State.INITIALIZING;
    private Transaction transaction;
    private long initializingSinceMillis;
    private boolean aborted;
    private long commitNanos;

    ShipperTransactions(final ReplicationConfig config, final KafkaLink link, final ReplicationCounters counters,
                        final NanoClock nanoClock, final EpochClock epochClock) {
        this.config = config;
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
        this.link = link;
        this.counters = counters;
        this.producer = newProducer();
        this.initializingSinceMillis = epochClock.time();
    }

    State state() {
        return state;
    }

    /** @return the transaction open now, or null between a commit (or abort) and the next frame */
    Transaction transaction() {
        return transaction;
    }

    /** Retries what is under way: initialisation, a commit, an abort. @return the work done */
    int drive(final long nowMillis) {
        return switch (state) {
            case INITIALIZING -> initialize(nowMillis);
            case COMMITTING -> commit();
            case ABORTING -> abort();
            case READY -> transaction != null && transaction.failed() ? abortFailed() : 0;
        };
    }

    /** @return the time spent in the producer's commitTransaction() since start, answered or not (nanoTime units) */
    long commitNanos() {
        return commitNanos;
    }

    /** @return true once, after an abort completed: every journal must resume from the log */
    boolean takeAborted() {
        final boolean was = aborted;
        aborted = false;
        return was;
    }

    /** Opens a transaction: @return false if the producer refused (the abort is under way) */
    boolean begin() {
        try {
            producer.beginTransaction();
        } catch (final KafkaException e) {
            startAbort(e);
            return false;
        }
        transaction = new Transaction(nanoClock.nanoTime());
        return true;
    }

    /**
     * Hands {@code record} to the producer in the open transaction.
     *
     * @return false if the producer refused it at once (no metadata, no buffer space: Kafka unreachable): the transaction
     * is then failed and is aborted next
     */
    boolean send(final ProducerRecord<byte[], byte[]> record, final Callback callback, final String what) {
        final Thread sender = Thread.currentThread();
        final Exception[] refused = new Exception[1];
        try {
            producer.send(record, (metadata, e) -> {
                if (e != null && Thread.currentThread() == sender) {
                    refused[0] = e; // before send() returned: nothing was queued
                } else {
                    callback.onCompletion(metadata, e);
                }
            });
        } catch (final KafkaException e) {
            refused[0] = e;
        }
        if (refused[0] != null) {
            link.unreachable("the producer could not take " + what + ": " + refused[0].getMessage());
            transaction.fail(null, -1, refused[0]);
            return false;
        }
        return true;
    }

    /**
     * Has the producer learn {@code topic}'s metadata now, so that the first send does not wait for it (and, on a host
     * that starves the shipper, give up after {@code max.block.ms}).
     *
     * @return false if Kafka did not answer within {@code millis}
     */
    boolean awaitMetadata(final String topic, final long millis) {
        final long deadline = epochClock.time() + millis;
        while (true) {
            try {
                producer.partitionsFor(topic);
                return true;
            } catch (final TimeoutException e) {
                if (epochClock.time() > deadline) {
                    return false;
                }
            }
        }
    }

    /** Commits the open transaction if it has been open {@link ReplicationConfig#transactionMillis()}: @return work */
    int commitIfDue(final long nowNanos) {
        if (transaction == null || nowNanos - transaction.openedNanos < config.transactionMillis() * 1_000_000L) {
            return 0;
        }
        state = State.COMMITTING;
        return commit();
    }

    /**
     * Registers the transactional.id with Kafka: fences a shipper of the same deployment still running and aborts the
     * transaction it left open. Retried every round while Kafka does not answer.
     */
    private int initialize(final long nowMillis) {
        try {
            producer.initTransactions();
        } catch (final TimeoutException e) {
            if (nowMillis - initializingSinceMillis > INIT_MILLIS) {
                link.unreachable("initialising transactions (transactional.id "
                        + KafkaClients.transactionalId(config.deployment()) + "): " + e.getMessage());
            }
            return 0;
        } catch (final KafkaException e) {
            checkNotFenced(e);
            throw e;
        }
        state = State.READY;
        return 1;
    }

    /** Commits the open transaction; one Kafka does not answer in time is retried every round, nothing sent meanwhile. */
    private int commit() {
        final long start = nanoClock.nanoTime();
        try {
            producer.commitTransaction();
        } catch (final TimeoutException e) {
            return 0;
        } catch (final KafkaException e) {
            startAbort(e);
            return abort();
        } finally {
            commitNanos += nanoClock.nanoTime() - start;
        }
        counters.commits.incrementRelease();
        transaction = null;
        state = State.READY;
        return 1;
    }

    private int abortFailed() {
        startAbort(transaction.failure());
        return abort();
    }

    private void startAbort(final Exception why) {
        checkNotFenced(why);
        checkNotForGood(why);
        System.out.println(Shipper.ROLE + ": aborting the open transaction (" + why + "); every journal resumes from "
                + "what the log holds");
        state = State.ABORTING;
    }

    /**
     * Aborts the open transaction; then every journal resumes from the log, as after a restart. A producer that cannot
     * abort (fenced, or in a fatal state) is replaced: the new one's initialisation aborts what is open.
     */
    private int abort() {
        try {
            producer.abortTransaction();
            state = State.READY;
        } catch (final TimeoutException e) {
            return 0;
        } catch (final KafkaException e) {
            checkNotFenced(e);
            System.out.println(Shipper.ROLE + ": the producer cannot abort (" + e + "): replacing it; its successor's "
                    + "initialisation aborts the open transaction");
            producer.close(Duration.ZERO);
            producer = newProducer();
            initializingSinceMillis = epochClock.time();
            state = State.INITIALIZING;
        }
        transaction = null;
        aborted = true;
        return 1;
    }

    /**
     * A producer fenced by a newer one of the same transactional.id (another shipper of this deployment, or
     * {@code ./sluice promote}, called {@code initTransactions()}) makes this shipper a zombie: it stops, rather than
     * re-initialise and fence the other back. Kafka says so by {@link ProducerFencedException}, or, to a producer whose
     * open transaction the newer holder's initialisation aborted (a heartbeat keeps one open), by an invalid epoch or
     * transaction state: all three stop it.
     */
    private void checkNotFenced(final Exception why) {
        for (Throwable e = why; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof ProducerFencedException || e instanceof InvalidProducerEpochException
                    || e instanceof InvalidTxnStateException) {
                throw new ShipperFencedException(config.deployment(), KafkaClients.transactionalId(config.deployment()), why);
            }
        }
        if (transaction != null && transaction.failed() && transaction.failure() != why) {
            checkNotFenced(transaction.failure());
        }
    }

    /** A frame Kafka refuses for what it is (too large, invalid) would be refused again: stop, naming it. */
    private void checkNotForGood(final Exception why) {
        boolean forGood = false;
        for (Throwable e = transaction != null && transaction.failed() ? transaction.failure() : why; e != null;
             e = e.getCause() == e ? null : e.getCause()) {
            forGood |= e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException
                    || e instanceof InvalidRecordException;
        }
        if (forGood) {
            throw new ReplicationRefusedException(Shipper.ROLE + ": kafka refused a frame of excerpts for good (" + why
                    + (transaction != null && transaction.failedJournal != null ? ", from journal "
                    + transaction.failedJournal + ", index " + IndexText.of(transaction.failedIndex) : "")
                    + "); nothing after it is in the log. A restart resumes after the last excerpt the log holds");
        }
    }

    private KafkaProducer<byte[], byte[]> newProducer() {
        return new KafkaProducer<>(KafkaClients.shipper(config), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * On a graceful stop, commits the open transaction, else aborts it, within two seconds: a transaction left open
     * is aborted by Kafka after its timeout, which loses nothing (readers do not wait for it) but keeps a newer shipper's
     * initialisation waiting.
     */
    @Override
    public void close() {
        final long deadline = epochClock.time() + 2000;
        while (transaction != null && epochClock.time() < deadline) {
            try {
                if (!transaction.failed() && state != State.ABORTING) {
                    producer.commitTransaction();
                } else {
                    producer.abortTransaction();
                }
                transaction = null;
            } catch (final TimeoutException e) {
                // not answered yet: again, until the deadline
            } catch (final KafkaException e) {
                break;
            }
        }
        try {
            producer.close(Duration.ofSeconds(2));
        } catch (final KafkaException ignored) {
            // closing on the way out; a restart resumes from what the log holds
        }
    }

    /** What a transaction has written to the log: heartbeats alone need no positions record, frames follow one. */
    enum Log {
        /** Heartbeats only, if anything: no positions record yet. */
        UNTOUCHED,
        /** Its positions record is sent: frames follow it. */
        POSITIONED
    }

    /**
     * One open transaction: when it was opened, and the first failure a send of it reported from the producer's I/O
     * thread (then it must be aborted). Callbacks of a transaction already aborted write to an object no longer looked at.
     */
    static final class Transaction {
        final long openedNanos;
        private Log log = Log.UNTOUCHED;
        private volatile Exception failure;
        JournalName failedJournal;
        long failedIndex;

        Transaction(final long openedNanos) {
            this.openedNanos = openedNanos;
        }

        /** @return what the transaction has written to the log */
        Log log() {
            return log;
        }

        /** The transaction's positions record was handed to the producer: its frames may follow. */
        void positioned() {
            log = Log.POSITIONED;
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
}
