package io.sluice.runtime.counters;

import org.agrona.IoUtil;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * How far Kafka has acknowledged one journal of a deployment. The shipper's last committed Kafka transaction holding it
 * ({@code acks=all}; records of a transaction not committed are invisible to every reader). What a gateway in
 * "replication:
 * acknowledged" mode polls before it lets a report out. The replication shipper publishes it among its other counters
 * in its process's {@link CountersFile}, {@code <root>/counters/shipper.counters}, one gauge per journal labelled
 * {@link #label(String) sluice_replication_acknowledged_index journal=<name>}: the one place the value lives, which
 * {@code ./sluice stat} and {@code ./sluice metrics} show too. {@link #acknowledgedIndex()} costs two memory reads and
 * allocates nothing once the counter is found.
 * <p>
 * It copes with a shipper not started yet (no file: {@link #NOTHING_ACKNOWLEDGED}, the file looked for again at most
 * every {@link #RETRY_NANOS} ns), with a journal the shipper has not picked up yet (looked up again at the same pace),
 * and with a restarted shipper (the file's header: process id 0 while it rewrites the file, then another
 * {@link CountersFile#INSTANCE_OFFSET instance}: the counter is looked up again). Looking up allocates a little;
 * only those rare events do. Single-threaded.
 */
public final class AcknowledgedIndexReader implements AutoCloseable {
    /** The process name of the shipper, and so of its counters file: {@code <root>/counters/shipper.counters}. */
    public static final String SHIPPER_PROCESS = "shipper";
    /** The metric of a journal's acknowledged-index gauge. */
    public static final String METRIC = "sluice_replication_acknowledged_index";
    /** A counter's value before Kafka acknowledged any excerpt of its journal. */
    public static final long NOTHING_ACKNOWLEDGED = -1;
    /** The least time between two looks for a missing file or counter. */
    public static final long RETRY_NANOS = 100_000_000L;

    private final Path file;
    private final String label;
    private final NanoClock clock;
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
        this(root, journalName, SystemNanoClock.INSTANCE);
    }

    /**
     * As {@link #AcknowledgedIndexReader(Path, String)}, {@code clock} pacing the looks for a missing file or counter:
     * the form for processes given a clock by their main (the other serves the gateway until it is given one).
     */
    public AcknowledgedIndexReader(final Path root, final String journalName, final NanoClock clock) {
        this.file = path(root);
        this.label = label(journalName).text();
        this.clock = clock;
    }

    /** @return the shipper's counters file under {@code root} */
    public static Path path(final Path root) {
        return CountersFile.path(root, SHIPPER_PROCESS);
    }

    /** @return the label of the gauge holding the highest index of {@code journalName} Kafka has acknowledged */
    public static CounterLabel label(final String journalName) {
        return CounterLabel.of(METRIC, "journal", journalName);
    }

    /**
     * @return the highest index of the journal Kafka has acknowledged, or {@link #NOTHING_ACKNOWLEDGED} if nothing is
     * known to be (no shipper, no counter yet, a shipper rewriting its counters)
     */
    public long acknowledgedIndex() {
        if (header != null && counterId != CountersReader.NULL_COUNTER_ID
                && header.getLongVolatile(CountersFile.PID_OFFSET) != 0
                && header.getLong(CountersFile.INSTANCE_OFFSET) == generation) {
            return counters.getCounterValue(counterId);
        }
        return lookUp();
    }

    private long lookUp() {
        final long now = clock.nanoTime();
        if (now - nextLookNanos < 0) {
            return NOTHING_ACKNOWLEDGED;
        }
        nextLookNanos = now + RETRY_NANOS;
        if (header == null && !map()) {
            return NOTHING_ACKNOWLEDGED;
        }
        counterId = CountersReader.NULL_COUNTER_ID;
        if (header.getLongVolatile(CountersFile.PID_OFFSET) == 0) {
            return NOTHING_ACKNOWLEDGED; // a shipper is (re)writing its counters file
        }
        generation = header.getLong(CountersFile.INSTANCE_OFFSET);
        counters.forEach((id, typeId, key, text) -> {
            if (typeId == CountersFile.GAUGE_TYPE_ID && text.equals(label)) {
                counterId = id;
            }
        });
        if (counterId == CountersReader.NULL_COUNTER_ID || header.getLongVolatile(CountersFile.PID_OFFSET) == 0
                || header.getLong(CountersFile.INSTANCE_OFFSET) != generation) {
            counterId = CountersReader.NULL_COUNTER_ID;
            return NOTHING_ACKNOWLEDGED;
        }
        return counters.getCounterValue(counterId);
    }

    private boolean map() {
        final CountersLayout layout = CountersFile.layoutOf(file);
        mapped = layout == null ? null : layout.mapForReading(file);
        if (mapped == null) {
            return false; // no shipper yet, or one creating the file
        }
        header = layout.header(mapped);
        counters = layout.reader(mapped);
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
