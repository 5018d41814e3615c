package io.sluice.replication;

import io.sluice.runtime.process.PollUntil;
import org.agrona.concurrent.CachedEpochClock;
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
        final String servers = createTopics(deployment);
        try (KafkaProducer<byte[], byte[]> heartbeats = new KafkaProducer<>(KafkaClients.producer(servers,
                "watch-test-heartbeats", 0), new ByteArraySerializer(), new ByteArraySerializer());
             PrimaryWatch watch = new PrimaryWatch(servers, deployment, "watch-test",
                     2_000, SystemNanoClock.INSTANCE, SystemEpochClock.INSTANCE)) {
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

    @Test
    void kafkaIsAskedTheMomentTheSilenceReachesWhatTheStandbyActsOnNotAtTheNextRegularQuestion() throws Exception {
        final String deployment = "watch-threshold";
        final String servers = createTopics(deployment);
        // A silence to act on between two regular questions: 1.5 of them.
        final long silenceToAct = PrimaryWatch.ASK_MILLIS * 3 / 2;
        final CachedEpochClock clock = new CachedEpochClock();
        final long arrived = 1_000_000;
        clock.update(arrived);
        try (KafkaProducer<byte[], byte[]> heartbeats = new KafkaProducer<>(KafkaClients.producer(servers,
                "watch-test-heartbeats", 0), new ByteArraySerializer(), new ByteArraySerializer());
             PrimaryWatch watch = new PrimaryWatch(servers, deployment, "watch-test", silenceToAct,
                     SystemNanoClock.INSTANCE, clock)) {
            beat(heartbeats, deployment, 1);
            PollUntil.await(() -> watch.poll(clock.time()) >= 0 && watch.state() == PrimaryWatch.State.PRIMARY,
                    TIMEOUT, () -> "the watch to read the heartbeat");

            clock.update(arrived + PrimaryWatch.ASK_MILLIS);
            watch.poll(clock.time());
            assertEquals(PrimaryWatch.ASK_MILLIS, watch.silentMillis(), "the regular question, answered");

            clock.update(arrived + silenceToAct);
            watch.poll(clock.time());
            assertEquals(silenceToAct, watch.silentMillis(),
                    "asked when the silence reached what the standby acts on, before the next regular question");
        }
    }

    /** Creates the deployment's lease topic and log: @return the broker's bootstrap servers */
    private static String createTopics(final String deployment) throws Exception {
        final String servers = kafka.bootstrapServers();
        try (Admin admin = Admin.create(KafkaClients.admin(servers, "watch-test-admin"))) {
            admin.createTopics(List.of(new NewTopic(LeaseTopic.of(deployment), 1, (short) 1),
                    new NewTopic(LogTopic.of(deployment), 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        return servers;
    }

    private static void beat(final KafkaProducer<byte[], byte[]> producer, final String deployment, final long stamp)
            throws Exception {
        producer.send(new ProducerRecord<>(LeaseTopic.of(deployment), 0, null,
                new LeaseRecord(LeaseRecord.Kind.HEARTBEAT, stamp, "the shipper of the test").toValue()))
                .get(30, TimeUnit.SECONDS);
    }
}
