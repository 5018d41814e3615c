package io.sluice.gateway;

import io.sluice.contracts.MassCancelCause;
import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.SessionEvents;
import io.sluice.gateway.transport.ConnectionRefusal;
import io.sluice.gateway.transport.ListenAddress;
import io.sluice.gateway.transport.NioTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.SocketAddress;

/**
 * Writes a gateway's session events to its log: logons, disconnects with their reason, refused connections
 * (each refused Logon with its real reason; connections refused by a limit as one line per burst).
 */
final class GatewayLog implements SessionEvents, CancelOnDisconnect.Log {
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
    public void onGarbled(final FixSession session, final FixError why, final int skipped) {
        LOG.warn("gateway {}: {} sent a garbled message, ignored ({} bytes skipped, no MsgSeqNum consumed): {}",
                gatewayId, session.identity().clientCompId(), skipped, why.text());
    }

    @Override
    public void onRefused(final SocketAddress from, final CharSequence senderCompId, final CharSequence reason) {
        LOG.warn("gateway {}: connection from {} refused (SenderCompID '{}'): {}", gatewayId,
                from == null ? "unknown address" : ListenAddress.format(from), senderCompId.toString(),
                reason.toString());
    }

    @Override
    public void onCancelOnDisconnect(final FixSession session, final MassCancelCause cause, final long graceMillis,
                                     final long eventId) {
        LOG.info("gateway {}: {} cancel-on-disconnect: every resting order canceled, the client gone ({}) and not back"
                        + " within {} ms (command event {}); the cancel reports wait for its next logon", gatewayId,
                session.identity().clientCompId(), cause == MassCancelCause.LOGOUT ? "logged out" : "disconnected",
                graceMillis, eventId);
    }

    /** A TLS handshake completed: once per TLS connection, with what was negotiated. */
    void onHandshakeDone(final SocketAddress from, final String protocolAndCipherSuite) {
        LOG.info("gateway {}: TLS handshake with {} done: {}", gatewayId, describe(from), protocolAndCipherSuite);
    }

    /**
     * A TLS handshake failed: the connection is closed (no FIX Logout can be sent without TLS) and the failure counts
     * against the address in the failed-logon throttle.
     */
    void onHandshakeFailed(final SocketAddress from, final String reason) {
        LOG.warn("gateway {}: TLS handshake with {} failed, connection closed: {}", gatewayId, describe(from), reason);
    }

    private static String describe(final SocketAddress from) {
        return from == null ? "unknown address" : ListenAddress.format(from);
    }

    /** A client's message failed to process: its session is logged out, or its connection closed before logon. */
    void onMessageFailed(final FixSession session, final SocketAddress from, final String journals,
                         final RuntimeException failure) {
        LOG.error("gateway {}: {} from {} failed to process and was logged out ({}); serving the other sessions on",
                gatewayId, session == null ? "a message before logon" : "a message of session "
                        + session.identity().clientCompId() + " -> " + session.identity().gatewayCompId(), from, journals, failure);
    }

    void onLogonTimeout(final SocketAddress from, final long waitedMillis) {
        LOG.warn("gateway {}: connection from {} closed: no Logon within the logon timeout ({} ms since it was accepted)",
                gatewayId, describe(from), waitedMillis);
    }

    void onConnectionsRefused(final NioTransport transport, final long sinceMillis) {
        LOG.warn("gateway {}: refused {} connections in the last {} ms: {} over maxConnections {}, {} over "
                        + "maxConnectionsPerAddress {} ({} connections open)",
                gatewayId, transport.refused(), sinceMillis,
                transport.refused(ConnectionRefusal.GATEWAY_LIMIT), transport.maxConnections(),
                transport.refused(ConnectionRefusal.ADDRESS_LIMIT), transport.maxConnectionsPerAddress(),
                transport.connectionCount());
    }

    /** Connections waiting for their Logon were closed to make way for newer ones (a burst: the first and the last). */
    void onConnectionsEvicted(final NioTransport transport, final long sinceMillis) {
        LOG.warn("gateway {}: closed {} connections waiting for their Logon in the last {} ms, each to make way for a"
                        + " newer one (every pre-logon buffer lent, or its address holding preLogonBuffersPerAddress {}):"
                        + " first from {}, last from {}", gatewayId, transport.evicted(), sinceMillis,
                transport.preLogonBuffersPerAddress(), describe(transport.firstEvicted()),
                describe(transport.lastEvicted()));
    }
}
