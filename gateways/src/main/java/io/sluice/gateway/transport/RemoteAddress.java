package io.sluice.gateway.transport;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A client's source address as a {@code long}, for the per-address connection limit and logon throttle:
 * an IPv4 address exactly, an IPv6 address folded to 64 bits, and every Unix domain socket peer (always a
 * process on this host) as the one key {@link #LOCAL}.
 */
public final class RemoteAddress {
    /** The key of every Unix domain socket peer, and of a peer whose address is unknown. */
    public static final long LOCAL = 0;

    private RemoteAddress() {
    }

    /** @return the key of {@code address}, computed once when a connection is accepted. */
    public static long key(final SocketAddress address) {
        if (!(address instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return LOCAL;
        }
        final InetAddress ip = inet.getAddress();
        if (ip instanceof Inet4Address) {
            return (1L << 32) | (ip.hashCode() & 0xFFFF_FFFFL);
        }
        final byte[] bytes = ip.getAddress();
        long high = 0;
        long low = 0;
        for (int i = 0; i < 8; i++) {
            high = (high << 8) | (bytes[i] & 0xFF);
            low = (low << 8) | (bytes[i + 8] & 0xFF);
        }
        final long folded = high ^ Long.rotateLeft(low, 31);
        return folded == LOCAL ? 1 : folded;
    }
}
