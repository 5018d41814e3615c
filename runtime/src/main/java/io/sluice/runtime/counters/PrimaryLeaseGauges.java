package io.sluice.runtime.counters;

/**
 * The primary's lease as the shipper publishes it for the engine process's lease watch. Two gauges in the shipper's
 * counters file ({@link AcknowledgedIndexReader#path}): {@link #LEASE_MILLIS}, how long a lease lasts, and
 * {@link #ACKNOWLEDGED_SENT}, when the newest write Kafka acknowledged was sent, in {@code System.nanoTime()} (the
 * host's monotonic clock, which every process of the host shares). The lease is held until that time plus the lease;
 * a shipper that dies, hangs or loses Kafka stops moving it, and the watch tells the engine.
 */
public final class PrimaryLeaseGauges {
    /** The gauge holding the shipper's lease, ms. */
    public static final CounterLabel LEASE_MILLIS = CounterLabel.of("sluice_replication_lease_millis");
    /** The gauge holding when the newest write Kafka acknowledged was sent, System.nanoTime(). */
    public static final CounterLabel ACKNOWLEDGED_SENT = CounterLabel.of("sluice_replication_lease_acknowledged_sent_nanos");
    /**
     * {@link #ACKNOWLEDGED_SENT}'s value before Kafka acknowledged any write of this shipper: a new gauge's value, so no
     * reader sees another before the first acknowledgement (the monotonic clock counts from the host's boot, never 0 by
     * the time a shipper runs).
     */
    public static final long NEVER = 0;

    private PrimaryLeaseGauges() {
    }
}
