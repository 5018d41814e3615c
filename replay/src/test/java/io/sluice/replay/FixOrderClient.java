package io.sluice.replay;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A FIX 4.4 client for recording sessions through a real gateway: logs on over the gateway's Unix domain
 * socket, then sends a seeded flow of limit orders and cancels. A daemon thread drains what the
 * gateway sends back (the test waits on the engine journal, not on these bytes) so the gateway never
 * finds the client too slow.
 */
final class FixOrderClient implements AutoCloseable {
    /** The quantity of the jumbo order. */
    static final long JUMBO_QTY = 500;
    private static final byte[] LOGON_REPLY = "\u000135=A\u0001".getBytes(StandardCharsets.US_ASCII);

    private final SocketChannel channel;
    private final ByteBuffer encoded = ByteBuffer.allocate(4096);
    private final FixEncoder encoder = new FixEncoder(new UnsafeBuffer(encoded));
    private final byte[] sender;
    private final byte[] target = "SLUICE".getBytes(StandardCharsets.US_ASCII);
    private final Thread drain;
    private volatile boolean loggedOn;
    private long nextSeq = 1;

    FixOrderClient(final Path socket, final String senderCompId) throws IOException {
        channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        sender = senderCompId.getBytes(StandardCharsets.US_ASCII);
        drain = new Thread(this::drain, "fix-client-drain-" + senderCompId);
        drain.setDaemon(true);
        drain.start();
    }

    /** Logs on and waits (10 s at most) for the gateway's Logon. */
    void logon(final String password) throws IOException {
        send(MsgTypes.LOGON, logon -> logon.longField(FixTags.ENCRYPT_METHOD, 0)
                .longField(FixTags.HEART_BT_INT, 30).textField(FixTags.PASSWORD, password));
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!loggedOn) {
            if (System.nanoTime() > deadline || !drain.isAlive()) {
                throw new IllegalStateException("no Logon from the gateway within 10 s");
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Sends {@code orders} commands of a seeded flow in {@code symbol} (VOD.L or AZN.L): about four limit
     * orders, with quantities up to 100, to each cancel; order {@code jumboAt} (if not 0) is a limit order for
     * {@link #JUMBO_QTY}.
     */
    void sendFlow(final int orders, final long seed, final String symbol, final long jumboAt) throws IOException {
        final SplittableRandom random = new SplittableRandom(seed);
        final int mid = symbol.startsWith("AZN") ? 10_000 : 100;
        for (int n = 1; n <= orders; n++) {
            final String clOrdId = "C" + n;
            if (n != jumboAt && n > 5 && random.nextInt(5) == 0) {
                final String orig = "C" + (n - 1 - random.nextInt(5));
                send(MsgTypes.ORDER_CANCEL_REQUEST, cancel -> cancel.textField(FixTags.ORIG_CL_ORD_ID, orig)
                        .textField(FixTags.CL_ORD_ID, clOrdId).textField(FixTags.SYMBOL, symbol).charField(FixTags.SIDE, '1')
                        .timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis()));
            } else {
                final char side = random.nextBoolean() ? '1' : '2';
                final String price = (mid - 2 + random.nextInt(5)) + "." + (random.nextBoolean() ? "00" : "50");
                final long qty = n == jumboAt ? JUMBO_QTY : 10L * (1 + random.nextInt(10));
                send(MsgTypes.NEW_ORDER_SINGLE, order -> order.textField(FixTags.CL_ORD_ID, clOrdId)
                        .textField(FixTags.ACCOUNT, "ACC1").textField(FixTags.SYMBOL, symbol).charField(FixTags.SIDE, side)
                        .timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis())
                        .longField(FixTags.ORDER_QTY, qty).charField(FixTags.ORD_TYPE, '2')
                        .textField(FixTags.PRICE, price).charField(FixTags.TIME_IN_FORCE, '0'));
            }
        }
    }

    private void send(final int msgType, final Consumer<FixEncoder> body) throws IOException {
        body.accept(encoder.start(msgType).header(sender, target, nextSeq++, System.currentTimeMillis()));
        encoder.finish();
        final ByteBuffer out = encoded.duplicate().limit(encoder.messageOffset() + encoder.messageLength())
                .position(encoder.messageOffset());
        while (out.hasRemaining()) {
            channel.write(out);
        }
    }

    private void drain() {
        final ByteBuffer in = ByteBuffer.allocate(1 << 16);
        try {
            while (channel.read(in) >= 0) {
                if (!loggedOn && contains(in.array(), in.position(), LOGON_REPLY)) {
                    loggedOn = true;
                }
                in.clear();
            }
        } catch (final IOException closed) {
            // the test closed the connection
        }
    }

    private static boolean contains(final byte[] bytes, final int length, final byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (bytes[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
