package io.sluice.replication;

import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A standby's view of its deployment's lease topic ({@link LeaseTopic}): when the primary's last heartbeat arrived
 * here, and who claimed the deployment since. Silence is measured on this host's clock, from arrivals, never from the
 * stamps other hosts wrote, and counts only while Kafka answers: the time between an unanswered question and the next
 * answer is left out (a broker restarting, a standby cut off from Kafka: no silence it could act on, nor could it
 * fence anyone).
 */
final class PrimaryWatch implements AutoCloseable {
    /** How often Kafka is asked for the lease topic's end, which shows it answers. */
    static final long ASK_MILLIS = 100;
    private static final Duration ASK_WAIT = Duration.ofMillis(500);
    /** How long Kafka left the watch unanswered for it to count as an outage, after which silence starts afresh. */
    static final long OUTAGE_MILLIS = 1000;

    /** What the lease topic says about the deployment's primary. */
    enum State {
        /** The lease topic does not exist, or holds nothing yet: no primary has shipped. */
        NO_PRIMARY_YET,
        /** The last record is a heartbeat: a primary ships (or did, until it fell silent). */
        PRIMARY,
        /** The last record after the last heartbeat is a claim: a standby took the deployment over. */
        CLAIMED
    }

    private final TopicPartition partition;
    private final TopicPartition log;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private State state = State.NO_PRIMARY_YET;
    private boolean assigned;
    private long lastArrivalMillis;
    private long lastAnswerMillis = -1;
    private long nextAskMillis;
    /** When Kafka first left a question unanswered since its last answer, or -1 while it answers. */
    private long unansweredSinceMillis = -1;
    /** The lease topic's end at Kafka's last answer, or -1 before the first. */
    private long lastEnd = -1;
    private LeaseRecord lastHeartbeat;
    private long lastHeartbeatOffset = -1;
    private LeaseRecord firstClaim;
    private long firstClaimOffset = -1;

    PrimaryWatch(final String servers, final String deployment, final String clientId, final NanoClock nanoClock,
                 final EpochClock epochClock) {
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
        this.partition = new TopicPartition(LeaseTopic.of(deployment), 0);
        this.log = new TopicPartition(LogTopic.of(deployment), 0);
        this.consumer = new KafkaConsumer<>(KafkaClients.watcher(servers, clientId), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    /** Reads what arrived and asks Kafka for the topic's end when due: @return the records read */
    int poll(final long nowMillis) {
        if (!assigned) {
            return assign(nowMillis);
        }
        int read = 0;
        final ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ZERO);
        // Arrival is when the poll returned, on the clock the answers below are read from: a caller's nowMillis,
        // taken before a slow round, would date the arrival too early and make a live primary look silent.
        final long arrivedMillis = epochClock.time();
        for (final ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
            read(record, arrivedMillis);
            read++;
        }
        if (nowMillis >= nextAskMillis) {
            nextAskMillis = nowMillis + ASK_MILLIS;
            // A question Kafka leaves unanswered is silence from when it was asked: the wait for its answer counts
            // for nothing either.
            final long askedMillis = epochClock.time();
            try {
                final long end = consumer.endOffsets(List.of(partition), ASK_WAIT).get(partition);
                lastAnswerMillis = epochClock.time();
                lastEnd = end;
                if (unansweredSinceMillis >= 0) {
                    // Silence while Kafka did not answer counts for nothing; after an outage, none before it either:
                    // the primary, cut off from Kafka as well, reconnects and resumes its transaction before it can
                    // beat again, and gets the whole failover time for it.
                    final long unanswered = lastAnswerMillis - unansweredSinceMillis;
                    lastArrivalMillis = unanswered >= OUTAGE_MILLIS ? lastAnswerMillis
                            : Math.min(lastAnswerMillis, lastArrivalMillis + unanswered);
                    unansweredSinceMillis = -1;
                }
                if (end > consumer.position(partition, ASK_WAIT)) {
                    lastArrivalMillis = lastAnswerMillis; // in Kafka, not fetched yet: no silence
                }
            } catch (final KafkaException unanswered) {
                if (unansweredSinceMillis < 0) {
                    unansweredSinceMillis = askedMillis;
                }
            }
        }
        return read;
    }

    /** Starts reading at the topic's last record once it exists: what it says is where the deployment stands. */
    private int assign(final long nowMillis) {
        if (nowMillis < nextAskMillis) {
            return 0;
        }
        nextAskMillis = nowMillis + ASK_MILLIS;
        try {
            final Map<String, ?> topics = consumer.listTopics(ASK_WAIT);
            if (!topics.containsKey(partition.topic()) || !topics.containsKey(log.topic())) {
                return 0;
            }
            // The log is assigned but paused, never fetched: its metadata stays known, so asking for its end is one
            // request (a partition not assigned costs a metadata request first, every time).
            consumer.assign(List.of(partition, log));
            consumer.seekToEnd(List.of(log));
            consumer.pause(List.of(log));
            final long end = consumer.endOffsets(List.of(partition), ASK_WAIT).get(partition);
            final long start = consumer.beginningOffsets(List.of(partition), ASK_WAIT).get(partition);
            consumer.seek(partition, Math.max(start, end - 64));
            lastEnd = end;
        } catch (final KafkaException unanswered) {
            return 0;
        }
        assigned = true;
        lastArrivalMillis = nowMillis; // a standby started after the primary died counts the silence from its start
        lastAnswerMillis = nowMillis;
        return 1;
    }

    private void read(final ConsumerRecord<byte[], byte[]> record, final long nowMillis) {
        final LeaseRecord lease;
        try {
            lease = LeaseRecord.of(record.value());
        } catch (final IllegalArgumentException e) {
            return; // not ours to judge: only heartbeats and claims count
        }
        lastArrivalMillis = nowMillis;
        if (lease.kind() == LeaseRecord.Kind.HEARTBEAT) {
            lastHeartbeat = lease;
            lastHeartbeatOffset = record.offset();
            firstClaim = null;
            firstClaimOffset = -1;
            state = State.PRIMARY;
        } else if (firstClaim == null) {
            firstClaim = lease;
            firstClaimOffset = record.offset();
            state = State.CLAIMED;
        }
    }

    State state() {
        return state;
    }

    /**
     * @return how long the lease topic has been silent, ms, as far as Kafka's answers show: 0 while Kafka has not
     * answered since the last arrival
     */
    long silentMillis() {
        return Math.max(0, lastAnswerMillis - lastArrivalMillis);
    }

    /** @return the newest heartbeat read, or null */
    LeaseRecord lastHeartbeat() {
        return lastHeartbeat;
    }

    /** @return the first claim after the newest heartbeat, or null: the standby that took the deployment over */
    LeaseRecord firstClaim() {
        return firstClaim;
    }

    long firstClaimOffset() {
        return firstClaimOffset;
    }

    long lastHeartbeatOffset() {
        return lastHeartbeatOffset;
    }

    /**
     * @return the end of the deployment's log (its high watermark: the next offset to be written), asked of Kafka now
     * through this watch's consumer
     * @throws KafkaException if Kafka does not answer in time
     */
    long logEnd() {
        return consumer.endOffsets(List.of(log), ASK_WAIT).get(log);
    }

    /** @return true once every record the lease topic held at Kafka's last answer has been read */
    boolean readToEnd() {
        return assigned && lastEnd >= 0 && consumer.position(partition, ASK_WAIT) >= lastEnd;
    }

    /** Reads until {@code offset} is read, or {@code wait} has passed: @return true if it was */
    boolean readPast(final long offset, final Duration wait) {
        final long deadline = nanoClock.nanoTime() + wait.toNanos();
        while (consumer.position(partition, wait) <= offset) {
            if (nanoClock.nanoTime() > deadline) {
                return false;
            }
            for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(20)).records(partition)) {
                read(record, epochClock.time());
            }
        }
        return true;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(1));
    }
}
