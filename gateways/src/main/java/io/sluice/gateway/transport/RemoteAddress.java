package io.sluice.gateway.transport;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A client's source address as a {@code long}, for the per-address limits and the logon throttle. An IPv4 address is
 * kept exactly, an IPv6 address by its /64 prefix, and every Unix domain socket peer (always a process on this host) is
 * the one key {@link #LOCAL}.
 * <p>
 * An IPv6 host is given a whole /64 and may send from any address in it, so the prefix is what one source holds:
 * keyed by the full address, one host could open as many "addresses" as it liked, or pick the one whose key equals
 * another client's and fail logons in its name. Prefixes are handed out by networks, not chosen by hosts; an IPv4 key
 * ({@code 1 << 32 | address}) lies in {@code ::/31} read as a prefix, which holds no routable addresses, and a prefix
 * there ({@code ::1} among them) is marked with the top bit, so no IPv6 source shares a key with an IPv4 one or with
 * {@link #LOCAL}.
 */
public final class RemoteAddress {
    /** The key of every Unix domain socket peer, and of a peer whose address is unknown. */
    public static final long LOCAL = 0;
    private static final long IPV4 = 1L << 32;
    private static final long LOW_PREFIX = Long.MIN_VALUE;

    private RemoteAddress() {
    }

    /** @return the key of {@code address}, computed once when a connection is accepted. */
    public static long key(final SocketAddress address) {
        if (!(address instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return LOCAL;
        }
        final InetAddress ip = inet.getAddress();
        if (ip instanceof Inet4Address) {
            return IPV4 | (ip.hashCode() & 0xFFFF_FFFFL);
        }
        final byte[] bytes = ip.getAddress();
        long prefix = 0;
        for (int i = 0; i < 8; i++) {
            prefix = (prefix << 8) | (bytes[i] & 0xFF);
        }
        return prefix >>> 33 == 0 ? prefix | LOW_PREFIX : prefix;
    }
}
