package io.sluice.gateway;

import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.session.FixApplication;
import io.sluice.gateway.session.FixSession;

/**
 * The application side of a drop-copy session: it refuses every application message, so nothing it sends reaches the
 * engine.
 * <p>
 * A drop-copy session only receives (copies of its firm's reports, {@link DropCopies}); an order, cancel, replace,
 * mass cancel or market-data request sent on it gets a Business Message Reject (35=j) with BusinessRejectReason (380)
 * 6, Not authorized, and Text {@value #TEXT}. Session-level messages (heartbeats, resend requests, logout) are the
 * session layer's and work as on any session.
 */
final class DropCopyRefusals implements FixApplication {
    /** BusinessRejectReason (380) 6: Not authorized. */
    static final int NOT_AUTHORIZED = 6;
    static final String TEXT = "Drop-copy session: it receives its firm's reports and may send no application messages";

    private final FixApplication orders;

    /** @param orders the gateway's order entry, whose last journaled input every session records with its progress */
    DropCopyRefusals(final FixApplication orders) {
        this.orders = orders;
    }

    @Override
    public void onApplicationMessage(final FixSession session, final FixMessage message) {
        session.businessReject(message, NOT_AUTHORIZED, TEXT);
    }

    @Override
    public long lastEventId() {
        return orders.lastEventId();
    }
}
