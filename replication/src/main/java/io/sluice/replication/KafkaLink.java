package io.sluice.replication;

/**
 * Whether Kafka answers, as a shipper or receiver sees it, printed once per change of state (never once per retry):
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

    private final String process;
    private final String servers;
    private State state = State.CONNECTING;
    private long unreachableSinceMillis;

    KafkaLink(final String process, final String servers) {
        this.process = process;
        this.servers = servers;
    }

    State state() {
        return state;
    }

    /** Kafka answered. */
    void up() {
        if (state != State.UP) {
            if (state == State.UNREACHABLE) {
                System.out.println(process + ": kafka reachable again at " + servers + " after "
                        + (System.currentTimeMillis() - unreachableSinceMillis) + " ms; catching up");
            } else {
                System.out.println(process + ": kafka reachable at " + servers);
            }
            state = State.UP;
        }
    }

    /** Kafka did not answer: {@code why} says how that showed. */
    void unreachable(final String why) {
        if (state != State.UNREACHABLE) {
            unreachableSinceMillis = System.currentTimeMillis();
            System.out.println(process + ": kafka unreachable at " + servers + " (" + why
                    + "): retrying; the journals' writers are not affected, the lag grows until it is back");
            state = State.UNREACHABLE;
        }
    }
}
