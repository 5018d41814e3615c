package io.sluice.gateway.transport;

/**
 * Where a {@link NioConnection} is in its life. It moves down this list only, possibly skipping states: a
 * plain connection starts at {@link #AWAITING_LOGON}; one that never logs on goes from there (or from
 * {@link #HANDSHAKING}) straight to {@link #LINGERING} or {@link #CLOSED}.
 */
enum ConnectionState {
    /** Accepted on a TLS address: exchanging handshake records, no FIX bytes yet (pre-logon buffer pair). */
    HANDSHAKING,
    /** Accepted (and, on TLS, handshake done): reading and writing in a pre-logon buffer pair, no session yet. */
    AWAITING_LOGON,
    /** A Logon bound it to its session: reading and writing in that session's own buffers. */
    LOGGED_ON,
    /** Closing: reads nothing more, writes its last queued message until the client has read it or time is up. */
    LINGERING,
    /** Socket closed, buffers returned, limits counted out. */
    CLOSED;

    /** @return whether the connection reads FIX bytes and takes messages to send. */
    boolean isOpen() {
        return this == AWAITING_LOGON || this == LOGGED_ON;
    }

    /** @return whether the connection is not bound to a session yet and counts against the logon timeout. */
    boolean isUnbound() {
        return this == HANDSHAKING || this == AWAITING_LOGON;
    }
}
