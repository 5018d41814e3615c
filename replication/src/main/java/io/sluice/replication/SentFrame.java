package io.sluice.replication;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.util.concurrent.locks.LockSupport;

/**
 * One frame of excerpts handed to the producer: which journals it holds up to which index, so that Kafka's
 * acknowledgement of it (on the producer's callback thread) publishes each journal's acknowledged index at once, for
 * gateways in acknowledged mode ({@link ShippedJournal#acknowledge}); or the failure of its transaction. Frames of one
 * partition are acknowledged in order.
 */
final class SentFrame implements Callback {
    private final ShippedJournal[] journals;
    private final long[] lastIndex;
    private final int[] count;
    private final ShipperTransactions.Transaction transaction;
    /** The shipper's thread, woken by the answer: it may be waiting for it ({@link ShipperIdle}). */
    private final Thread shipper;
    /** The frame's bytes, for the shipper's flow control. */
    final int bytes;
    /** When the frame's first excerpt was read, SluiceClock ticks. */
    final long firstReadTicks;
    final long sentNanos;
    private volatile boolean acknowledged;

    SentFrame(final ShippedJournal[] journals, final long[] lastIndex, final int[] count,
              final ShipperTransactions.Transaction transaction, final int bytes, final long firstReadTicks,
              final long sentNanos, final Thread shipper) {
        this.journals = journals;
        this.lastIndex = lastIndex;
        this.count = count;
        this.transaction = transaction;
        this.bytes = bytes;
        this.firstReadTicks = firstReadTicks;
        this.sentNanos = sentNanos;
        this.shipper = shipper;
    }

    @Override
    public void onCompletion(final RecordMetadata metadata, final Exception e) {
        if (e != null) {
            transaction.fail(journals.length == 0 ? null : journals[0].name, lastIndex.length == 0 ? -1 : lastIndex[0], e);
        } else {
            for (int i = 0; i < journals.length; i++) {
                journals[i].acknowledge(lastIndex[i], count[i]);
            }
            acknowledged = true;
        }
        LockSupport.unpark(shipper);
    }

    /** @return true once Kafka acknowledged the frame */
    boolean acknowledged() {
        return acknowledged;
    }

    /** @return true if the frame holds excerpts of {@code journal} */
    boolean holds(final ShippedJournal journal) {
        for (final ShippedJournal held : journals) {
            if (held == journal) {
                return true;
            }
        }
        return false;
    }
}
