package io.sluice.runtime.counters;

import org.agrona.concurrent.NanoClock;

import java.nio.file.Path;

/**
 * How far Kafka has acknowledged one journal of a deployment. The shipper's last committed Kafka transaction holding it
 * ({@code acks=all}; records of a transaction not committed are invisible to every reader). What a gateway in
 * "replication:
 * acknowledged" mode polls before it lets a report out. The replication shipper publishes it among its other counters
 * in its process's {@link CountersFile}, {@code <root>/counters/shipper.counters}, one gauge per journal labelled
 * {@link #label(String) sluice_replication_acknowledged_index journal=<name>}: the one place the value lives, which
 * {@code ./sluice stat} and {@code ./sluice metrics} show too. {@link #acknowledgedIndex()} reads it as a
 * {@link ShipperGauge} (two memory reads, no allocation once found; {@link #NOTHING_ACKNOWLEDGED} before a shipper
 * has the journal's gauge, and while a restarted one rewrites its file). Single-threaded.
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

    private final ShipperGauge gauge;

    /**
     * @param root        the deployment's journal root (the shipper's)
     * @param journalName the journal's directory name, e.g. {@code engine}
     * @param clock       paces the looks for a missing file or counter: the process's
     */
    public AcknowledgedIndexReader(final Path root, final String journalName, final NanoClock clock) {
        this.gauge = new ShipperGauge(root, label(journalName), NOTHING_ACKNOWLEDGED, clock);
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
        return gauge.value();
    }

    @Override
    public void close() {
        gauge.close();
    }
}
