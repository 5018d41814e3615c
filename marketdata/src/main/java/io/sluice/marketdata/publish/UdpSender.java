package io.sluice.marketdata.publish;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;

/**
 * Sends each packet to every configured address from one non-blocking UDP socket: unicast by default, multicast
 * where an address is a multicast group (out of the configured interface, if one is named, with a TTL of 1 and
 * loopback on). A packet the socket cannot take now is dropped and counted: the feed's receivers recover it by
 * retransmission, as any lost packet.
 */
final class UdpSender implements AutoCloseable {
    private final DatagramChannel channel;
    private final InetSocketAddress[] destinations;
    private long sent;
    private long dropped;

    UdpSender(final List<InetSocketAddress> destinations, final String multicastInterface) {
        this.destinations = destinations.toArray(new InetSocketAddress[0]);
        try {
            channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 4 * 1024 * 1024);
            if (destinations.stream().anyMatch(d -> d.getAddress().isMulticastAddress())) {
                if (!multicastInterface.isEmpty()) {
                    final NetworkInterface out = NetworkInterface.getByName(multicastInterface);
                    if (out == null) {
                        throw new IllegalArgumentException("multicastInterface: no interface " + multicastInterface);
                    }
                    channel.setOption(StandardSocketOptions.IP_MULTICAST_IF, out);
                }
                channel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 1);
                channel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            }
        } catch (final SocketException e) {
            throw new UncheckedIOException("cannot set up the feed's UDP socket: " + e.getMessage(), e);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot open the feed's UDP socket", e);
        }
    }

    /** Sends {@code packet} (position to limit) to every destination; it is left as it was given. */
    void send(final ByteBuffer packet) {
        final int position = packet.position();
        for (final InetSocketAddress destination : destinations) {
            packet.position(position);
            try {
                if (channel.send(packet, destination) == 0) {
                    dropped++;
                } else {
                    sent++;
                }
            } catch (final IOException e) {
                dropped++;
            }
        }
        packet.position(position);
    }

    /** @return packets handed to the kernel, counting each destination */
    long sent() {
        return sent;
    }

    /** @return packets the socket could not take */
    long dropped() {
        return dropped;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
