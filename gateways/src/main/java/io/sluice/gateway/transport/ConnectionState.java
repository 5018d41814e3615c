package io.sluice.gateway.transport;

/**
 * Where a {@link NioConnection} is in its life. It moves down this list only, possibly skipping states: a
 * connection that never logs on goes from {@link #AWAITING_LOGON} straight to {@link #LINGERING} or
 * {@link #CLOSED}.
 */
enum ConnectionState {
    /** Accepted: reading and writing in a pre-logon buffer pair borrowed from the pool, no session bound yet. */
    AWAITING_LOGON,
    /** A Logon bound it to its session: reading and writing in that session's own buffers. */
    LOGGED_ON,
    /** Closing: reads nothing more, writes its last queued message until the client has read it or time is up. */
    LINGERING,
    /** Socket closed, buffers returned, limits counted out. */
    CLOSED;

    /** @return whether the connection reads and takes messages to send. */
    boolean isOpen() {
        return this == AWAITING_LOGON || this == LOGGED_ON;
    }
}
