package io.sluice.marketdata.handler;

import io.sluice.marketdata.feed.FeedLayout;
import io.sluice.marketdata.feed.PacketHeader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * A feed handler's connection to the retransmission service: connects when first needed (and again, at most every
 * {@value #RECONNECT_MILLIS} ms, after the service went away), sends "sequence N, count M" requests and hands each
 * length-framed packet of the answers to its receiver. Non-blocking: it never holds up the handler's thread.
 */
final class RetransmitClient implements AutoCloseable {
    static final long RECONNECT_MILLIS = 100;

    /** Takes each answered packet, valid during the call only. */
    @FunctionalInterface
    interface Receiver {
        void onRetransmitted(DirectBuffer buffer, int offset, int length);
    }

    /** The connection's state. */
    private enum Link {
        DOWN,
        CONNECTING,
        UP
    }

    private final InetSocketAddress address;
    private final byte[] session;
    private final ByteBuffer request = ByteBuffer.allocateDirect(PacketHeader.LENGTH);
    private final UnsafeBuffer requestView = new UnsafeBuffer(request);
    private final ByteBuffer in = ByteBuffer.allocateDirect(256 * 1024).order(FeedLayout.ORDER);
    private final UnsafeBuffer inView = new UnsafeBuffer(in);
    private SocketChannel channel;
    private Link link = Link.DOWN;
    private final NanoClock clock;
    private long lastAttemptNanos;

    RetransmitClient(final InetSocketAddress address, final byte[] session, final NanoClock clock) {
        this.address = address;
        this.session = session.clone();
        this.clock = clock;
        lastAttemptNanos = clock.nanoTime() - TimeUnit.MILLISECONDS.toNanos(RECONNECT_MILLIS);
    }

    /** Asks for {@code count} messages from {@code sequence}; @return false if not connected yet (ask again later) */
    boolean request(final long sequence, final int count) {
        if (link != Link.UP) {
            connect();
            return false;
        }
        PacketHeader.encode(requestView, 0, session, sequence, count);
        request.clear();
        try {
            while (request.hasRemaining()) {
                if (channel.write(request) == 0) {
                    Thread.onSpinWait();
                }
            }
            return true;
        } catch (final IOException e) {
            down();
            return false;
        }
    }

    /** Hands every whole packet received to {@code receiver}; @return how many */
    int poll(final Receiver receiver) {
        if (link == Link.CONNECTING) {
            try {
                if (channel.finishConnect()) {
                    link = Link.UP;
                }
            } catch (final IOException e) {
                down();
            }
            return 0;
        }
        if (link != Link.UP) {
            return 0;
        }
        try {
            if (channel.read(in) < 0) {
                down();
                return 0;
            }
        } catch (final IOException e) {
            down();
            return 0;
        }
        int packets = 0;
        int at = 0;
        final int end = in.position();
        while (end - at >= FeedLayout.BLOCK_LENGTH_PREFIX) {
            final int length = inView.getShort(at, FeedLayout.ORDER) & 0xFFFF;
            if (end - at - FeedLayout.BLOCK_LENGTH_PREFIX < length) {
                break;
            }
            receiver.onRetransmitted(inView, at + FeedLayout.BLOCK_LENGTH_PREFIX, length);
            at += FeedLayout.BLOCK_LENGTH_PREFIX + length;
            packets++;
        }
        in.flip().position(at);
        in.compact();
        return packets;
    }

    private void connect() {
        final long now = clock.nanoTime();
        if (link != Link.DOWN || now - lastAttemptNanos < TimeUnit.MILLISECONDS.toNanos(RECONNECT_MILLIS)) {
            return;
        }
        lastAttemptNanos = now;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            link = channel.connect(address) ? Link.UP : Link.CONNECTING;
            in.clear();
        } catch (final IOException e) {
            down();
        }
    }

    private void down() {
        link = Link.DOWN;
        if (channel != null) {
            try {
                channel.close();
            } catch (final IOException ignored) {
                // gone already
            }
            channel = null;
        }
    }

    @Override
    public void close() {
        down();
    }
}
