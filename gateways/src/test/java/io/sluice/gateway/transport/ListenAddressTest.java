package io.sluice.gateway.transport;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The four forms of a listen address, plain and TLS, read and written back; anything else named as wrong. */
class ListenAddressTest {
    @Test
    void readsPlainAndTlsForms() {
        final ListenAddress tcp = ListenAddress.parse("tcp://127.0.0.1:9878");
        assertEquals(StandardProtocolFamily.INET, tcp.family());
        assertFalse(tcp.tls());
        final ListenAddress tls = ListenAddress.parse("tls://127.0.0.1:9879");
        assertTrue(tls.tls());
        assertEquals(9879, ((InetSocketAddress) tls.address()).getPort());
        assertEquals("tls://127.0.0.1:9879", ListenAddress.format(tls.address(), true));
        final ListenAddress unixTls = ListenAddress.parse("tls+unix:/tmp/gw.sock");
        assertTrue(unixTls.tls());
        assertEquals(StandardProtocolFamily.UNIX, unixTls.family());
        assertEquals("tls+unix:/tmp/gw.sock", ListenAddress.format(unixTls.address(), true));
        assertEquals("unix:/tmp/gw.sock", ListenAddress.format(UnixDomainSocketAddress.of("/tmp/gw.sock")));
    }

    @Test
    void namesTheFormsItTakes() {
        for (final String wrong : new String[] {"ssl://127.0.0.1:1", "tls://127.0.0.1", "tls+unix:", "tcp://h:port"}) {
            final String message = assertThrows(IllegalArgumentException.class, () -> ListenAddress.parse(wrong))
                    .getMessage();
            assertTrue(message.contains("tls://<host>:<port>") && message.contains(wrong), message);
        }
    }
}
