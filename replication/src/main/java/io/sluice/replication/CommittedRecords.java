package io.sluice.replication;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What a topic holds as committed, read the way every Sluice reader of the topics reads them ({@code read_committed}):
 * where a shipper resumes (its last committed record), which record follows a replica's last excerpt, and how far
 * Kafka's committed records reach for {@code ./sluice promote}.
 * <p>
 * The shipper publishes in Kafka transactions ({@link Shipper}), so a topic's offsets no longer count excerpts: each
 * commit leaves a marker, and records of an aborted transaction (a shipper killed mid-transaction) stay in the log,
 * invisible to a {@code read_committed} consumer. So positions are found by reading, not computed: the last committed
 * record by reading back from the last stable offset in growing windows, and the record carrying a given index by a
 * binary search over offsets (committed records' indexes grow with their offsets). Each look is one fetch; at start only.
 */
public final class CommittedRecords implements AutoCloseable {
    /** The first window read back from the last stable offset: a transaction's records and its marker usually fit. */
    private static final long FIRST_WINDOW = 64;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Duration wait;

    /** A partition's offsets as a {@code read_committed} consumer sees them: log start and last stable offset. */
    public record Bounds(long start, long stable) {
    }

    public CommittedRecords(final String servers, final String clientId, final Duration wait) {
        final Properties properties = Shipper.consumerProperties(servers, clientId);
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(64 * 1024));
        this.consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.wait = wait;
    }

    /** @throws TimeoutException if Kafka does not answer within the wait */
    public Bounds bounds(final TopicPartition partition) {
        final long start = consumer.beginningOffsets(List.of(partition), wait).get(partition);
        final long stable = consumer.endOffsets(List.of(partition), wait).get(partition);
        return new Bounds(start, stable);
    }

    /**
     * @return the last committed record of {@code partition} below {@code bounds.stable()}, or null if it holds none
     * (empty, or only records of aborted transactions)
     * @throws TimeoutException if Kafka does not answer within the wait
     */
    public ConsumerRecord<byte[], byte[]> last(final TopicPartition partition, final Bounds bounds) {
        long window = FIRST_WINDOW;
        long to = bounds.stable();
        while (to > bounds.start()) {
            final long from = Math.max(bounds.start(), to - window);
            final ConsumerRecord<byte[], byte[]> last = lastIn(partition, from, to);
            if (last != null) {
                return last;
            }
            to = from;
            window *= 4;
        }
        return null;
    }

    /**
     * @return the first committed record of {@code partition} at an offset from {@code from} up to
     * {@code bounds.stable()} whose index header is at least {@code index}, or null if there is none
     * @throws TimeoutException if Kafka does not answer within the wait
     */
    public ConsumerRecord<byte[], byte[]> firstFrom(final TopicPartition partition, final long from, final Bounds bounds,
                                                     final long index) {
        long low = Math.max(from, bounds.start());
        long high = bounds.stable();
        // The smallest offset whose first committed record is absent or carries an index >= index: monotone in offset.
        while (low < high) {
            final long middle = low + (high - low) / 2;
            final ConsumerRecord<byte[], byte[]> first = firstIn(partition, middle, bounds.stable());
            if (first == null || indexOf(first) >= index) {
                high = middle;
            } else {
                low = first.offset() + 1;
            }
        }
        return low < bounds.stable() ? firstIn(partition, low, bounds.stable()) : null;
    }

    /** @return the Chronicle index a record carries */
    public static long indexOf(final ConsumerRecord<byte[], byte[]> record) {
        return ReplicationTopics.indexOf(record);
    }

    /**
     * @return the index of the last committed record of every topic of {@code deployment}, by journal name (-1 for a
     * topic with none): how far Kafka's committed copy of each journal reaches
     * @throws org.apache.kafka.common.KafkaException if Kafka does not answer within {@code wait}
     */
    public static Map<String, Long> lastIndexes(final String servers, final String deployment, final Duration wait) {
        try (CommittedRecords records = new CommittedRecords(servers, "sluice-last-indexes", wait)) {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (final String topic : records.consumer.listTopics(wait).keySet()) {
                if (ReplicationTopics.journalOf(deployment, topic) != null) {
                    partitions.add(new TopicPartition(topic, 0));
                }
            }
            final Map<String, Long> last = new TreeMap<>();
            for (final TopicPartition partition : partitions) {
                final ConsumerRecord<byte[], byte[]> record = records.last(partition, records.bounds(partition));
                last.put(ReplicationTopics.journalOf(deployment, partition.topic()).name(), record == null ? -1 : indexOf(record));
            }
            return last;
        }
    }

    private ConsumerRecord<byte[], byte[]> lastIn(final TopicPartition partition, final long from, final long to) {
        consumer.assign(List.of(partition));
        consumer.seek(partition, from);
        ConsumerRecord<byte[], byte[]> last = null;
        final long deadline = System.nanoTime() + wait.toNanos();
        while (consumer.position(partition, wait) < to) {
            for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                if (record.offset() < to) {
                    last = record;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("reading offsets " + from + " to " + to + " of " + partition + ": no answer in "
                        + wait.toMillis() + " ms");
            }
        }
        return last;
    }

    private ConsumerRecord<byte[], byte[]> firstIn(final TopicPartition partition, final long from, final long to) {
        consumer.assign(List.of(partition));
        consumer.seek(partition, from);
        final long deadline = System.nanoTime() + wait.toNanos();
        while (consumer.position(partition, wait) < to) {
            for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                if (record.offset() >= from) {
                    return record.offset() < to ? record : null;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("reading offset " + from + " of " + partition + ": no answer in "
                        + wait.toMillis() + " ms");
            }
        }
        return null;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
