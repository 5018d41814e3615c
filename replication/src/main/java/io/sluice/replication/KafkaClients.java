package io.sluice.replication;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.util.Properties;

/**
 * Every Kafka client property replication sets, in one place. The shipper's fenced producer, the readers of a
 * deployment's log (receiver, resume, promote) and the admin clients.
 * <p>
 * Readers read {@code read_uncommitted}, up to the high watermark: the shipper's transactions fence a zombie shipper
 * (its {@code transactional.id}'s epoch) and never gate visibility, so a record is readable as soon as Kafka has it
 * on every in-sync replica, as with a plain producer ({@link LogTopic}).
 */
public final class KafkaClients {
    /** The producer's batch.size: the most bytes of log records in one produce request. */
    public static final int BATCH_BYTES = 256 * 1024;
    /**
     * The producer's transaction.timeout.ms: how long Kafka lets a transaction stay open before it aborts it. Long: no
     * reader waits for a commit, a newer shipper's initialisation aborts a dead one's transaction at once, and a live
     * shipper the host starves of CPU should not lose its transaction to the timer.
     */
    public static final int TRANSACTION_TIMEOUT_MILLIS = 60_000;
    /** How long a broker holds a standby's watching fetch when there is nothing to read: see {@link #watcher}. */
    public static final int WATCH_FETCH_WAIT_MILLIS = 20;

    private KafkaClients() {
    }

    /**
     * @return the properties of an idempotent producer with {@code acks=all} that never gives up on a record; linger
     * {@code lingerMillis}
     */
    public static Properties producer(final String servers, final String clientId, final int lingerMillis) {
        final Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        properties.put(ProducerConfig.RETRIES_CONFIG, Integer.toString(Integer.MAX_VALUE));
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(Integer.MAX_VALUE));
        properties.put(ProducerConfig.LINGER_MS_CONFIG, Integer.toString(lingerMillis));
        // Larger than the default 16 KiB: a backlog ships in few requests.
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(BATCH_BYTES));
        // send() waits this long at most for the topic's metadata or buffer space, then refuses the record.
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "200");
        properties.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return properties;
    }

    /** @return the transactional id of the shipper of {@code deployment}: one shipper per deployment */
    public static String transactionalId(final String deployment) {
        return "sluice-shipper-" + deployment;
    }

    /**
     * @return {@link #producer} with the deployment's stable {@code transactional.id}: the {@code initTransactions()} of
     * a newer shipper (or of {@code ./sluice promote}) bumps its epoch, after which Kafka refuses every write of the
     * older one, and aborts the transaction it left open
     */
    public static Properties shipper(final ReplicationConfig config) {
        final Properties properties = producer(config.bootstrapServers(), "sluice-shipper-" + config.deployment(),
                config.lingerMillis());
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(config.deployment()));
        properties.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.toString(TRANSACTION_TIMEOUT_MILLIS));
        return properties;
    }

    /** @return the properties of a producer that only claims the shipper's transactional.id, to fence its holder */
    public static Properties fencer(final String servers, final String deployment) {
        final Properties properties = producer(servers, "sluice-fencer-" + deployment, 0);
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(deployment));
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        return properties;
    }

    /**
     * @return the properties of a reader of a deployment's log: no group, no committed offsets (positions come from the
     * replica's own journals), {@code read_uncommitted} up to the high watermark; a fetch is answered as soon as a byte
     * is there
     */
    public static Properties consumer(final String servers, final String clientId) {
        final Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        properties.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "1");
        properties.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return properties;
    }

    /**
     * @return {@link #consumer} whose fetches the broker holds until {@code fetchMinBytes} are there or
     * {@code fetchMaxWaitMillis} have passed: a receiver's (see {@link ReplicationConfig#fetchMinBytes()})
     */
    public static Properties batchedConsumer(final String servers, final String clientId, final int fetchMinBytes,
                                             final int fetchMaxWaitMillis) {
        final Properties properties = consumer(servers, clientId);
        properties.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, Integer.toString(fetchMinBytes));
        properties.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, Integer.toString(fetchMaxWaitMillis));
        return properties;
    }

    /**
     * @return {@link #consumer} whose fetches wait at most {@value #WATCH_FETCH_WAIT_MILLIS} ms for records: a broker
     * answers one connection's requests in order, so a question a standby asks through its watching consumer (where a
     * topic ends) would otherwise wait behind a fetch the broker holds for up to half a second
     */
    public static Properties watcher(final String servers, final String clientId) {
        final Properties properties = consumer(servers, clientId);
        properties.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, Integer.toString(WATCH_FETCH_WAIT_MILLIS));
        return properties;
    }

    public static Properties admin(final String servers, final String clientId) {
        final Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        properties.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return properties;
    }
}
