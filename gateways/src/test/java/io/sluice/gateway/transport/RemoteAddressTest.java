package io.sluice.gateway.transport;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The source address a client counts as: an IPv4 address, an IPv6 /64, or "local" for a Unix domain socket. */
class RemoteAddressTest {
    @Test
    void anIpv4AddressIsItsOwnSource() throws Exception {
        assertNotEquals(key("10.1.2.3"), key("10.1.2.4"));
        assertEquals(key("10.1.2.3"), RemoteAddress.key(new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 9)));
    }

    @Test
    void everyAddressOfAnIpv6Slash64IsOneSource() throws Exception {
        assertEquals(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff:ffff:ffff:ffff"));
        assertNotEquals(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
    }

    @Test
    void noIpv6SourceCanTakeTheKeyOfAnIpv4OneOrOfLocalPeers() throws Exception {
        final long ipv4 = key("10.1.2.3");
        // A host of 2001:db8:1:2::/64 could send from the address whose 64-bit fold of all 128 bits equals ipv4's key.
        final long prefix = 0x2001_0db8_0001_0002L;
        final long interfaceId = Long.rotateRight(prefix ^ ipv4, 31);
        final String crafted = "2001:db8:1:2:" + HexFormat.of().toHexDigits(interfaceId).replaceAll("(.{4})(?!$)", "$1:");
        assertEquals(ipv4, prefix ^ Long.rotateLeft(interfaceId, 31), "the fold it would have matched");
        assertNotEquals(ipv4, key(crafted));
        assertNotEquals(ipv4, key("::a01:203"), "the IPv4-compatible form of 10.1.2.3");
        assertNotEquals(RemoteAddress.LOCAL, key("::1"));
        assertNotEquals(RemoteAddress.LOCAL, key("::"));
    }

    @Test
    void everyUnixDomainSocketPeerIsLocal() {
        assertEquals(RemoteAddress.LOCAL, RemoteAddress.key(UnixDomainSocketAddress.of("/tmp/gw.sock")));
    }

    private static long key(final String ip) throws Exception {
        return RemoteAddress.key(new InetSocketAddress(InetAddress.getByName(ip), 40_000));
    }
}
