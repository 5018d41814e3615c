package io.sluice.gateway.transport;

/**
 * Whether a TLS listen address asks clients for a certificate: the gateway's {@code tls.clientAuth}. A
 * certificate the client presents must chain to the trust store; which certificate a session must present is
 * the session's own setting, checked at its Logon.
 */
public enum ClientAuth {
    /** No client certificate is asked for. */
    NONE,
    /** A certificate is asked for; a client without one still completes the handshake. */
    WANT,
    /** A client without a trusted certificate fails the handshake. */
    NEED
}
