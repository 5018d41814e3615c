package io.sluice.replication;

import java.util.ArrayDeque;

/**
 * The frames handed to the producer and not yet acknowledged, oldest first, on the shipper's agent thread. At most
 * {@value #MAX_FRAMES} of them, and only full ones beside another: while one is in flight, what the writers append
 * waits in the journals and goes out in the next frame, so the frames grow with the rate and Kafka's round trip (a
 * trickle ships each excerpt at once, a stream one frame per round trip, a flood in full frames back to back: fewer
 * requests for the shipper, the broker and the receiver alike, with no timer to wait for). Their bytes bound what the
 * shipper reads ahead of Kafka (so that the producer never runs out of buffer and refuses a frame), and the oldest
 * says how long Kafka has kept the shipper waiting.
 */
final class InFlightFrames {
    /** The most frames not yet acknowledged. */
    static final int MAX_FRAMES = 8;
    /** The most bytes of frames not yet acknowledged: the shipper reads no further until Kafka catches up. */
    static final long MAX_BYTES = 8L * 1024 * 1024;

    private final ArrayDeque<SentFrame> frames = new ArrayDeque<>();
    private long bytes;

    void add(final SentFrame frame) {
        frames.addLast(frame);
        bytes += frame.bytes;
    }

    /** Drops the acknowledged frames at the head, each renewing {@code lease} from when it was sent: @return how many */
    int retireAcknowledged(final ShipperLease lease) {
        int retired = 0;
        while (!frames.isEmpty() && frames.peekFirst().acknowledged()) {
            final SentFrame frame = frames.pollFirst();
            bytes -= frame.bytes;
            lease.acknowledged(frame.sentNanos);
            retired++;
        }
        return retired;
    }

    /** @return true while another frame may be sent */
    boolean hasRoom() {
        return frames.size() < MAX_FRAMES && bytes < MAX_BYTES;
    }

    boolean isEmpty() {
        return frames.isEmpty();
    }

    /** @return when the oldest unacknowledged frame was sent, System.nanoTime(); meaningless if {@link #isEmpty()} */
    long oldestSentNanos() {
        return frames.peekFirst().sentNanos;
    }

    /** @return when the oldest unacknowledged frame holding {@code journal} began to be read, SluiceClock ticks; 0: none */
    long oldestTicks(final ShippedJournal journal) {
        for (final SentFrame frame : frames) {
            if (!frame.acknowledged() && frame.holds(journal)) {
                return frame.firstReadTicks;
            }
        }
        return 0;
    }

    /** The transaction was aborted: every frame in it is settled, and the journals resume from the log. */
    void clear() {
        frames.clear();
        bytes = 0;
    }
}
