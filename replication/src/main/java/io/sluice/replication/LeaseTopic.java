package io.sluice.replication;

import org.apache.kafka.clients.admin.NewTopic;

import java.util.Map;

/**
 * Where a deployment's primary shows it is alive and a standby claims the deployment: the topic
 * {@code sluice.<deployment>.lease}, one partition, of {@link LeaseRecord}s. The shipper writes a heartbeat every
 * {@link ReplicationConfig#heartbeatMillis()} through its transactional producer, so a fenced shipper cannot write one;
 * a standby takes over only after a silence it measured itself, and writes its claim through the producer that fenced
 * the shipper. Kafka alone decides: the first claim after the last heartbeat wins.
 */
public final class LeaseTopic {
    /** How long lease records are kept: only the newest matter. */
    static final long RETENTION_MILLIS = 24L * 3600 * 1000;

    private LeaseTopic() {
    }

    /** @return the lease topic of {@code deployment} */
    public static String of(final String deployment) {
        return LogTopic.prefix(deployment) + "lease";
    }

    /** @return the topic to create for {@code deployment}, replicated as the log is */
    static NewTopic newTopic(final ReplicationConfig config) {
        return new NewTopic(of(config.deployment()), 1, (short) config.replicationFactor()).configs(Map.of(
                "min.insync.replicas", Integer.toString(config.minInsyncReplicas()),
                "retention.ms", Long.toString(RETENTION_MILLIS),
                "unclean.leader.election.enable", "false"));
    }
}
