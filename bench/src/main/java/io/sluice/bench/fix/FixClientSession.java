package io.sluice.bench.fix;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * The load client's side of one FIX 4.4 session over a blocking socket: logs on (ResetSeqNumFlag=Y, with
 * Username/Password), sends NewOrderSingles and hands every ExecutionReport to a listener. It keeps the
 * session alive by itself (TestRequest answered with a Heartbeat, ResendRequest answered with a
 * SequenceReset-GapFill: a load client never resends old orders), and fails loudly on Logout, Reject and
 * BusinessMessageReject, with the peer's Text. Not thread-safe: one thread owns a session. No allocation
 * per message once logged on.
 */
public final class FixClientSession implements AutoCloseable {
    /** Receives execution reports; the message is valid only during the call. */
    @FunctionalInterface
    public interface ReportListener {
        void onExecutionReport(InboundMessage report, long receivedNanos);
    }

    private static final int BUFFER_SIZE = 256 * 1024;
    private static final int HEARTBEAT_SECONDS = 30;
    private static final ReportListener IGNORE = (report, receivedNanos) -> {
    };

    private final FixEndpoint endpoint;
    private final SessionIdentity identity;
    private final FixMessageWriter writer;
    private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(BUFFER_SIZE);
    private final UnsafeBuffer received = new UnsafeBuffer(receiveBuffer);
    private final InboundMessage inbound = new InboundMessage();
    private final byte[] testReqId = new byte[64];
    private SocketChannel channel;
    private int nextOutSeqNum = 1;
    private long lastInSeqNum;
    private boolean loggedOn;

    public FixClientSession(final FixEndpoint endpoint, final SessionIdentity identity) {
        this.endpoint = endpoint;
        this.identity = identity;
        this.writer = new FixMessageWriter(identity.senderCompId(), identity.targetCompId(), 4096);
    }

    public SessionIdentity identity() {
        return identity;
    }

    /**
     * Connects and logs on with sequence numbers reset to 1.
     *
     * @throws IOException if the connection fails, the acceptor logs us out (its Text is in the message) or
     *                     no Logon answer arrives within {@code timeout}
     */
    public void logon(final Duration timeout) throws IOException {
        channel = endpoint.connect();
        nextOutSeqNum = 1;
        lastInSeqNum = 0;
        writer.begin((byte) 'A', nextOutSeqNum++, System.currentTimeMillis())
                .field(98, 0)
                .field(108, HEARTBEAT_SECONDS)
                .field(141, 'Y');
        if (!identity.username().isEmpty()) {
            writer.field(553, FixMessageWriter.ascii(identity.username()));
        }
        if (!identity.password().isEmpty()) {
            writer.field(554, FixMessageWriter.ascii(identity.password()));
        }
        send(writer.finish());
        awaitLogonAnswer(timeout);
    }

    private void awaitLogonAnswer(final Duration timeout) throws IOException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        channel.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            channel.register(selector, SelectionKey.OP_READ);
            while (!loggedOn) {
                final long remainingMillis = (deadline - System.nanoTime()) / 1_000_000;
                if (remainingMillis <= 0) {
                    close();
                    throw new IOException(identity.senderCompId() + ": no Logon answer from " + endpoint
                            + " within " + timeout.toMillis() + " ms");
                }
                selector.select(remainingMillis);
                if (!poll(IGNORE)) {
                    throw new IOException(identity.senderCompId() + ": " + endpoint
                            + " closed the connection before answering the Logon");
                }
            }
        }
        channel.configureBlocking(true);
    }

    /** Sends a NewOrderSingle for {@code order} with ClOrdID {@code clOrdId}. */
    public void sendNewOrder(final long clOrdId, final OrderTerms order) throws IOException {
        final long now = System.currentTimeMillis();
        writer.begin((byte) 'D', nextOutSeqNum++, now)
                .field(11, clOrdId)
                .field(1, order.account())
                .field(55, order.symbol())
                .field(54, order.side())
                .timestampField(60, now)
                .field(38, order.quantity())
                .field(40, '2')
                .field(44, order.price())
                .field(59, order.timeInForce());
        send(writer.finish());
    }

    /** Sends a Logout and closes the connection without waiting for the answer. */
    public void logout() throws IOException {
        if (channel != null && channel.isOpen()) {
            writer.begin((byte) '5', nextOutSeqNum++, System.currentTimeMillis());
            send(writer.finish());
        }
        close();
    }

    /**
     * Blocks until bytes arrive, then handles every complete message: execution reports go to
     * {@code listener}, session messages are answered here.
     *
     * @return false if the connection is closed (by the peer or by {@link #close()} from another thread)
     * @throws IOException on Logout, Reject or BusinessMessageReject from the acceptor (with its Text)
     */
    public boolean poll(final ReportListener listener) throws IOException {
        final int read;
        try {
            read = channel.read(receiveBuffer);
        } catch (final IOException e) {
            if (!channel.isOpen()) {
                return false;
            }
            throw e;
        }
        if (read < 0) {
            return false;
        }
        final long receivedNanos = System.nanoTime();
        final int available = receiveBuffer.position();
        int offset = 0;
        int length;
        while ((length = InboundMessage.frameLength(received, offset, available - offset)) > 0) {
            inbound.wrap(received, offset, length);
            handle(inbound, listener, receivedNanos);
            offset += length;
        }
        receiveBuffer.limit(available).position(offset);
        receiveBuffer.compact();
        if (receiveBuffer.position() == receiveBuffer.capacity()) {
            throw new IOException(identity.senderCompId() + ": a message larger than " + BUFFER_SIZE + " bytes");
        }
        return true;
    }

    private void handle(final InboundMessage message, final ReportListener listener, final long receivedNanos)
            throws IOException {
        if (message.msgSeqNum() > 0 && !(message.msgType() == '4' && !message.gapFill())) {
            lastInSeqNum = message.msgSeqNum();
        }
        switch (message.msgType()) {
            case '8' -> listener.onExecutionReport(message, receivedNanos);
            case 'A' -> loggedOn = true;
            case '0' -> {
            }
            case '1' -> {
                final int length = message.testReqId(testReqId);
                writer.begin((byte) '0', nextOutSeqNum++, System.currentTimeMillis());
                writer.field(112, testReqId, length);
                send(writer.finish());
            }
            case '2' -> {
                final long now = System.currentTimeMillis();
                writer.begin((byte) '4', (int) message.beginSeqNo(), now)
                        .field(43, 'Y')
                        .timestampField(122, now)
                        .field(123, 'Y')
                        .field(36, nextOutSeqNum);
                send(writer.finish());
            }
            case '4' -> {
            }
            case '5' -> throw new IOException(identity.senderCompId() + ": logged out by " + endpoint + ": "
                    + message.text());
            case '3', 'j' -> throw new IOException(identity.senderCompId() + ": " + endpoint + " rejected message "
                    + message.refSeqNum() + ": " + message.text());
            default -> {
            }
        }
    }

    private void send(final ByteBuffer message) throws IOException {
        while (message.hasRemaining()) {
            channel.write(message);
        }
    }

    /** @return the MsgSeqNum of the last message received. */
    public long lastInSeqNum() {
        return lastInSeqNum;
    }

    public boolean isLoggedOn() {
        return loggedOn;
    }

    /** Closes the connection; a thread blocked in {@link #poll} returns false. */
    @Override
    public void close() throws IOException {
        loggedOn = false;
        if (channel != null) {
            channel.close();
        }
    }
}
