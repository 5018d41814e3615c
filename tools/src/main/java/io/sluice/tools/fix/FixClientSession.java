package io.sluice.tools.fix;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.codec.FixFramer;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLSocket;

/**
 * The load client's side of one FIX 4.4 session over a blocking socket, built on the gateway's codec. With {@link
 * FixEncoder}, {@link FixFramer} and {@link FixMessage} it logs on (ResetSeqNumFlag=Y, with Username/Password), sends
 * NewOrderSingles and hands every ExecutionReport to a listener. It keeps the
 * session alive by itself (TestRequest answered with a Heartbeat, ResendRequest answered with a
 * SequenceReset-GapFill: a load client never resends old orders), and fails loudly on Logout, Reject,
 * BusinessMessageReject and malformed input, with the peer's Text. Not thread-safe: one thread owns a
 * session. No allocation per message once logged on.
 */
public final class FixClientSession implements AutoCloseable {
    /** Receives execution reports; the message is valid only during the call. */
    @FunctionalInterface
    public interface ReportListener {
        void onExecutionReport(FixMessage report, long receivedNanos);
    }

    private static final int BUFFER_SIZE = 256 * 1024;
    private static final int MAX_BODY_LENGTH = 8192;
    private static final int MAX_FIELDS = 256;
    private static final int HEARTBEAT_SECONDS = 30;
    private static final int OUTGOING_BATCH_SIZE = 64 * 1024;
    private static final ReportListener IGNORE = (report, receivedNanos) -> {
    };

    private final FixEndpoint endpoint;
    private final SessionIdentity identity;
    private final byte[] senderCompId;
    private final byte[] targetCompId;
    private final FixEncoder encoder = new FixEncoder(new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_BODY_LENGTH + 64)));
    private final ByteBuffer outgoing = ByteBuffer.allocateDirect(OUTGOING_BATCH_SIZE);
    private final UnsafeBuffer outgoingBytes = new UnsafeBuffer(outgoing);
    private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(BUFFER_SIZE);
    private final UnsafeBuffer received = new UnsafeBuffer(receiveBuffer);
    private final FixFramer framer = new FixFramer(MAX_BODY_LENGTH);
    private final FixMessage inbound = new FixMessage(MAX_FIELDS);
    private SocketChannel channel;
    /** The TLS socket, on a TLS endpoint (then {@link #channel} is null). */
    private SSLSocket tlsSocket;
    private final byte[] tlsBytes = new byte[BUFFER_SIZE];
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private long nextOutSeqNum = 1;
    private boolean loggedOn;

    /** A session on the system's clocks: for tests and benchmarks. */
    public FixClientSession(final FixEndpoint endpoint, final SessionIdentity identity) {
        this(endpoint, identity, SystemNanoClock.INSTANCE, SystemEpochClock.INSTANCE);
    }

    /**
     * @param nanoClock  times the Logon's wait and stamps when each report arrived (an {@link OrderLoad}'s round trips)
     * @param epochClock the wall clock of SendingTime and TransactTime
     */
    public FixClientSession(final FixEndpoint endpoint, final SessionIdentity identity, final NanoClock nanoClock,
                            final EpochClock epochClock) {
        this.endpoint = endpoint;
        this.identity = identity;
        this.senderCompId = ascii(identity.senderCompId());
        this.targetCompId = ascii(identity.targetCompId());
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
    }

    /** @return the clock that stamps when each report arrived */
    public NanoClock nanoClock() {
        return nanoClock;
    }

    static byte[] ascii(final String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
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
        if (endpoint.transport() == FixTransport.TLS) {
            tlsSocket = endpoint.connectTls();
        } else {
            channel = endpoint.connect();
        }
        nextOutSeqNum = 1;
        start(MsgTypes.LOGON, epochClock.time())
                .longField(FixTags.ENCRYPT_METHOD, 0)
                .longField(FixTags.HEART_BT_INT, HEARTBEAT_SECONDS)
                .booleanField(FixTags.RESET_SEQ_NUM_FLAG, true);
        if (!identity.username().isEmpty()) {
            encoder.field(FixTags.USERNAME, ascii(identity.username()));
        }
        if (!identity.password().isEmpty()) {
            encoder.field(FixTags.PASSWORD, ascii(identity.password()));
        }
        send();
        awaitLogonAnswer(timeout);
    }

    private void awaitLogonAnswer(final Duration timeout) throws IOException {
        final long deadline = nanoClock.nanoTime() + timeout.toNanos();
        if (tlsSocket != null) {
            tlsSocket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
            try {
                while (!loggedOn) {
                    if (!poll(IGNORE)) {
                        throw new IOException(identity.senderCompId() + ": " + endpoint
                                + " closed the connection before answering the Logon");
                    }
                }
            } catch (final SocketTimeoutException e) {
                close();
                throw new IOException(identity.senderCompId() + ": no Logon answer from " + endpoint
                        + " within " + timeout.toMillis() + " ms");
            }
            tlsSocket.setSoTimeout(0);
            return;
        }
        channel.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            channel.register(selector, SelectionKey.OP_READ);
            while (!loggedOn) {
                final long remainingMillis = (deadline - nanoClock.nanoTime()) / 1_000_000;
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

    /** Sends a NewOrderSingle for {@code order} with ClOrdID {@code clOrdId} at once: a limit order. */
    public void sendNewOrder(final long clOrdId, final OrderTerms order) throws IOException {
        queueNewOrder(clOrdId, order);
        flush();
    }

    /**
     * Encodes a NewOrderSingle behind the ones already queued; {@link #flush()} sends the whole batch in one
     * write, as a pipelining client does (one system call per burst instead of per order).
     */
    public void queueNewOrder(final long clOrdId, final OrderTerms order) throws IOException {
        final long now = epochClock.time();
        start(MsgTypes.NEW_ORDER_SINGLE, now)
                .longField(FixTags.CL_ORD_ID, clOrdId)
                .field(FixTags.ACCOUNT, order.account())
                .field(FixTags.SYMBOL, order.symbol())
                .charField(FixTags.SIDE, order.side())
                .timestampField(FixTags.TRANSACT_TIME, now)
                .longField(FixTags.ORDER_QTY, order.quantity())
                .charField(FixTags.ORD_TYPE, '2')
                .field(FixTags.PRICE, order.price())
                .charField(FixTags.TIME_IN_FORCE, order.timeInForce());
        queue();
    }

    /**
     * Sends a MarketDataRequest (V) subscribing to {@code symbol}'s full book, bids, offers and trades, as MDReqID
     * {@code reqId}; what the gateway sends back (W, X, f) is read and dropped by {@link #poll}.
     */
    public void sendMarketDataSubscription(final String reqId, final String symbol) throws IOException {
        start(MsgTypes.MARKET_DATA_REQUEST, epochClock.time())
                .field(FixTags.MD_REQ_ID, reqId.getBytes(StandardCharsets.US_ASCII))
                .charField(FixTags.SUBSCRIPTION_REQUEST_TYPE, '1')
                .longField(FixTags.MARKET_DEPTH, 0)
                .longField(FixTags.NO_MD_ENTRY_TYPES, 3)
                .charField(FixTags.MD_ENTRY_TYPE, '0')
                .charField(FixTags.MD_ENTRY_TYPE, '1')
                .charField(FixTags.MD_ENTRY_TYPE, '2')
                .longField(FixTags.NO_RELATED_SYM, 1)
                .field(FixTags.SYMBOL, symbol.getBytes(StandardCharsets.US_ASCII));
        send();
    }

    /** Sends a Logout and closes the connection without waiting for the answer. */
    public void logout() throws IOException {
        if (channel != null && channel.isOpen() || tlsSocket != null && !tlsSocket.isClosed()) {
            start(MsgTypes.LOGOUT, epochClock.time());
            send();
        }
        close();
    }

    /**
     * Blocks until bytes arrive, then handles every complete message: execution reports go to
     * {@code listener}, session messages are answered here.
     *
     * @return false if the connection is closed (by the peer or by {@link #close()} from another thread)
     * @throws IOException on Logout, Reject, BusinessMessageReject or a malformed message from the acceptor
     */
    public boolean poll(final ReportListener listener) throws IOException {
        final int read;
        try {
            read = tlsSocket != null ? readTls() : channel.read(receiveBuffer);
        } catch (final SocketTimeoutException e) {
            throw e;
        } catch (final IOException e) {
            if (tlsSocket != null ? tlsSocket.isClosed() : !channel.isOpen()) {
                return false;
            }
            throw e;
        }
        if (read < 0) {
            return false;
        }
        final long receivedNanos = nanoClock.nanoTime();
        final int available = receiveBuffer.position();
        int offset = 0;
        int length;
        while ((length = framer.scan(received, offset, available - offset)) > 0) {
            if (framer.error() != FixError.NONE || inbound.parse(received, framer.bodyStart(), framer.bodyEnd())
                    != FixError.NONE) {
                throw malformed(framer.error() != FixError.NONE ? framer.error() : inbound.error());
            }
            handle(inbound, listener, receivedNanos);
            offset += length;
        }
        if (length < 0) {
            throw malformed(framer.error());
        }
        receiveBuffer.limit(available).position(offset);
        receiveBuffer.compact();
        if (receiveBuffer.position() == receiveBuffer.capacity()) {
            throw new IOException(identity.senderCompId() + ": a message larger than " + BUFFER_SIZE + " bytes");
        }
        return true;
    }

    /** A blocking read from the TLS socket into the receive buffer. */
    private int readTls() throws IOException {
        final int read = tlsSocket.getInputStream().read(tlsBytes, 0, receiveBuffer.remaining());
        if (read > 0) {
            receiveBuffer.put(tlsBytes, 0, read);
        }
        return read;
    }

    private IOException malformed(final FixError error) {
        return new IOException(identity.senderCompId() + ": malformed message from " + endpoint + ": "
                + error.text() + (inbound.errorTag() == FixMessage.NO_TAG ? "" : " (tag " + inbound.errorTag() + ")"));
    }

    private void handle(final FixMessage message, final ReportListener listener, final long receivedNanos)
            throws IOException {
        switch (message.msgType()) {
            case MsgTypes.EXECUTION_REPORT -> listener.onExecutionReport(message, receivedNanos);
            case MsgTypes.LOGON -> loggedOn = true;
            case MsgTypes.TEST_REQUEST -> {
                final int testReqId = message.indexOf(FixTags.TEST_REQ_ID);
                start(MsgTypes.HEARTBEAT, epochClock.time());
                if (testReqId >= 0) {
                    encoder.field(FixTags.TEST_REQ_ID, message.buffer(), message.valueOffset(testReqId),
                            message.valueLength(testReqId));
                }
                send();
            }
            case MsgTypes.RESEND_REQUEST -> {
                final long now = epochClock.time();
                encoder.start(MsgTypes.SEQUENCE_RESET)
                        .header(senderCompId, targetCompId, message.unsignedValue(FixTags.BEGIN_SEQ_NO), now)
                        .booleanField(FixTags.POSS_DUP_FLAG, true)
                        .timestampField(FixTags.ORIG_SENDING_TIME, now)
                        .booleanField(FixTags.GAP_FILL_FLAG, true)
                        .longField(FixTags.NEW_SEQ_NO, nextOutSeqNum);
                send();
            }
            case MsgTypes.LOGOUT -> throw new IOException(identity.senderCompId() + ": logged out by " + endpoint
                    + ": " + ExecutionReportFields.text(message));
            case MsgTypes.REJECT, MsgTypes.BUSINESS_MESSAGE_REJECT -> throw new IOException(identity.senderCompId()
                    + ": " + endpoint + " rejected message " + message.unsignedValue(FixTags.REF_SEQ_NUM) + ": "
                    + ExecutionReportFields.text(message));
            default -> {
            }
        }
    }

    private FixEncoder start(final int msgType, final long nowMillis) {
        return encoder.start(msgType).header(senderCompId, targetCompId, nextOutSeqNum++, nowMillis);
    }

    private void send() throws IOException {
        queue();
        flush();
    }

    private void queue() throws IOException {
        final int length = encoder.finish();
        if (outgoing.remaining() < length) {
            flush();
        }
        outgoingBytes.putBytes(outgoing.position(), encoder.buffer(), encoder.messageOffset(), length);
        outgoing.position(outgoing.position() + length);
    }

    /** Writes every queued message; returns at once if none is queued. */
    public void flush() throws IOException {
        if (outgoing.position() == 0) {
            return;
        }
        outgoing.flip();
        if (tlsSocket != null) {
            final int length = outgoing.remaining();
            outgoing.get(tlsBytes, 0, length);
            tlsSocket.getOutputStream().write(tlsBytes, 0, length);
        } else {
            while (outgoing.hasRemaining()) {
                channel.write(outgoing);
            }
        }
        outgoing.clear();
    }

    /** Closes the connection; a thread blocked in {@link #poll} returns false. */
    @Override
    public void close() throws IOException {
        loggedOn = false;
        if (channel != null) {
            channel.close();
        }
        if (tlsSocket != null) {
            tlsSocket.close();
        }
    }
}
