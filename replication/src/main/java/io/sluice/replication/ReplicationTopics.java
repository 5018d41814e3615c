package io.sluice.replication;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.ByteBuffer;
import java.util.regex.Pattern;

/**
 * How journals map onto Kafka: one topic per journal of a deployment, {@code sluice.<deployment>.<journal>} (e.g.
 * {@code sluice.prod-1.gateway-2-out}), each with one partition, so that Kafka keeps the journal's order and a replica
 * can never mix two deployments' records. Each record is one excerpt: its value the excerpt's bytes unchanged, its
 * header {@value #INDEX_HEADER} the excerpt's Chronicle index (8 bytes, big-endian), its header {@value #READ_HEADER}
 * when the shipper read it (SluiceClock ticks, 8 bytes); no key. Offsets count excerpts: the record at offset
 * {@code n} is the journal's {@code n}-th excerpt.
 */
public final class ReplicationTopics {
    /** The prefix of every Sluice replication topic. */
    public static final String PREFIX = "sluice.";
    /** The header holding the excerpt's Chronicle index. */
    public static final String INDEX_HEADER = "sluice.index";
    /** The header holding the SluiceClock time at which the shipper read the excerpt. */
    public static final String READ_HEADER = "sluice.read";

    private static final Pattern DEPLOYMENT = Pattern.compile("[A-Za-z0-9_-]{1,100}");

    private ReplicationTopics() {
    }

    /** @throws IllegalArgumentException if {@code deployment} cannot be part of a topic name */
    public static String checkDeployment(final String deployment) {
        if (deployment == null || !DEPLOYMENT.matcher(deployment).matches()) {
            throw new IllegalArgumentException("deployment '" + deployment + "' must be 1 to 100 of A-Z a-z 0-9 _ -");
        }
        return deployment;
    }

    /** @return the topic of {@code journal} of {@code deployment} */
    public static String topic(final String deployment, final String journal) {
        return prefix(deployment) + journal;
    }

    /** @return what every topic of {@code deployment} starts with */
    public static String prefix(final String deployment) {
        return PREFIX + deployment + ".";
    }

    /** @return the journal named by {@code topic} of {@code deployment}, or null if it is none of its topics */
    public static JournalName journalOf(final String deployment, final String topic) {
        final String prefix = prefix(deployment);
        return topic.startsWith(prefix) ? JournalName.parse(topic.substring(prefix.length())) : null;
    }

    /** @return the 8 bytes of a long header, big-endian */
    public static byte[] longHeader(final long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    /**
     * @return the long in header {@code key}
     * @throws IllegalStateException if the record has no such header of 8 bytes
     */
    public static long longHeader(final Headers headers, final String key) {
        final Header header = headers.lastHeader(key);
        if (header == null || header.value() == null || header.value().length != Long.BYTES) {
            throw new IllegalStateException("the record has no 8-byte header " + key);
        }
        return ByteBuffer.wrap(header.value()).getLong();
    }
}
