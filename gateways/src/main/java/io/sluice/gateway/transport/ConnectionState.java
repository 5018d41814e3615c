package io.sluice.gateway.transport;

/** Where a {@link NioConnection} is in its life; it only ever moves down this list. */
enum ConnectionState {
    /** Reading and writing. */
    OPEN,
    /** Closing: reads nothing more, writes its last queued message until the client has read it or time is up. */
    LINGERING,
    /** Socket closed, buffers returned, limits counted out. */
    CLOSED
}
