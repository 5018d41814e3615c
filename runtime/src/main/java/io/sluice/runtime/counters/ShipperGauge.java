package io.sluice.runtime.counters;

import org.agrona.IoUtil;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * One gauge the replication shipper publishes in its counters file, read from another process. The file is
 * {@code <root>/counters/shipper.counters} ({@link CountersFile}); {@link #value()} costs two memory reads and allocates
 * nothing once the gauge is found.
 * <p>
 * It copes with a shipper not started yet (no file: the {@code absent} value, the file looked for again at most every
 * {@link AcknowledgedIndexReader#RETRY_NANOS} ns), with a gauge the shipper has not made yet (looked up again at the
 * same pace), and with a restarted shipper (the file's header: process id 0 while it rewrites the file, then another
 * {@link CountersFile#INSTANCE_OFFSET instance}: the gauge is looked up again). Looking up allocates a little; only
 * those rare events do. A shipper that died leaves its file and its last values, which this reads. Single-threaded.
 */
public final class ShipperGauge implements AutoCloseable {
    private final Path file;
    private final String label;
    private final long absent;
    private final NanoClock clock;
    private MappedByteBuffer mapped;
    private UnsafeBuffer header;
    private CountersReader counters;
    private long generation;
    private int counterId = CountersReader.NULL_COUNTER_ID;
    private long nextLookNanos;

    /**
     * @param root   the deployment's journal root (the shipper's)
     * @param label  the gauge's label
     * @param absent what {@link #value()} gives while there is no such gauge to read
     * @param clock  paces the looks for a missing file or gauge
     */
    public ShipperGauge(final Path root, final CounterLabel label, final long absent, final NanoClock clock) {
        this.file = AcknowledgedIndexReader.path(root);
        this.label = label.text();
        this.absent = absent;
        this.clock = clock;
    }

    /** @return the gauge's value, or the {@code absent} value (no shipper, no gauge yet, a shipper rewriting its file) */
    public long value() {
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
            return absent;
        }
        nextLookNanos = now + AcknowledgedIndexReader.RETRY_NANOS;
        if (header == null && !map()) {
            return absent;
        }
        counterId = CountersReader.NULL_COUNTER_ID;
        if (header.getLongVolatile(CountersFile.PID_OFFSET) == 0) {
            return absent; // a shipper is (re)writing its counters file
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
            return absent;
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
