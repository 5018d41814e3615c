package io.sluice.replication;

import java.util.ArrayDeque;

/**
 * The frames handed to the producer and not yet acknowledged, oldest first, on the shipper's agent thread: their bytes
 * bound what the shipper reads ahead of Kafka (flow control, so that the producer never runs out of buffer and
 * refuses a frame), and the oldest says how long Kafka has kept the shipper waiting.
 */
final class InFlightFrames {
    /** The most bytes of frames not yet acknowledged: the shipper reads no further until Kafka catches up. */
    static final long MAX_BYTES = 8L * 1024 * 1024;

    private final ArrayDeque<SentFrame> frames = new ArrayDeque<>();
    private long bytes;

    void add(final SentFrame frame) {
        frames.addLast(frame);
        bytes += frame.bytes;
    }

    /** Drops the acknowledged frames at the head: @return how many */
    int retireAcknowledged() {
        int retired = 0;
        while (!frames.isEmpty() && frames.peekFirst().acknowledged()) {
            bytes -= frames.pollFirst().bytes;
            retired++;
        }
        return retired;
    }

    /** @return true while more may be sent */
    boolean hasRoom() {
        return bytes < MAX_BYTES;
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
