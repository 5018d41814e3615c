package io.sluice.gateway.transport;

import com.sun.management.ThreadMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The TLS layer of one {@link NioConnection} accepted on a TLS address: the JDK's {@link SSLEngine} (server mode)
 * between the socket and the connection's FIX bytes. Records read from the socket go into the connection's
 * {@link ConnectionBuffers#tlsIn} and are unwrapped into its receive buffer; FIX bytes queued in its send buffer
 * are wrapped into {@link ConnectionBuffers#tlsOut} and written from there. Every buffer is the connection's
 * borrowed pair (pre-logon pool, then the session's own), passed in on each call, and the engine is given
 * one-element buffer arrays made once, so nothing of Sluice's is allocated per record; the JDK's engine itself
 * allocates per record (its result object and, inside its AES-GCM and ChaCha20 ciphers, per-record cipher state),
 * which the allocation gate measures separately.
 * <p>
 * The handshake runs on the I/O thread, its delegated tasks (certificate checks, signatures) too: a few
 * milliseconds of one connection's CPU, once. Bytes of the plaintext stream count as written once the records that
 * carry them have all been handed to the socket ({@link #flush}). A {@link SendGate} (acknowledged replication) acts on
 * the plaintext, before the engine: {@link #flush} wraps only the bytes the connection says are released, and the
 * rest waits in the send buffer unencrypted, so no record holds a byte the gate has not let out.
 */
public final class TlsLayer {
    /** What a handshake step needs next. */
    enum HandshakeStep {
        /** The handshake is complete: FIX bytes may flow. */
        DONE,
        /** Waiting for the client's next records. */
        NEED_READ,
        /** Records to send are waiting for room in the socket. */
        NEED_WRITE
    }

    /** What unwrapping found once it stopped. */
    enum Unwrapped {
        /** Every whole record was unwrapped: the rest (if any) is an incomplete record. */
        NEED_MORE,
        /** The receive buffer has no room for the next record's plaintext: hand its bytes on first. */
        RECEIVE_FULL,
        /** The client closed TLS (close_notify). */
        PEER_CLOSED
    }

    /** The system property that turns counting the JDK's allocations on. */
    public static final String COUNT_JDK_ALLOCATION = "sluice.tls.countJdkAllocation";
    /** The MBean that shows {@link #jdkAllocatedBytes()} to a process attached over JMX. */
    public static final String MBEAN_NAME = "io.sluice:type=TlsAllocation";
    private static final ByteBuffer[] NOTHING = {ByteBuffer.allocate(0)};
    private static final ThreadMXBean THREADS =
            (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final AtomicLong JDK_ALLOCATED = new AtomicLong();
    private static final AtomicBoolean REGISTERED =
            new AtomicBoolean();

    /** What the {@code TlsAllocation} MBean shows. */
    public interface TlsAllocationMBean {
        /** @return {@link TlsLayer#jdkAllocatedBytes()} */
        long getJdkAllocatedBytes();
    }

    private static final class TlsAllocation implements TlsAllocationMBean {
        @Override
        public long getJdkAllocatedBytes() {
            return jdkAllocatedBytes();
        }
    }

    private final SSLEngine engine;
    private final int packetBytes;
    /** Whether this process counts the JDK's allocations (read once per connection, so a test can turn it on). */
    private final boolean counting = Boolean.getBoolean(COUNT_JDK_ALLOCATION);
    /** Plaintext bytes wrapped into records still (partly) in tlsOut. */
    private long wrappedNotWritten;

    TlsLayer(final SSLEngine engine, final int packetBytes) throws SSLException {
        this.engine = engine;
        this.packetBytes = packetBytes;
        if (counting && REGISTERED.compareAndSet(false, true)) {
            try {
                ManagementFactory.getPlatformMBeanServer().registerMBean(
                        new StandardMBean(new TlsAllocation(), TlsAllocationMBean.class), new ObjectName(MBEAN_NAME));
            } catch (final JMException e) {
                throw new IllegalStateException("cannot register " + MBEAN_NAME, e);
            }
        }
        engine.beginHandshake();
    }

    /**
     * Advances the handshake as far as the bytes in {@code buffers.tlsIn} and the socket allow. Application data that
     * came in the handshake's last flight stays in tlsIn, for {@link #unwrap}.
     *
     * @throws SSLException the handshake failed (its message says why: no shared protocol, an untrusted or missing
     *                      client certificate, not TLS at all...)
     * @throws IOException  the socket failed
     */
    HandshakeStep handshake(final SocketChannel channel, final ConnectionBuffers buffers) throws IOException {
        while (true) {
            switch (engine.getHandshakeStatus()) {
                case NEED_TASK -> runTasks();
                case NEED_WRAP -> {
                    if (buffers.tlsOut.remaining() < packetBytes && writeOut(channel, buffers) >= 0
                            && buffers.tlsOut.remaining() < packetBytes) {
                        return HandshakeStep.NEED_WRITE;
                    }
                    final SSLEngineResult result = wrap(NOTHING, buffers.tlsOut);
                    if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                        writeOut(channel, buffers);
                        throw new SSLException("the engine closed during the handshake");
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    final ByteBuffer in = buffers.tlsIn;
                    in.flip();
                    final SSLEngineResult result;
                    try {
                        result = unwrap(in, buffers.receiveArray);
                    } finally {
                        in.compact();
                    }
                    if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        return writeOut(channel, buffers) >= 0 && buffers.tlsOut.position() > 0
                                ? HandshakeStep.NEED_WRITE : HandshakeStep.NEED_READ;
                    }
                    if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                        throw new SSLException("the client closed the connection during the handshake");
                    }
                }
                default -> {
                    // FINISHED or NOT_HANDSHAKING
                    writeOut(channel, buffers);
                    return buffers.tlsOut.position() > 0 ? HandshakeStep.NEED_WRITE : HandshakeStep.DONE;
                }
            }
        }
    }

    /**
     * Unwraps the whole records in {@code buffers.tlsIn} into the receive buffer, as far as it has room.
     *
     * @throws SSLException a record failed to decrypt or authenticate, or the client sent a fatal alert
     */
    Unwrapped unwrap(final ConnectionBuffers buffers) throws SSLException {
        final ByteBuffer in = buffers.tlsIn;
        in.flip();
        try {
            while (in.hasRemaining()) {
                final SSLEngineResult result = unwrap(in, buffers.receiveArray);
                switch (result.getStatus()) {
                    case BUFFER_UNDERFLOW -> {
                        return Unwrapped.NEED_MORE;
                    }
                    case BUFFER_OVERFLOW -> {
                        return Unwrapped.RECEIVE_FULL;
                    }
                    case CLOSED -> {
                        return Unwrapped.PEER_CLOSED;
                    }
                    default -> {
                        if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                            runTasks();
                        }
                    }
                }
            }
            return Unwrapped.NEED_MORE;
        } finally {
            in.compact();
        }
    }

    /** @return true if the engine has records of its own to send (a key update, a session ticket, an alert). */
    boolean wantsWrap() {
        return engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP;
    }

    /**
     * Wraps into records the first {@code releasable} bytes the send buffer holds (in write mode), and writes them, as
     * long as the socket takes them whole; what it does not take stays in tlsOut, what was not wrapped (not released,
     * or no room in tlsOut) stays in the send buffer. Only released plaintext is handed to the engine: once wrapped, a
     * byte is on its way to the client (a gate must act before, see {@link SendGate}).
     *
     * @param releasable how many of the send buffer's bytes may be wrapped now (at most its position: all of them
     *                   without a gate)
     * @return how many more plaintext bytes are now out (their records wholly handed to the socket), or -1 if
     *         the socket or the engine failed
     */
    long flush(final SocketChannel channel, final ConnectionBuffers buffers, final int releasable) {
        final ByteBuffer send = buffers.send;
        int wrappable = releasable;
        try {
            while (true) {
                if (buffers.tlsOut.remaining() >= packetBytes && (wrappable > 0 || wantsWrap())) {
                    final int queued = send.position();
                    send.position(0).limit(wrappable);
                    final SSLEngineResult result;
                    try {
                        result = wrap(buffers.sendArray, buffers.tlsOut);
                    } finally {
                        send.limit(queued);
                        send.compact();
                    }
                    if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                        return -1;
                    }
                    wrappable -= result.bytesConsumed();
                    wrappedNotWritten += result.bytesConsumed();
                    if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                        runTasks();
                    }
                }
                if (buffers.tlsOut.position() == 0 || writeOut(channel, buffers) <= 0
                        || buffers.tlsOut.position() > 0 || wrappable == 0 && !wantsWrap()) {
                    break;
                }
            }
        } catch (final IOException e) {
            return -1;
        }
        if (buffers.tlsOut.position() > 0) {
            return 0;
        }
        final long out = wrappedNotWritten;
        wrappedNotWritten = 0;
        return out;
    }

    /** @return true while records wrapped by {@link #flush} wait for room in the socket */
    boolean recordsWaiting(final ConnectionBuffers buffers) {
        return buffers.tlsOut.position() > 0;
    }

    /** @return true while plaintext or records wait to go out. */
    boolean pending(final ConnectionBuffers buffers) {
        return buffers.send.position() > 0 || buffers.tlsOut.position() > 0;
    }

    /** Sends close_notify if the socket takes it now; never waits. */
    void closeOutbound(final SocketChannel channel, final ConnectionBuffers buffers) {
        engine.closeOutbound();
        try {
            if (buffers.tlsOut.remaining() >= packetBytes) {
                wrap(NOTHING, buffers.tlsOut);
            }
            writeOut(channel, buffers);
        } catch (final IOException ignored) {
            // Closing anyway.
        }
    }

    /** @return the client's certificate if it presented one that the trust store accepted, else null. */
    X509Certificate peerCertificate() {
        try {
            final Certificate[] chain = engine.getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate x509 ? x509 : null;
        } catch (final SSLPeerUnverifiedException e) {
            return null;
        }
    }

    /** @return the negotiated protocol and cipher suite, for the log. */
    String describe() {
        return engine.getSession().getProtocol() + " " + engine.getSession().getCipherSuite();
    }

    /**
     * @return bytes allocated inside the JDK's wrap and unwrap calls of every TLS connection since start, if the
     *         process counts them ({@value #COUNT_JDK_ALLOCATION}), else 0
     */
    public static long jdkAllocatedBytes() {
        return JDK_ALLOCATED.get();
    }

    private SSLEngineResult wrap(final ByteBuffer[] source, final ByteBuffer destination) throws SSLException {
        if (!counting) {
            return engine.wrap(source, 0, 1, destination);
        }
        final long before = THREADS.getCurrentThreadAllocatedBytes();
        try {
            return engine.wrap(source, 0, 1, destination);
        } finally {
            JDK_ALLOCATED.addAndGet(THREADS.getCurrentThreadAllocatedBytes() - before);
        }
    }

    private SSLEngineResult unwrap(final ByteBuffer source, final ByteBuffer[] destination) throws SSLException {
        if (!counting) {
            return engine.unwrap(source, destination, 0, 1);
        }
        final long before = THREADS.getCurrentThreadAllocatedBytes();
        try {
            return engine.unwrap(source, destination, 0, 1);
        } finally {
            JDK_ALLOCATED.addAndGet(THREADS.getCurrentThreadAllocatedBytes() - before);
        }
    }

    /** @return bytes written, or -1 if there was nothing to write. */
    private static int writeOut(final SocketChannel channel, final ConnectionBuffers buffers) throws IOException {
        final ByteBuffer out = buffers.tlsOut;
        if (out.position() == 0) {
            return -1;
        }
        out.flip();
        try {
            return channel.write(out);
        } finally {
            out.compact();
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }
}
