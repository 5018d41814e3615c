package io.sluice.marketdata.handler;

import io.sluice.marketdata.feed.PacketHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A UDP relay on 127.0.0.1 between the publisher and feed handlers that loses, repeats and reorders packets as its
 * script says. It does so deterministically: by the sequence a packet carries, not by when it comes. Each rule acts
 * once, on the
 * first packet that holds its sequence.
 */
public final class LossyRelay implements AutoCloseable {
    private final DatagramChannel channel;
    private final List<InetSocketAddress> targets = new ArrayList<>();
    private final ByteBuffer packet = ByteBuffer.allocateDirect(2048);
    private final UnsafeBuffer view = new UnsafeBuffer(packet);
    private final ByteBuffer held = ByteBuffer.allocateDirect(2048);
    private final Set<Long> drops = new HashSet<>();
    private final Set<Long> duplicates = new HashSet<>();
    private final Set<Long> delays = new HashSet<>();
    private boolean holding;
    private boolean dropHeartbeats;
    private long forwarded;
    private long dropped;

    public LossyRelay() throws IOException {
        channel = DatagramChannel.open();
        channel.bind(new InetSocketAddress("127.0.0.1", 0));
        channel.configureBlocking(false);
    }

    public InetSocketAddress address() throws IOException {
        return (InetSocketAddress) channel.getLocalAddress();
    }

    /** Relays to {@code target} too, from now on. */
    public LossyRelay to(final InetSocketAddress target) {
        targets.add(target);
        return this;
    }

    /** Loses the packet that holds {@code sequence}. */
    public LossyRelay drop(final long sequence) {
        drops.add(sequence);
        return this;
    }

    /** Sends the packet that holds {@code sequence} twice. */
    LossyRelay duplicate(final long sequence) {
        duplicates.add(sequence);
        return this;
    }

    /** Sends the packet that holds {@code sequence} after the one that follows it. */
    LossyRelay delay(final long sequence) {
        delays.add(sequence);
        return this;
    }

    /** Loses every heartbeat, or none. */
    LossyRelay dropHeartbeats(final boolean drop) {
        dropHeartbeats = drop;
        return this;
    }

    /** Relays what has come; @return how many packets came */
    public int pump() {
        int came = 0;
        try {
            while (true) {
                packet.clear();
                if (channel.receive(packet) == null) {
                    return came;
                }
                came++;
                packet.flip();
                final long first = PacketHeader.sequence(view, 0);
                final int count = PacketHeader.count(view, 0);
                if (count == 0) {
                    if (!dropHeartbeats) {
                        send(packet);
                    }
                    continue;
                }
                if (takes(drops, first, count)) {
                    dropped++;
                    continue;
                }
                if (takes(delays, first, count) && !holding) {
                    held.clear();
                    held.put(packet).flip();
                    holding = true;
                    continue;
                }
                final boolean twice = takes(duplicates, first, count);
                send(packet);
                if (twice) {
                    send(packet);
                }
                if (holding) {
                    holding = false;
                    send(held);
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean takes(final Set<Long> rule, final long first, final int count) {
        for (final Long sequence : rule) {
            if (sequence >= first && sequence < first + count) {
                rule.remove(sequence);
                return true;
            }
        }
        return false;
    }

    private void send(final ByteBuffer bytes) throws IOException {
        for (final InetSocketAddress target : targets) {
            bytes.position(0);
            channel.send(bytes, target);
            forwarded++;
        }
    }

    long forwarded() {
        return forwarded;
    }

    long dropped() {
        return dropped;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
