package io.sluice.replication;

import org.agrona.concurrent.EpochClock;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Whether Kafka answers, as a shipper or receiver sees it, in its counters ({@link ReplicationCounters}: up or not,
 * every failure counted) and printed once per change of state (never once per retry):
 * {@code kafka unreachable at <servers> since ...: retrying; the journals' writers are not affected} and
 * {@code kafka reachable again ...}.
 */
final class KafkaLink {
    /** The states of the link. */
    enum State {
        /** Not yet heard from. */
        CONNECTING,
        /** Answering. */
        UP,
        /** Not answering: everything is retried, the lag grows. */
        UNREACHABLE
    }

    private static final DateTimeFormatter SINCE = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final String process;
    private final String servers;
    private final ReplicationCounters counters;
    private final EpochClock clock;
    private State state = State.CONNECTING;
    private long unreachableSinceMillis;

    KafkaLink(final String process, final String servers, final ReplicationCounters counters, final EpochClock clock) {
        this.process = process;
        this.clock = clock;
        this.servers = servers;
        this.counters = counters;
    }

    State state() {
        return state;
    }

    /**
     * @return the link's state as the lag lines show it: {@code kafka up}, {@code kafka connecting}, or
     * {@code kafka unreachable since 21:50:27 UTC (12 s)}
     */
    String describe() {
        if (state != State.UNREACHABLE) {
            return "kafka " + state.name().toLowerCase(Locale.ROOT);
        }
        return "kafka unreachable since " + SINCE.format(Instant.ofEpochMilli(unreachableSinceMillis)) + " ("
                + (clock.time() - unreachableSinceMillis) / 1000 + " s)";
    }

    /** Kafka answered. */
    void up() {
        if (state != State.UP) {
            if (state == State.UNREACHABLE) {
                System.out.println(process + ": kafka reachable again at " + servers + " after "
                        + (clock.time() - unreachableSinceMillis) + " ms; catching up");
            } else {
                System.out.println(process + ": kafka reachable at " + servers);
            }
            state = State.UP;
            counters.kafkaUp.setRelease(1);
        }
    }

    /** Kafka did not answer: {@code why} says how that showed. */
    void unreachable(final String why) {
        counters.kafkaErrors.incrementRelease();
        if (state != State.UNREACHABLE) {
            counters.kafkaUp.setRelease(0);
            unreachableSinceMillis = clock.time();
            System.out.println(process + ": kafka unreachable at " + servers + " (" + why
                    + "): retrying; the journals' writers are not affected, the lag grows until it is back");
            state = State.UNREACHABLE;
        }
    }
}
