package io.sluice.testkit.fix;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.codec.FixFramer;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The tests' FIX 4.4 initiator, written on the gateway's own codec.
 * It frames what it sends with {@link FixEncoder} and checks every byte it receives with {@link FixFramer} and
 * {@link FixMessage}. Reads wait on a selector with a deadline; nothing sleeps. Over TLS ({@link #tls}) it is a JDK
 * {@link SSLSocket} whose reads wait with a timeout instead. The load tool's client ({@code FixClientSession} in tools)
 * is a different thing: it answers the session by itself and never asserts.
 */
public final class TestFixClient implements AutoCloseable {
    private static final long TIMEOUT_MILLIS = 10_000;

    private final SocketChannel channel;
    private final Selector selector;
    /** The TLS socket, or null for a plain connection (then {@link #channel} is used). */
    private final SSLSocket tlsSocket;
    private final byte[] tlsRead = new byte[65_536];
    private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
    private final UnsafeBuffer inView = new UnsafeBuffer(in);
    private final FixEncoder encoder = new FixEncoder(new UnsafeBuffer(ByteBuffer.allocateDirect(8192)));
    private final FixFramer framer = new FixFramer(65_536);
    private final FixMessage message = new FixMessage(256);
    private final byte[] sender;
    private final byte[] target;
    /** SendingTime and TransactTime of what it sends, and the deadlines of its waits. */
    private final EpochClock clock;
    private long nextSeq;
    private boolean peerClosed;
    private int readOffset;

    public TestFixClient(final SocketAddress address, final String sender, final String target, final long nextSeq)
            throws IOException {
        this(address, null, sender, target, nextSeq);
    }

    /** @param from the local IP address to connect from (e.g. another 127.0.0.0/8 address), or null for any */
    public TestFixClient(final SocketAddress address, final InetAddress from, final String sender,
                  final String target, final long nextSeq) throws IOException {
        this(address, from, sender, target, nextSeq, SystemEpochClock.INSTANCE);
    }

    /**
     * @param from  the local IP address to connect from (e.g. another 127.0.0.0/8 address), or null for any
     * @param clock the sending times of its messages and the deadlines of its waits
     */
    public TestFixClient(final SocketAddress address, final InetAddress from, final String sender,
                         final String target, final long nextSeq, final EpochClock clock) throws IOException {
        channel = SocketChannel.open(address instanceof UnixDomainSocketAddress
                ? StandardProtocolFamily.UNIX : StandardProtocolFamily.INET);
        if (from != null) {
            channel.bind(new InetSocketAddress(from, 0));
        }
        channel.connect(address);
        channel.configureBlocking(false);
        selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
        tlsSocket = null;
        this.sender = sender.getBytes(StandardCharsets.US_ASCII);
        this.target = target.getBytes(StandardCharsets.US_ASCII);
        this.nextSeq = nextSeq;
        this.clock = clock;
    }

    private TestFixClient(final SSLSocket socket, final String sender, final long nextSeq, final EpochClock clock) {
        channel = null;
        selector = null;
        tlsSocket = socket;
        this.sender = sender.getBytes(StandardCharsets.US_ASCII);
        this.target = "SLUICE".getBytes(StandardCharsets.US_ASCII);
        this.nextSeq = nextSeq;
        this.clock = clock;
    }

    /**
     * Connects over TLS with {@code context} (its key managers present a client certificate, if any) and completes
     * the handshake.
     *
     * @throws IOException if the handshake fails
     */
    public static TestFixClient tls(final InetSocketAddress address, final SSLContext context, final String sender,
                             final long nextSeq) throws IOException {
        final SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(address.getAddress(), address.getPort());
        socket.setTcpNoDelay(true);
        socket.setSoTimeout((int) TIMEOUT_MILLIS);
        try {
            socket.startHandshake();
        } catch (final IOException e) {
            socket.close();
            throw e;
        }
        return new TestFixClient(socket, sender, nextSeq, SystemEpochClock.INSTANCE);
    }

    /** @return the TLS session's protocol, e.g. TLSv1.3. */
    public String tlsProtocol() {
        return tlsSocket.getSession().getProtocol();
    }

    public TestFixClient(final SocketAddress address, final String sender, final long nextSeq) throws IOException {
        this(address, sender, "SLUICE", nextSeq);
    }

    public long nextSeq() {
        return nextSeq;
    }

    /** The next message goes out with MsgSeqNum {@code seq} (0 too, as a SequenceReset-Reset may carry). */
    public void nextSeq(final long seq) {
        nextSeq = seq;
    }

    /** Sends a message with the next MsgSeqNum and the current time; {@code body} adds the fields after the header. */
    public TestFixClient send(final int msgType, final Consumer<FixEncoder> body) throws IOException {
        encoder.start(msgType).header(sender, target, nextSeq++, clock.time());
        body.accept(encoder);
        encoder.finish();
        final ByteBuffer out = ByteBuffer.allocate(encoder.messageLength());
        encoder.buffer().getBytes(encoder.messageOffset(), out, encoder.messageLength());
        out.flip();
        write(out);
        return this;
    }

    public void sendRaw(final String pipeDelimited) throws IOException {
        write(ByteBuffer.wrap(pipeDelimited.replace('|', '\u0001').getBytes(StandardCharsets.ISO_8859_1)));
    }

    public TestFixClient logon(final String password) throws IOException {
        return logon(password, 30);
    }

    public TestFixClient logon(final String password, final int heartBtInt) throws IOException {
        return send(MsgTypes.LOGON, logon -> logon.longField(FixTags.ENCRYPT_METHOD, 0)
                .longField(FixTags.HEART_BT_INT, heartBtInt).textField(FixTags.PASSWORD, password));
    }

    /** Sends a NewOrderSingle: limit, day, with the given ClOrdID, symbol, side, quantity and price text. */
    public TestFixClient newOrder(final String clOrdId, final String symbol, final char side, final long quantity,
                           final String price) throws IOException {
        return send(MsgTypes.NEW_ORDER_SINGLE, order -> order.textField(FixTags.CL_ORD_ID, clOrdId)
                .textField(FixTags.ACCOUNT, "ACC1").textField(FixTags.SYMBOL, symbol).charField(FixTags.SIDE, side)
                .timestampField(FixTags.TRANSACT_TIME, clock.time())
                .longField(FixTags.ORDER_QTY, quantity).charField(FixTags.ORD_TYPE, '2')
                .textField(FixTags.PRICE, price).charField(FixTags.TIME_IN_FORCE, '0'));
    }

    /** Sends {@code count} NewOrderSingles (ClOrdID prefix + number from 1) in one write, as a flooding client does. */
    public TestFixClient newOrders(final String prefix, final int count) throws IOException {
        final ByteBuffer out = ByteBuffer.allocate(count * 512);
        for (int i = 1; i <= count; i++) {
            encoder.start(MsgTypes.NEW_ORDER_SINGLE).header(sender, target, nextSeq++, clock.time())
                    .textField(FixTags.CL_ORD_ID, prefix + i).textField(FixTags.ACCOUNT, "ACC1")
                    .textField(FixTags.SYMBOL, "VOD.L").charField(FixTags.SIDE, '1')
                    .timestampField(FixTags.TRANSACT_TIME, clock.time())
                    .longField(FixTags.ORDER_QTY, 100).charField(FixTags.ORD_TYPE, '2')
                    .textField(FixTags.PRICE, "101.25").charField(FixTags.TIME_IN_FORCE, '0');
            encoder.finish();
            final byte[] bytes = new byte[encoder.messageLength()];
            encoder.buffer().getBytes(encoder.messageOffset(), bytes);
            out.put(bytes);
        }
        out.flip();
        write(out);
        return this;
    }

    /**
     * Reads and drops every message that has arrived, never waiting: for a client that sends a flow and checks its
     * outcome elsewhere (in a journal), so the gateway never finds it too slow to read its reports.
     */
    public void skipArrived() throws IOException {
        readAvailable();
        while (poll() != null) {
            readAvailable();
        }
    }

    /** @return the next message from the gateway, failing the test after 10 s. */
    public FixFields receive() throws IOException {
        final long deadline = clock.time() + TIMEOUT_MILLIS;
        while (true) {
            final FixFields next = poll();
            if (next != null) {
                return next;
            }
            final long left = deadline - clock.time();
            if (left <= 0 || peerClosed) {
                fail(peerClosed ? "the gateway closed the connection" : "no message from the gateway within 10 s");
            }
            awaitBytes(left);
        }
    }

    /** @return the next message, asserting its MsgType. */
    public FixFields expect(final String msgType) throws IOException {
        final FixFields next = receive();
        assertEquals(msgType, next.msgType(), () -> "unexpected message " + next);
        return next;
    }

    /** Sends a TestRequest and expects its Heartbeat next: proves nothing else was queued before it. */
    public void expectNothingElse() throws IOException {
        send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, "QUIET"));
        assertEquals("QUIET", expect("0").get(FixTags.TEST_REQ_ID));
    }

    /**
     * Reads for {@code millis} and fails if a message (or a close) arrives meanwhile: for a message the gateway holds
     * back, once the test knows it was queued (its record is journaled), where "nothing" is what must be shown.
     */
    public void expectSilenceFor(final long millis) throws IOException {
        final long deadline = clock.time() + millis;
        long left;
        while ((left = deadline - clock.time()) > 0) {
            awaitBytes(left);
            final FixFields unexpected = poll();
            if (unexpected != null) {
                fail("expected nothing from the gateway yet, got " + unexpected);
            }
            if (peerClosed) {
                fail("expected nothing from the gateway yet, but it closed the connection");
            }
        }
        if (in.position() > readOffset) {
            fail("expected nothing from the gateway yet, got " + (in.position() - readOffset) + " bytes of a message");
        }
    }

    /**
     * @return false once the gateway has closed the connection, as far as what has arrived shows (a plain connection:
     *         reads what is there, never waits)
     */
    public boolean isOpen() throws IOException {
        readAvailable();
        return !peerClosed;
    }

    /** @return the address this client connects from (a plain connection's local address and port) */
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) channel.getLocalAddress();
    }

    /** Waits (10 s at most) until the gateway closes the connection; fails if it sends more meanwhile. */
    public void expectClosed() throws IOException {
        final long deadline = clock.time() + TIMEOUT_MILLIS;
        while (!peerClosed) {
            final FixFields unexpected = poll();
            if (unexpected != null) {
                fail("expected the connection to close, got " + unexpected);
            }
            final long left = deadline - clock.time();
            if (left <= 0) {
                fail("the gateway did not close the connection within 10 s");
            }
            awaitBytes(left);
        }
    }

    /**
     * Waits (20 s at most, as QuickFIX/J's acceptance suite does) until the gateway closes the connection, skipping
     * whatever it sends before.
     */
    public void awaitClosedSkippingMessages() throws IOException {
        final long deadline = clock.time() + 2 * TIMEOUT_MILLIS;
        while (!peerClosed) {
            while (poll() != null) {
                continue;
            }
            final long left = deadline - clock.time();
            if (left <= 0) {
                fail("the gateway did not close the connection within 20 s");
            }
            awaitBytes(left);
        }
    }

    @Override
    public void close() throws IOException {
        if (tlsSocket != null) {
            tlsSocket.close();
            return;
        }
        selector.close();
        channel.close();
    }

    /** Waits at most {@code millis} for bytes and reads what arrived. */
    private void awaitBytes(final long millis) throws IOException {
        if (tlsSocket != null) {
            readTls(millis);
            return;
        }
        selector.select(millis);
        selector.selectedKeys().clear();
        readAvailable();
    }

    private FixFields poll() {
        final int available = in.position() - readOffset;
        if (available == 0) {
            return null;
        }
        final int length = framer.scan(inView, readOffset, available);
        if (length < 0) {
            fail("the gateway sent bytes that are not FIX 4.4: " + framer.error());
        }
        if (length == 0) {
            return null;
        }
        assertEquals(FixError.NONE, framer.error());
        assertEquals(FixError.NONE, message.parse(inView, framer.bodyStart(), framer.bodyEnd()));
        final FixFields fields = new FixFields(message,
                inView.getStringWithoutLengthAscii(readOffset, length).replace('\u0001', '|'));
        readOffset += length;
        assertNotNull(fields.msgType());
        return fields;
    }

    private void readTls(final long millis) throws IOException {
        compactIn();
        final int read;
        try {
            tlsSocket.setSoTimeout((int) Math.max(1, millis));
            read = tlsSocket.getInputStream().read(tlsRead, 0, Math.min(tlsRead.length, in.remaining()));
        } catch (final SocketTimeoutException e) {
            return;
        } catch (final IOException e) {
            peerClosed = true;
            return;
        }
        if (read < 0) {
            peerClosed = true;
        } else {
            in.put(tlsRead, 0, read);
        }
    }

    private void compactIn() {
        if (readOffset > 0) {
            final int remaining = in.position() - readOffset;
            inView.putBytes(0, inView, readOffset, remaining);
            in.position(remaining);
            readOffset = 0;
        }
    }

    private void readAvailable() throws IOException {
        compactIn();
        final int read;
        try {
            read = channel.read(in);
        } catch (final IOException e) {
            peerClosed = true;
            return;
        }
        if (read < 0) {
            peerClosed = true;
        }
    }

    private void write(final ByteBuffer out) throws IOException {
        if (tlsSocket != null) {
            final byte[] bytes = new byte[out.remaining()];
            out.get(bytes);
            tlsSocket.getOutputStream().write(bytes);
            tlsSocket.getOutputStream().flush();
            return;
        }
        final long deadline = clock.time() + TIMEOUT_MILLIS;
        while (out.hasRemaining()) {
            channel.write(out);
            if (clock.time() > deadline) {
                fail("the gateway did not take our bytes within 10 s");
            }
        }
    }
}
