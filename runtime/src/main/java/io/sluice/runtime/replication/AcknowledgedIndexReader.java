package io.sluice.runtime.replication;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * How far Kafka has acknowledged one journal of a deployment, as its replication shipper publishes it in
 * {@link AcknowledgedIndexFile}: what a gateway in "replication: acknowledged" mode polls before it lets a report
 * out. {@link #acknowledgedIndex()} costs two memory reads and allocates nothing once the counter is found.
 * <p>
 * It copes with a shipper not started yet (no file: {@link AcknowledgedIndexFile#NOTHING_ACKNOWLEDGED}, the file looked
 * for again at most every {@link #RETRY_NANOS} ns), with a journal the shipper has not picked up yet (looked up again
 * at the same pace), and with a restarted shipper (a new generation in the file's header: the counter is looked up
 * again). Looking up allocates a little; only those rare events do. Single-threaded.
 */
public final class AcknowledgedIndexReader implements AutoCloseable {
    /** The least time between two looks for a missing file or counter. */
    public static final long RETRY_NANOS = 100_000_000L;

    private final Path file;
    private final String journalName;
    private MappedByteBuffer mapped;
    private UnsafeBuffer header;
    private CountersReader counters;
    private long generation;
    private int counterId = CountersReader.NULL_COUNTER_ID;
    private long nextLookNanos;

    /**
     * @param root        the deployment's journal root (the shipper's)
     * @param journalName the journal's directory name, e.g. {@code engine}
     */
    public AcknowledgedIndexReader(final Path root, final String journalName) {
        this.file = AcknowledgedIndexFile.path(root);
        this.journalName = journalName;
    }

    /**
     * @return the highest index of the journal Kafka has acknowledged, or {@link AcknowledgedIndexFile#NOTHING_ACKNOWLEDGED}
     * if nothing is known to be (no shipper, no counter yet, a shipper rewriting its counters)
     */
    public long acknowledgedIndex() {
        if (header != null) {
            final long current = header.getLongVolatile(AcknowledgedIndexFile.GENERATION_OFFSET);
            if (current == generation && counterId != CountersReader.NULL_COUNTER_ID) {
                return counters.getCounterValue(counterId);
            }
        }
        return lookUp();
    }

    private long lookUp() {
        final long now = System.nanoTime();
        if (now - nextLookNanos < 0) {
            return AcknowledgedIndexFile.NOTHING_ACKNOWLEDGED;
        }
        nextLookNanos = now + RETRY_NANOS;
        if (header == null && !map()) {
            return AcknowledgedIndexFile.NOTHING_ACKNOWLEDGED;
        }
        final long current = header.getLongVolatile(AcknowledgedIndexFile.GENERATION_OFFSET);
        counterId = CountersReader.NULL_COUNTER_ID;
        if (current == 0) {
            return AcknowledgedIndexFile.NOTHING_ACKNOWLEDGED; // a shipper is writing its counters
        }
        generation = current;
        counters.forEach((id, typeId, key, label) -> {
            if (typeId == AcknowledgedIndexFile.ACKNOWLEDGED_INDEX_TYPE_ID && label.equals(journalName)) {
                counterId = id;
            }
        });
        if (counterId == CountersReader.NULL_COUNTER_ID
                || header.getLongVolatile(AcknowledgedIndexFile.GENERATION_OFFSET) != generation) {
            counterId = CountersReader.NULL_COUNTER_ID;
            return AcknowledgedIndexFile.NOTHING_ACKNOWLEDGED;
        }
        return counters.getCounterValue(counterId);
    }

    private boolean map() {
        mapped = AcknowledgedIndexFile.LAYOUT.mapForReading(file);
        if (mapped == null) {
            return false; // no shipper yet, or one creating the file
        }
        header = AcknowledgedIndexFile.LAYOUT.header(mapped);
        counters = AcknowledgedIndexFile.LAYOUT.reader(mapped);
        return true;
    }

    @Override
    public void close() {
        if (mapped != null) {
            IoUtil.unmap(mapped);
            mapped = null;
            header = null;
        }
    }
}
