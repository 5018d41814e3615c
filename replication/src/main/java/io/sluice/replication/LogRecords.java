package io.sluice.replication;

import org.agrona.concurrent.NanoClock;
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
import java.util.function.Predicate;
import java.util.zip.CRC32C;

/**
 * What a deployment's log holds, looked up by reading it ({@link LogTopic}, one partition). Where each journal ends in
 * it (where a shipper resumes, how far {@code ./sluice promote} must have caught up), and after which record a replica
 * resumes. At start only; each look is a fetch or a few.
 * <ul>
 *   <li>A journal's last excerpt: the shipper opens every transaction with a positions record ({@link LogFrame}), so
 *   the log is read back from its end to the last positions record, and forward from there.</li>
 *   <li>A replica's resume point: the receiver writes the log's excerpts in the log's order, so a replica holds a
 *   prefix of the log; a binary search over offsets finds its end, one fetch per step.</li>
 * </ul>
 */
public final class LogRecords implements AutoCloseable {
    /** The first window read back from the log's end: a positions record usually falls in it. */
    private static final long FIRST_WINDOW = 16;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicPartition partition;
    private final Duration wait;
    private final NanoClock clock;
    private final LogFrameReader frame = new LogFrameReader();
    private final CRC32C crc = new CRC32C();

    /** The log's offsets: its start, and its end (the high watermark: the next offset to be written). */
    public record Bounds(long start, long end) {
    }

    /** A journal's last excerpt in the log: its index and the CRC-32C of its bytes. */
    public record LastExcerpt(long index, int checksum) {
    }

    public LogRecords(final String servers, final String clientId, final String deployment, final Duration wait,
                      final NanoClock clock) {
        this.clock = clock;
        final Properties properties = KafkaClients.consumer(servers, clientId);
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(1024 * 1024));
        this.consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.partition = new TopicPartition(LogTopic.of(deployment), 0);
        this.wait = wait;
    }

    /** @throws TimeoutException if Kafka does not answer within the wait */
    public Bounds bounds() {
        final long start = consumer.beginningOffsets(List.of(partition), wait).get(partition);
        final long end = consumer.endOffsets(List.of(partition), wait).get(partition);
        return new Bounds(start, end);
    }

    /**
     * @return each journal's last excerpt in the log below {@code bounds.end()}, by journal name (index -1: a journal
     * the shipper ships that has no excerpt in the log yet; absent: a journal the log does not know)
     * @throws TimeoutException if Kafka does not answer within the wait
     * @throws IllegalArgumentException if a record is no log frame of this format
     */
    public Map<String, LastExcerpt> lastExcerpts(final Bounds bounds) {
        final long positions = lastPositionsOffset(bounds);
        final Map<String, LastExcerpt> last = new TreeMap<>();
        scan(positions < 0 ? bounds.start() : positions, bounds.end(), record -> {
            final LogFrame.Kind kind = frame.wrap(record.value());
            if (kind == LogFrame.Kind.POSITIONS && record.offset() != positions) {
                return true; // only the last one counts, and nothing follows it
            }
            while (frame.next()) {
                last.put(frame.name(), new LastExcerpt(frame.index(), kind == LogFrame.Kind.POSITIONS ? frame.checksum()
                        : LogFrame.checksum(crc, frame.value(), frame.excerptOffset(), frame.excerptLength())));
            }
            return true;
        });
        return last;
    }

    /** @return the offset of the last positions record below {@code bounds.end()}, or -1 if there is none */
    private long lastPositionsOffset(final Bounds bounds) {
        long window = FIRST_WINDOW;
        long to = bounds.end();
        while (to > bounds.start()) {
            final long from = Math.max(bounds.start(), to - window);
            final long[] found = {-1};
            scan(from, to, record -> {
                if (frame.wrap(record.value()) == LogFrame.Kind.POSITIONS) {
                    found[0] = record.offset();
                }
                return true;
            });
            if (found[0] >= 0) {
                return found[0];
            }
            to = from;
            window *= 4;
        }
        return -1;
    }

    /**
     * @param replicaLast the replica's last index of each journal, by name (absent: the journal is empty or missing)
     * @return the offset after the last frame of excerpts the replica holds whole: where its receiver resumes (records
     * of a frame it holds in part are found there again and skipped as duplicates)
     */
    public long resumeOffset(final Map<String, Long> replicaLast, final Bounds bounds) {
        long low = bounds.start();
        long high = bounds.end();
        // The smallest offset whose first frame of excerpts is absent or not held whole: monotone, as the replica holds
        // a prefix of the log.
        while (low < high) {
            final long middle = low + (high - low) / 2;
            final ConsumerRecord<byte[], byte[]> first = firstExcerptsFrom(middle, bounds.end());
            if (first == null || !heldWhole(first, replicaLast)) {
                high = middle;
            } else {
                low = first.offset() + 1;
            }
        }
        return low;
    }

    private boolean heldWhole(final ConsumerRecord<byte[], byte[]> record, final Map<String, Long> replicaLast) {
        frame.wrap(record.value());
        String name = null;
        long index = -1;
        while (frame.next()) {
            name = frame.name();
            index = frame.index();
        }
        return name != null && index <= replicaLast.getOrDefault(name, -1L);
    }

    /**
     * @return the first frame of excerpts at an offset from {@code from} below {@code to}, or null if there is none
     * @throws TimeoutException if Kafka does not answer within the wait
     */
    public ConsumerRecord<byte[], byte[]> firstExcerptsFrom(final long from, final long to) {
        final List<ConsumerRecord<byte[], byte[]>> first = new ArrayList<>(1);
        scan(from, to, record -> {
            if (frame.wrap(record.value()) == LogFrame.Kind.EXCERPTS) {
                first.add(record);
                return false;
            }
            return true;
        });
        return first.isEmpty() ? null : first.getFirst();
    }

    /** Hands each record from offset {@code from} below {@code to} to {@code visitor}, in order, until it says stop. */
    private void scan(final long from, final long to, final Predicate<ConsumerRecord<byte[], byte[]>> visitor) {
        long offset = from;
        while (offset < to) {
            final List<ConsumerRecord<byte[], byte[]>> records = poll(offset, to);
            if (records.isEmpty()) {
                return;
            }
            for (final ConsumerRecord<byte[], byte[]> record : records) {
                if (record.offset() >= to || !visitor.test(record)) {
                    return;
                }
                offset = record.offset() + 1;
            }
        }
    }

    /**
     * @return the records of one fetch from {@code from} on, or none if the log holds no record from {@code from} below
     * {@code to} (transaction markers only)
     * @throws TimeoutException if Kafka does not answer within the wait
     */
    private List<ConsumerRecord<byte[], byte[]>> poll(final long from, final long to) {
        consumer.assign(List.of(partition));
        consumer.seek(partition, from);
        final long deadline = clock.nanoTime() + wait.toNanos();
        while (true) {
            final List<ConsumerRecord<byte[], byte[]>> records = consumer.poll(Duration.ofMillis(100)).records(partition);
            if (!records.isEmpty()) {
                return records;
            }
            if (consumer.position(partition, wait) >= to) {
                return List.of(); // the rest below `to` was markers only
            }
            if (clock.nanoTime() > deadline) {
                throw new TimeoutException("reading offset " + from + " of " + partition + ": no answer in "
                        + wait.toMillis() + " ms");
            }
        }
    }

    /**
     * @return the index of the last excerpt of every journal in the log of {@code deployment}, by journal name (-1 for a
     * journal shipped with none yet): how far Kafka's copy of each journal reaches
     * @throws org.apache.kafka.common.KafkaException if Kafka does not answer within {@code wait}
     */
    public static Map<String, Long> lastIndexes(final String servers, final String deployment, final Duration wait,
                                                final NanoClock clock) {
        try (LogRecords records = new LogRecords(servers, "sluice-last-indexes", deployment, wait, clock)) {
            if (!records.consumer.listTopics(wait).containsKey(LogTopic.of(deployment))) {
                return Map.of();
            }
            final Map<String, Long> last = new TreeMap<>();
            records.lastExcerpts(records.bounds()).forEach((journal, excerpt) -> last.put(journal, excerpt.index()));
            return last;
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ZERO); // no group, nothing to commit: nothing to wait for
    }
}
