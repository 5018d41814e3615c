package io.sluice.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An attacker holding a gateway's pre-logon connections from several source addresses, reopening what is closed. It
 * opens {@code perAddress} silent connections from each address and, on its own thread, reopens every one the gateway
 * closes, from the same address, as soon as it sees the close. It never sends a byte.
 */
final class ReopeningAttack implements AutoCloseable {
    private final SocketAddress gateway;
    private final Selector selector;
    private final Thread thread;
    private final AtomicLong reopened = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ByteBuffer discard = ByteBuffer.allocate(1024);
    private volatile boolean running = true;

    /** Opens every connection (each in the gateway's accept queue when this returns), then starts reopening. */
    ReopeningAttack(final SocketAddress gateway, final List<InetAddress> from, final int perAddress) throws IOException {
        this.gateway = gateway;
        selector = Selector.open();
        for (final InetAddress address : from) {
            for (int i = 0; i < perAddress; i++) {
                open(address);
            }
        }
        thread = new Thread(this::run, "reopening-attack");
        thread.setDaemon(true);
        thread.start();
    }

    /** @return how many connections the gateway closed and the attack reopened so far */
    long reopened() {
        return reopened.get();
    }

    /** @return what stopped the attack's thread, or null */
    Throwable failure() {
        return failure.get();
    }

    private void open(final InetAddress from) throws IOException {
        final SocketChannel channel = SocketChannel.open();
        channel.bind(new InetSocketAddress(from, 0));
        channel.connect(gateway);
        channel.configureBlocking(false);
        channel.register(selector, SelectionKey.OP_READ, from);
    }

    private void run() {
        try {
            while (running) {
                selector.select(this::onReadable, 100);
            }
        } catch (final IOException | RuntimeException e) {
            failure.set(e);
        }
    }

    private void onReadable(final SelectionKey key) {
        final SocketChannel channel = (SocketChannel) key.channel();
        int read;
        try {
            discard.clear();
            read = channel.read(discard);
        } catch (final IOException e) {
            read = -1; // reset by the gateway: closed all the same
        }
        if (read >= 0) {
            return;
        }
        try {
            key.cancel();
            channel.close();
            if (running) {
                open((InetAddress) key.attachment());
                reopened.incrementAndGet();
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws Exception {
        running = false;
        thread.join();
        for (final SelectionKey key : selector.keys()) {
            key.channel().close();
        }
        selector.close();
    }
}
