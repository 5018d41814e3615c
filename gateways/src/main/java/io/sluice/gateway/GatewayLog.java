package io.sluice.gateway;

import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.SessionEvents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes a gateway's session events to its log: logons, disconnects with their reason, refused connections. */
final class GatewayLog implements SessionEvents {
    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

    private final int gatewayId;

    GatewayLog(final int gatewayId) {
        this.gatewayId = gatewayId;
    }

    @Override
    public void onLogon(final FixSession session, final long nextSenderSeq, final long clientSeq) {
        LOG.info("gateway {}: {} logged on (client MsgSeqNum {}, gateway next MsgSeqNum {})", gatewayId,
                session.identity().clientCompId(), clientSeq, nextSenderSeq);
    }

    @Override
    public void onDisconnect(final FixSession session, final CharSequence reason) {
        LOG.info("gateway {}: {} disconnected: {}", gatewayId, session.identity().clientCompId(),
                reason == null ? "Logout" : reason.toString());
    }

    @Override
    public void onRefused(final CharSequence reason) {
        LOG.warn("gateway {}: connection refused: {}", gatewayId, reason.toString());
    }
}
