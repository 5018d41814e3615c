package io.sluice.gateway.transport;

import org.agrona.DirectBuffer;

/** What a transport tells its owner about a connection: bytes arrived, bytes left, the connection is gone. */
public interface ConnectionHandler {
    /**
     * @param receivedTicks when the bytes were read, in SluiceClock ticks
     * @return how many bytes were consumed (the rest stays buffered for the next read), or -1 if the
     *         connection was closed while handling them
     */
    int onData(NioConnection connection, DirectBuffer buffer, int offset, int length, long receivedTicks);

    /**
     * A write to the socket just returned, having handed the kernel everything up to {@code writtenBytes} of the
     * connection's outbound stream (compare {@link NioConnection#queuedBytes()}). Called straight after the
     * system call, so a handler that reads the clock here times the end of the write.
     */
    void onWritten(NioConnection connection, long writtenBytes);

    /** A TLS handshake completed; FIX bytes follow. Not called on plain addresses. */
    void onHandshakeDone(NioConnection connection, String protocolAndCipherSuite);

    /** A TLS handshake failed for {@code reason} (the JDK's words); the connection is already closed. */
    void onHandshakeFailed(NioConnection connection, String reason);

    /**
     * The connection sent no Logon within the gateway's logon timeout and is about to be closed; {@code waitedNanos}
     * since it was accepted.
     */
    void onLogonTimeout(NioConnection connection, long waitedNanos);

    /** The peer closed the connection or it failed; not called for closes the owner asked for. */
    void onDisconnected(NioConnection connection);
}
