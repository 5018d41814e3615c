package io.sluice.gateway.session;

import org.agrona.DirectBuffer;

import java.net.SocketAddress;
import java.security.cert.X509Certificate;

/**
 * One client connection as the session layer sees it: bytes out, close, and the session bound to it
 * once Logon succeeded. Implemented by the transport; calls come from the single I/O thread.
 */
public interface FixConnection {
    /**
     * Queues a message for sending.
     *
     * @return false if it does not fit in the connection's bounded send buffer: the client is not
     *         keeping up, and nothing was queued
     */
    boolean send(DirectBuffer buffer, int offset, int length);

    /**
     * Queues a message whose socket write may wait behind the other connections' (market data fanned out to many): the
     * transport writes such connections a few a round, after every {@link #send}. By default as {@link #send}.
     *
     * @return as {@link #send}
     */
    default boolean sendBulk(final DirectBuffer buffer, final int offset, final int length) {
        return send(buffer, offset, length);
    }

    /**
     * @return how many bytes were queued on this connection since it opened: the position in its outbound byte
     *         stream where the last queued message ends, to compare with what the socket has taken since
     */
    long queuedBytes();

    /** @return how many bytes {@link #send} would accept right now. */
    int writableBytes();

    /** Queues a last message (using the room kept for it, even if the client is slow), flushes what it can and closes. */
    void sendAndClose(DirectBuffer buffer, int offset, int length);

    /** Closes the connection, flushing what is queued as far as the socket takes it without waiting. */
    void close();

    boolean isClosed();

    /** @return the session bound by a successful Logon, or null. */
    FixSession session();

    void session(FixSession session);

    /** @return the client's address, for the log; null if unknown. */
    SocketAddress remoteAddress();

    /** @return the client's source address as a key for the logon throttle (the same for every local peer). */
    long remoteAddressKey();

    /**
     * @return the certificate the client presented in a TLS handshake (one the gateway's trust store accepted), or
     *         null: a plain connection, or a TLS client without one
     */
    default X509Certificate peerCertificate() {
        return null;
    }
}
