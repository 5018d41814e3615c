package io.sluice.gateway;

import io.sluice.gateway.transport.TcpKeepalive;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped example configuration loads as documented, and a minimum HeartBtInt of 0 is refused at start. */
class GatewayExampleConfigTest {
    private static final Path EXAMPLE = Path.of("src/main/resources/gateway-example.yaml");

    @Test
    void theExampleSetsTheDeadPeerLimitsPerGatewayAndPerSession() throws Exception {
        final GatewayConfig config = GatewayConfig.load(EXAMPLE);
        assertEquals(new TcpKeepalive(30, 10), config.tcpKeepalive());
        assertEquals(1, config.minHeartBtIntSeconds(config.sessions().get(0)), "CLIENT1 has the gateway's minimum");
        assertEquals(5, config.minHeartBtIntSeconds(config.sessions().get(1)), "CLIENT2 sets its own");
    }

    @Test
    void aMinimumHeartBtIntOfZeroIsRefusedAtStart() {
        final GatewayConfig config = new GatewayConfig().minHeartBtIntSeconds(0)
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1").minHeartBtIntSeconds(-1));
        final String problems = assertThrows(IllegalArgumentException.class, config::validate).getMessage();
        assertTrue(problems.contains("minHeartBtIntSeconds must be 1 to 3600, got 0"), problems);
        assertTrue(problems.contains("session CLIENT1: minHeartBtIntSeconds must be 1 to 3600, or 0 for the gateway's, "
                + "got -1"), problems);
    }
}
