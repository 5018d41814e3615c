package io.sluice.gateway.transport;

import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Keepalive as the kernel holds it on a real accepted TCP socket. */
class TcpKeepaliveTest {
    @Test
    void anAcceptedSocketGetsKeepaliveWithTheGivenTimings() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.INET)
                .bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept()) {
            assertFalse(accepted.getOption(StandardSocketOptions.SO_KEEPALIVE), "off unless asked for");
            new TcpKeepalive(7, 3).applyTo(accepted);
            assertTrue(accepted.getOption(StandardSocketOptions.SO_KEEPALIVE));
            assumeTrue(accepted.supportedOptions().contains(ExtendedSocketOptions.TCP_KEEPIDLE),
                    "this platform sets keepalive timings only system-wide");
            assertEquals(7, accepted.getOption(ExtendedSocketOptions.TCP_KEEPIDLE));
            assertEquals(3, accepted.getOption(ExtendedSocketOptions.TCP_KEEPINTERVAL));
            assertEquals(TcpKeepalive.PROBES, accepted.getOption(ExtendedSocketOptions.TCP_KEEPCOUNT));
        }
    }
}
