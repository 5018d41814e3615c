package io.sluice.gateway.transport;

/**
 * A fixed number of buffer pairs, allocated at start, for connections that have not logged on yet. A new
 * connection borrows a pair and gives it back when it closes or when its Logon binds it to a session (which
 * has its own pair); when none is left the new connection is refused, so the memory taken by connections
 * that have not logged on is bounded by configuration, never by what clients do.
 */
final class ConnectionBufferPool {
    private final ConnectionBuffers[] free;
    private int freeCount;

    /**
     * @param pairs        how many connections may wait for their Logon at once
     * @param receiveBytes each pair's receive buffer
     * @param sendBytes    each pair's send buffer (room for the Logout that refuses a connection)
     * @param tlsBytes     each pair's TLS record buffers, 0 without TLS
     */
    ConnectionBufferPool(final int pairs, final int receiveBytes, final int sendBytes, final int tlsBytes) {
        free = new ConnectionBuffers[pairs];
        for (int i = 0; i < pairs; i++) {
            free[i] = new ConnectionBuffers(receiveBytes, sendBytes, tlsBytes, true);
        }
        freeCount = pairs;
    }

    /** @return a pair now held by {@code connection}, or null if all are lent out. */
    ConnectionBuffers borrow(final NioConnection connection) {
        if (freeCount == 0) {
            return null;
        }
        final ConnectionBuffers buffers = free[--freeCount];
        free[freeCount] = null;
        buffers.lendTo(connection);
        return buffers;
    }

    /** Takes back a pair {@code connection} borrowed; does nothing if it no longer holds it. */
    void giveBack(final ConnectionBuffers buffers, final NioConnection connection) {
        if (buffers.returnFrom(connection)) {
            free[freeCount++] = buffers;
        }
    }
}
