package io.sluice.gateway.transport;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The buffers one connection works in, allocated once (off-heap) and lent to connections: from the
 * {@link ConnectionBufferPool} while a connection has not logged on, from its session's own pair once it has.
 * Because connections only borrow buffers, nothing is allocated off-heap per connection attempt, and a flood of
 * connections cannot grow the process. A pair has at most one holder at a time.
 * <p>
 * {@link #receive} and {@link #send} hold FIX bytes (plaintext). On a transport with TLS addresses every pair also
 * has {@link #tlsIn} (TLS records read, not yet decrypted) and {@link #tlsOut} (records encrypted, not yet written):
 * the SSLEngine unwraps from one and wraps into the other, so a TLS connection allocates no buffer either. All four
 * are kept in write mode (position = bytes held) between calls.
 */
final class ConnectionBuffers {
    final ByteBuffer receive;
    final UnsafeBuffer receiveView;
    final ByteBuffer send;
    final UnsafeBuffer sendView;
    /** TLS records read from the socket, not yet unwrapped; null on a transport without TLS. */
    final ByteBuffer tlsIn;
    /** TLS records wrapped, not yet written to the socket; null on a transport without TLS. */
    final ByteBuffer tlsOut;
    /** {@link #receive} and {@link #send} as the one-element arrays SSLEngine takes, made once. */
    final ByteBuffer[] receiveArray;
    final ByteBuffer[] sendArray;
    /** True for a pre-logon pair of the pool, false for a session's own pair. */
    final boolean pooled;
    private NioConnection holder;

    /**
     * @param receiveBytes receive buffer (larger than the largest message, plus a TLS record's plaintext with TLS)
     * @param sendBytes    send buffer, including the reserve kept for a last message
     * @param tlsBytes     each TLS record buffer, or 0 on a transport without TLS
     * @param pooled       true for a pair of the pre-logon pool
     */
    ConnectionBuffers(final int receiveBytes, final int sendBytes, final int tlsBytes, final boolean pooled) {
        this.pooled = pooled;
        receive = ByteBuffer.allocateDirect(receiveBytes);
        receiveView = new UnsafeBuffer(receive);
        send = ByteBuffer.allocateDirect(sendBytes);
        sendView = new UnsafeBuffer(send);
        tlsIn = tlsBytes == 0 ? null : ByteBuffer.allocateDirect(tlsBytes);
        tlsOut = tlsBytes == 0 ? null : ByteBuffer.allocateDirect(tlsBytes);
        receiveArray = new ByteBuffer[] {receive};
        sendArray = new ByteBuffer[] {send};
    }

    NioConnection holder() {
        return holder;
    }

    /** Lends the pair to {@code connection}, empty. */
    void lendTo(final NioConnection connection) {
        receive.clear();
        send.clear();
        if (tlsIn != null) {
            tlsIn.clear();
            tlsOut.clear();
        }
        holder = connection;
    }

    /**
     * Copies what {@code from} holds to send and both TLS buffers (the connection moves to this pair); the receive
     * buffer's bytes follow separately, when the read that moved the connection returns.
     */
    void takeOver(final ConnectionBuffers from) {
        copy(from.send, send);
        if (tlsIn != null && from.tlsIn != null) {
            copy(from.tlsIn, tlsIn);
            copy(from.tlsOut, tlsOut);
        }
    }

    /** @return true if {@code connection} held the pair and now no longer does. */
    boolean returnFrom(final NioConnection connection) {
        if (holder != connection) {
            return false;
        }
        holder = null;
        return true;
    }

    private static void copy(final ByteBuffer from, final ByteBuffer to) {
        to.put(0, from, 0, from.position());
        to.position(from.position());
    }
}
