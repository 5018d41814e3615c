package io.sluice.tools.tail;

import io.sluice.contracts.RecordLayout;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * A gateway's own journal, read for its deliveries ({@code GatewayDeliveries} calls; its other records
 * are skipped), each handed to the {@link LatencyJoin} with its MetaData and session. Remembers where in the engine journal its last delivered report
 * was, so several delivery journals can be read in step with the engine journal.
 */
final class DeliveryStream extends JournalStream {
    private final int gatewayId;
    private final LatencyJoin join;
    private long reportSequence;
    private boolean drained;

    DeliveryStream(final Path dir, final int gatewayId, final boolean fromStart, final LatencyJoin join,
                   final Findings findings) {
        super(dir, fromStart, findings);
        this.gatewayId = gatewayId;
        this.join = join;
    }

    int gatewayId() {
        return gatewayId;
    }

    @Override
    boolean reads(final long methodId) {
        return methodId == RecordLayout.DELIVERED;
    }

    @Override
    int minimumLength(final long methodId) {
        return RecordLayout.DELIVERY_SESSION + Long.BYTES;
    }

    @Override
    void read(final long methodId, final DirectBuffer buffer, final int offset) {
        join.onDelivery(this, metaData(buffer, offset), buffer.getLong(offset + RecordLayout.DELIVERY_SESSION));
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
