package io.sluice.replication;

import org.agrona.concurrent.EpochClock;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A standby's claim of its deployment, through Kafka alone: it claims the shipper's {@code transactional.id} (which
 * fences the primary's shipper and aborts its open transaction, as {@code ./sluice promote} does) and, in a transaction
 * of that producer, writes a {@link LeaseRecord.Kind#CLAIM} to the lease topic. A standby that another fenced in
 * between cannot commit its claim; of claims that both commit, the first after the last heartbeat wins
 * ({@link PrimaryWatch#firstClaim()}).
 */
final class DeploymentClaim implements AutoCloseable {
    private static final long SEND_WAIT_MILLIS = 15_000;
    /**
     * How long the claim's producer waits before asking again while the coordinator aborts the fenced shipper's open
     * transaction ({@code CONCURRENT_TRANSACTIONS}), at first and at most: the abort takes a few ms, and every wait is
     * part of the takeover (the producer's default, 100 ms doubling to 1 s, made the fence 0.3-0.5 s).
     */
    private static final String RETRY_BACKOFF_MILLIS = "10";
    private static final String RETRY_BACKOFF_MAX_MILLIS = "50";

    private final String servers;
    private final String deployment;
    private final EpochClock clock;
    /** The producer of the next claim, made ahead of it by {@link #prepare()}; one claim each. */
    private KafkaProducer<byte[], byte[]> producer;

    DeploymentClaim(final String servers, final String deployment, final EpochClock clock) {
        this.servers = servers;
        this.clock = clock;
        this.deployment = deployment;
    }

    /**
     * Makes the producer of the next claim and learns the lease topic's metadata, so that the claim itself is only the
     * fence and one transaction: while the standby catches up, before it fences anyone (the transactional.id is claimed
     * only by {@link #claim}).
     *
     * @throws KafkaException if Kafka does not answer
     */
    void prepare() {
        if (producer == null) {
            final Properties properties = KafkaClients.fencer(servers, deployment);
            properties.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, RETRY_BACKOFF_MILLIS);
            properties.put(ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG, RETRY_BACKOFF_MAX_MILLIS);
            producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
        }
        producer.partitionsFor(LeaseTopic.of(deployment));
    }

    /**
     * @return the offset of the committed claim in the lease topic, or -1 if another holder of the transactional.id
     * fenced this one before it committed (another standby claims too)
     * @throws KafkaException if Kafka does not answer
     */
    long claim(final String holder) {
        try {
            prepare();
            producer.initTransactions();
            producer.beginTransaction();
            final long offset = producer.send(new ProducerRecord<>(LeaseTopic.of(deployment), 0, null,
                    new LeaseRecord(LeaseRecord.Kind.CLAIM, clock.time(), holder).toValue()))
                    .get(SEND_WAIT_MILLIS, TimeUnit.MILLISECONDS).offset();
            producer.commitTransaction();
            return offset;
        } catch (final KafkaException e) {
            if (fenced(e)) {
                return -1;
            }
            throw e;
        } catch (final ExecutionException e) {
            if (fenced(e)) {
                return -1;
            }
            throw new KafkaException("writing the claim: " + e.getCause(), e.getCause());
        } catch (final TimeoutException e) {
            throw new KafkaException("writing the claim: no answer in " + SEND_WAIT_MILLIS + " ms");
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("writing the claim: interrupted");
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ZERO); // committed or failed: nothing left to send
            producer = null;
        }
    }

    /** @return true if {@code e} says a newer holder of the transactional.id fenced this producer */
    private static boolean fenced(final Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ProducerFencedException || cause instanceof InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }
}
