package io.sluice.bench.replication;

import io.sluice.replication.KafkaClients;
import io.sluice.replication.ReplicationConfig;
import io.sluice.runtime.TimerSlack;
import io.sluice.runtime.process.ProcessCpuTime;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Plain Kafka at a given rate, the floor replication builds on, against the same broker in the same run. An idempotent
 * producer with {@code acks=all} and the shipper's settings ({@link KafkaClients#producer}), and a consumer with the
 * receiver's default fetch batching ({@link KafkaClients#batchedConsumer}), one partition, records of the excerpts' size. It measures what Kafka's
 * own tools do (kafka-tools' {@code ProducerPerformance} and {@code EndToEndLatency}): each record's produce latency
 * (send to acknowledgement), its end-to-end latency (send to the consumer's poll returning it, one clock: one
 * process), the broker's CPU time per record, and the clients' (the producer's I/O thread and the consuming thread: the
 * floor under a shipper and a receiver, whose sending thread's {@code send()} calls are not counted, as the pacing loop
 * around them would count too); and the produce latency of one record in flight at a time (ping-pong), what a gateway
 * in acknowledged mode pays per report at best.
 */
public final class PlainKafka implements AutoCloseable {
    private static final long MAX_PARK_NANOS = 20_000;
    private static final String PRODUCER_ID = "plain-producer";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final String servers;
    private final String topic;
    private final long brokerPid;
    private final int recordBytes;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicPartition partition;
    /** How many records the consumer has had, over every phase so far. */
    private volatile long consumed;
    /** How many records the producer has sent, over every phase so far. */
    private long produced;
    /** How many sends failed (the producer gave up on them), over every phase so far. */
    private final AtomicLong failed = new AtomicLong();
    private volatile Exception failure;
    /** The consuming thread's CPU time in the last phase, read by that thread before it ends. */
    private volatile long consumerCpuNanos;

    /** One phase's figures. */
    public record Result(String name, long records, double writtenPerSecond, Histogram produce, Histogram endToEnd,
                         double brokerCpuMicrosPerRecord, double clientCpuMicrosPerRecord) {
    }

    public PlainKafka(final String servers, final String topic, final long brokerPid, final int recordBytes,
                      final int lingerMillis) throws Exception {
        this.servers = servers;
        this.topic = topic;
        this.brokerPid = brokerPid;
        this.recordBytes = Math.max(Long.BYTES, recordBytes);
        try (Admin admin = Admin.create(KafkaClients.admin(servers, "plain-admin"))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        producer = new KafkaProducer<>(KafkaClients.producer(servers, PRODUCER_ID, lingerMillis),
                new ByteArraySerializer(), new ByteArraySerializer());
        consumer = new KafkaConsumer<>(KafkaClients.batchedConsumer(servers, "plain-consumer",
                ReplicationConfig.DEFAULT_FETCH_MIN_BYTES, ReplicationConfig.DEFAULT_FETCH_MAX_WAIT_MILLIS),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        partition = new TopicPartition(topic, 0);
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition)); // a new topic: every record this run produces
    }

    /** Produces {@code count} records at {@code rate} a second (0: flat out) while consuming them: @return the figures */
    public Result run(final String name, final long rate, final long count) throws Exception {
        final Histogram produce = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final Histogram endToEnd = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final long cpuBefore = brokerCpuNanos(); // less its JIT compilers, as Sluice's processes are measured
        final long producerCpuBefore = producerThreadCpuNanos();
        produced += count;
        final long target = produced;
        final Thread consuming = new Thread(() -> consume(target, endToEnd), "plain-consumer");
        consuming.setDaemon(true);
        consuming.start();
        TimerSlack.set(TimerSlack.FINE_NANOS);
        final long period = rate == 0 ? 0 : 1_000_000_000L / rate;
        final long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            if (period > 0) {
                final long due = start + i * period;
                for (long early = due - System.nanoTime(); early > 0; early = due - System.nanoTime()) {
                    if (early > 2 * MAX_PARK_NANOS) {
                        LockSupport.parkNanos(early - MAX_PARK_NANOS);
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }
            final long sent = System.nanoTime();
            final byte[] value = new byte[recordBytes];
            ByteBuffer.wrap(value).putLong(sent);
            producer.send(new ProducerRecord<>(topic, 0, null, value), (metadata, e) -> {
                if (e == null) {
                    produce.recordValue(Math.min(System.nanoTime() - sent, produce.getHighestTrackableValue()));
                } else {
                    failed.incrementAndGet();
                    failure = e;
                }
            });
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        producer.flush();
        consuming.join();
        if (consumed < target - failed.get()) {
            throw new IllegalStateException("plain Kafka: the consumer had " + consumed + " of " + target + " records ("
                    + name + ") after 30 s without one; " + failed.get() + " sends failed: " + failure);
        }
        if (failed.get() > 0) {
            System.out.println("plain Kafka: " + failed.get() + " sends failed so far, the last: " + failure);
        }
        final double brokerMicros = (brokerCpuNanos() - cpuBefore) / 1e3 / count;
        final double clientMicros = (producerThreadCpuNanos() - producerCpuBefore + consumerCpuNanos) / 1e3 / count;
        return new Result(name, count, count / seconds, produce, endToEnd, brokerMicros, clientMicros);
    }

    /** Consumes until {@code target} records in all (a poll's last records may be the next phase's first ones). */
    private void consume(final long target, final Histogram endToEnd) {
        final long cpuStart = THREADS.getCurrentThreadCpuTime();
        long received = consumed;
        long lastNanos = System.nanoTime();
        while (received < target - failed.get() && System.nanoTime() - lastNanos < TimeUnit.SECONDS.toNanos(30)) {
            for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(20))) {
                final long sent = ByteBuffer.wrap(record.value()).getLong();
                endToEnd.recordValue(Math.max(0, Math.min(System.nanoTime() - sent, endToEnd.getHighestTrackableValue())));
                received++;
                lastNanos = System.nanoTime();
            }
        }
        consumed = received;
        consumerCpuNanos = THREADS.getCurrentThreadCpuTime() - cpuStart;
    }

    /** @return the broker's CPU time so far less its JIT compiler threads', nanoseconds */
    private long brokerCpuNanos() {
        return ProcessCpuTime.nanos(brokerPid) - ProcessCpuTime.compilerNanos(brokerPid);
    }

    /** @return the CPU time of the producer's I/O thread ({@code kafka-producer-network-thread | plain-producer}) */
    private static long producerThreadCpuNanos() {
        long nanos = 0;
        for (final Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().endsWith("| " + PRODUCER_ID)) {
                nanos += Math.max(0, THREADS.getThreadCpuTime(thread.threadId()));
            }
        }
        return nanos;
    }

    /** Sends {@code count} records one at a time, each after the previous one's acknowledgement: @return the latencies */
    public Histogram pingPong(final long count) throws Exception {
        final Histogram produce = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        for (long i = 0; i < count; i++) {
            final byte[] value = new byte[recordBytes];
            final long sent = System.nanoTime();
            producer.send(new ProducerRecord<>(topic, 0, null, value)).get();
            produce.recordValue(Math.min(System.nanoTime() - sent, produce.getHighestTrackableValue()));
        }
        return produce;
    }

    public String servers() {
        return servers;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        consumer.close();
    }
}
