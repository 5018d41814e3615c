package io.sluice.replication;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.ByteBuffer;
import java.util.regex.Pattern;

/**
 * How journals map onto Kafka: one topic per journal of a deployment, {@code sluice.<deployment>.<journal>} (e.g.
 * {@code sluice.prod-1.gateway-2-out}), each with one partition, so that Kafka keeps the journal's order and a replica
 * can never mix two deployments' records. Each record is one excerpt (topic format {@value #FORMAT}): its value the
 * excerpt's bytes unchanged, its key the excerpt's Chronicle index (8 bytes, big-endian: no header to encode and
 * parse per record), its header {@value #READ_HEADER} when the shipper read it (SluiceClock ticks, 8 bytes). Format 1
 * carried the index in a header, {@value #FORMAT_1_INDEX_HEADER}, and no key: such a record is refused, saying so.
 * Offsets do not count excerpts (the shipper's transaction markers and aborted records take offsets too).
 */
public final class ReplicationTopics {
    /** The prefix of every Sluice replication topic. */
    public static final String PREFIX = "sluice.";
    /** The topic format: 2, the index in the record key. */
    public static final int FORMAT = 2;
    /** Where topic format 1 held the excerpt's Chronicle index: recognised only to refuse it clearly. */
    public static final String FORMAT_1_INDEX_HEADER = "sluice.index";
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

    /** @return the key of the record of the excerpt at {@code index}: 8 bytes, big-endian */
    public static byte[] indexKey(final long index) {
        final byte[] key = new byte[Long.BYTES];
        for (int i = 0; i < Long.BYTES; i++) {
            key[i] = (byte) (index >>> (56 - 8 * i));
        }
        return key;
    }

    /**
     * @return the Chronicle index a record carries in its key
     * @throws ReplicationRefusedException naming topic and offset if its key is not 8 bytes, saying whether the record
     * is of topic format 1 (an older shipper's)
     */
    public static long indexOf(final ConsumerRecord<byte[], byte[]> record) {
        final byte[] key = record.key();
        if (key == null || key.length != Long.BYTES) {
            final boolean format1 = key == null && record.headers().lastHeader(FORMAT_1_INDEX_HEADER) != null;
            throw new ReplicationRefusedException("record at offset " + record.offset() + " of " + record.topic() + (format1
                    ? " is of topic format 1 (its index in header " + FORMAT_1_INDEX_HEADER + "), written by an older "
                    + "shipper; this version reads topic format " + FORMAT + " only (the index in the record key): ship "
                    + "the journals afresh under a new deployment id, or finish this one with the older version"
                    : " has no 8-byte key holding its index: not a Sluice replication record (topic format " + FORMAT + ")"));
        }
        long index = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            index = index << 8 | key[i] & 0xFF;
        }
        return index;
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
