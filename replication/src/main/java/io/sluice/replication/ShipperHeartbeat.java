package io.sluice.replication;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.lang.management.ManagementFactory;

/**
 * The shipper's heartbeat in its deployment's lease topic ({@link LeaseTopic}): a {@link LeaseRecord.Kind#HEARTBEAT}
 * every {@link ReplicationConfig#heartbeatMillis()}, sent through the shipper's transactional producer, so that only
 * the holder of the deployment's transactional.id can write one and a fenced shipper learns it within one beat.
 * Each heartbeat Kafka acknowledges renews the primary's lease ({@link ShipperLease}) from when it was sent.
 */
final class ShipperHeartbeat {
    private final String topic;
    private final String holder;
    private final long intervalMillis;
    private long nextMillis;

    ShipperHeartbeat(final ReplicationConfig config) {
        this.topic = LeaseTopic.of(config.deployment());
        this.holder = config.heartbeatHolder() != null ? config.heartbeatHolder()
                : "shipper pid " + ProcessHandle.current().pid() + " on " + hostName();
        this.intervalMillis = config.heartbeatMillis();
    }

    String topic() {
        return topic;
    }

    boolean due(final long nowMillis) {
        return nowMillis >= nextMillis;
    }

    /** @return the heartbeat to send now; the next is due one interval later */
    ProducerRecord<byte[], byte[]> next(final long nowMillis) {
        nextMillis = nowMillis + intervalMillis;
        return new ProducerRecord<>(topic, 0, null, new LeaseRecord(LeaseRecord.Kind.HEARTBEAT, nowMillis, holder)
                .toValue());
    }

    /**
     * @return the callback of a heartbeat sent at {@code sentNanos} (System.nanoTime()): on acknowledgement, {@code lease}
     * runs from then
     */
    Callback acknowledged(final long sentNanos, final ShipperTransactions.Transaction transaction,
                          final ShipperLease lease) {
        return (metadata, e) -> {
            if (e != null) {
                transaction.fail(null, -1, e);
            } else {
                lease.acknowledged(sentNanos);
            }
        };
    }

    static String hostName() {
        final String jvm = ManagementFactory.getRuntimeMXBean().getName(); // pid@host
        final int at = jvm.indexOf('@');
        return at < 0 ? jvm : jvm.substring(at + 1);
    }
}
