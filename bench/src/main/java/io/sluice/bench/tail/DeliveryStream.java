package io.sluice.bench.tail;

import io.sluice.contracts.Delivery;
import io.sluice.contracts.GatewayDeliveries;

import java.nio.file.Path;

/**
 * A gateway's own journal, read for its {@link GatewayDeliveries} records (its other records are skipped)
 * and handed to the {@link LatencyJoin}. Remembers where in the engine journal its last delivered report
 * was, so several delivery journals can be read in step with the engine journal.
 */
final class DeliveryStream extends JournalStream implements GatewayDeliveries {
    private final int gatewayId;
    private final LatencyJoin join;
    private long reportSequence;
    private boolean drained;

    DeliveryStream(final Path dir, final int gatewayId, final boolean fromStart, final LatencyJoin join) {
        super(dir, fromStart);
        this.gatewayId = gatewayId;
        this.join = join;
        readInto(this);
    }

    int gatewayId() {
        return gatewayId;
    }

    @Override
    public void delivered(final Delivery delivery) {
        join.onDelivery(this, delivery);
    }

    /** @return the engine journal sequence of the report last delivered, 0 before any. */
    long reportSequence() {
        return reportSequence;
    }

    void reportSequence(final long reportSequence) {
        this.reportSequence = reportSequence;
    }

    /** @return whether the journal had nothing more the last time it was read in this pass. */
    boolean drained() {
        return drained;
    }

    void drained(final boolean drained) {
        this.drained = drained;
    }
}
