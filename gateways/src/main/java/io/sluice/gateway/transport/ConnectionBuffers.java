package io.sluice.gateway.transport;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The receive and send buffers one connection works in, allocated once (off-heap) and lent to connections:
 * from the {@link ConnectionBufferPool} while a connection has not logged on, from its session's own pair
 * once it has. Because connections only borrow buffers, nothing is allocated off-heap per connection
 * attempt, and a flood of connections cannot grow the process. A pair has at most one holder at a time.
 */
final class ConnectionBuffers {
    final ByteBuffer receive;
    final UnsafeBuffer receiveView;
    final ByteBuffer send;
    final UnsafeBuffer sendView;
    /** True for a pre-logon pair of the pool, false for a session's own pair. */
    final boolean pooled;
    private NioConnection holder;

    /**
     * @param receiveBytes receive buffer (larger than the largest message)
     * @param sendBytes    send buffer, including the reserve kept for a last message
     * @param pooled       true for a pair of the pre-logon pool
     */
    ConnectionBuffers(final int receiveBytes, final int sendBytes, final boolean pooled) {
        this.pooled = pooled;
        receive = ByteBuffer.allocateDirect(receiveBytes);
        receiveView = new UnsafeBuffer(receive);
        send = ByteBuffer.allocateDirect(sendBytes);
        sendView = new UnsafeBuffer(send);
    }

    NioConnection holder() {
        return holder;
    }

    /** Lends the pair to {@code connection}, empty. */
    void lendTo(final NioConnection connection) {
        receive.clear();
        send.clear();
        holder = connection;
    }

    /** @return true if {@code connection} held the pair and now no longer does. */
    boolean returnFrom(final NioConnection connection) {
        if (holder != connection) {
            return false;
        }
        holder = null;
        return true;
    }
}
