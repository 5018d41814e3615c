package io.sluice.replication;

import io.sluice.runtime.process.PollUntil;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A standby's watch of the lease topic, against a real broker: silence is counted from when heartbeats arrive here. */
final class PrimaryWatchTest {
    @RegisterExtension
    static final BrokerPerTestClass kafka = new BrokerPerTestClass();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aHeartbeatReadInARoundThatBeganLongAgoArrivedWhenItWasReadSoThePrimaryIsNotSilent() throws Exception {
        final String deployment = "watch-late-round";
        final String servers = kafka.bootstrapServers();
        try (Admin admin = Admin.create(KafkaClients.admin(servers, "watch-test-admin"))) {
            admin.createTopics(List.of(new NewTopic(LeaseTopic.of(deployment), 1, (short) 1),
                    new NewTopic(LogTopic.of(deployment), 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<byte[], byte[]> heartbeats = new KafkaProducer<>(KafkaClients.producer(servers,
                "watch-test-heartbeats", 0), new ByteArraySerializer(), new ByteArraySerializer());
             PrimaryWatch watch = new PrimaryWatch(servers, deployment, "watch-test",
                     SystemNanoClock.INSTANCE, SystemEpochClock.INSTANCE)) {
            beat(heartbeats, deployment, 1);
            PollUntil.await(() -> watch.poll(System.currentTimeMillis()) >= 0 && watch.state() == PrimaryWatch.State.PRIMARY,
                    TIMEOUT, () -> "the watch to read the first heartbeat");

            // A round of the standby's agent that began a minute ago (descheduled, or slow before it polled) reads the
            // next heartbeat: it arrived now, not when the round began.
            final long roundBeganMillis = System.currentTimeMillis() - 60_000;
            beat(heartbeats, deployment, 2);
            PollUntil.await(() -> watch.poll(roundBeganMillis) >= 0 && watch.lastHeartbeat().writtenMillis() == 2,
                    TIMEOUT, () -> "the watch to read the second heartbeat");

            assertEquals(0, watch.silentMillis(), "a heartbeat just read leaves no silence");
        }
    }

    private static void beat(final KafkaProducer<byte[], byte[]> producer, final String deployment, final long stamp)
            throws Exception {
        producer.send(new ProducerRecord<>(LeaseTopic.of(deployment), 0, null,
                new LeaseRecord(LeaseRecord.Kind.HEARTBEAT, stamp, "the shipper of the test").toValue()))
                .get(30, TimeUnit.SECONDS);
    }
}
