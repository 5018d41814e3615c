package io.sluice.gateway;

import io.sluice.gateway.transport.TcpKeepalive;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gateway's YAML: the shipped example loads as documented, and bad values are refused at start by name. */
final class GatewayConfigTest {
    @Test
    void theExampleLoadsWithAFirmOnOneSessionOnly() throws Exception {
        final GatewayConfig config = example();
        assertNull(config.sessions().get(0).firm());
        assertEquals("ACME", config.sessions().get(1).firm());
    }

    @Test
    void theExampleSetsTheDeadPeerLimitsPerGatewayAndPerSession() throws Exception {
        final GatewayConfig config = example();
        assertEquals(new TcpKeepalive(30, 10), config.tcpKeepalive());
        assertEquals(1, config.minHeartBtIntSeconds(config.sessions().get(0)), "CLIENT1 has the gateway's minimum");
        assertEquals(5, config.minHeartBtIntSeconds(config.sessions().get(1)), "CLIENT2 sets its own");
    }

    @Test
    void aFirmLongerThanTenCharactersIsRefusedByName() {
        final GatewayConfig config = new GatewayConfig()
                .session(new SessionConfig("CLIENT1", "SLUICE", "pw").firm("ELEVENCHARS"));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, config::validate);
        assertTrue(refused.getMessage().contains("session CLIENT1: firm 'ELEVENCHARS' must be 1 to 10 characters"),
                refused.getMessage());
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

    @Test
    void theExampleValidatesAsTheStandardAndResetsNothing() throws Exception {
        final GatewayConfig config = example();
        assertEquals(io.sluice.gateway.codec.FixValidation.STANDARD, config.validation());
        assertEquals(io.sluice.gateway.session.ResetPolicy.NONE, config.sessions().get(1).resetPolicy());
    }

    @Test
    void aResetTimeThatIsNotATimeOfDayIsRefusedByName() {
        final GatewayConfig config = new GatewayConfig()
                .session(new SessionConfig("CLIENT1", "SLUICE", "pw").resets(true, false, false, "7pm"));
        final String problems = assertThrows(IllegalArgumentException.class, config::validate).getMessage();
        assertTrue(problems.contains("session CLIENT1: resetTime must be HH:MM:SS (UTC), got '7pm'"), problems);
    }

    private GatewayConfig example() throws Exception {
        return GatewayConfig.load(Path.of(getClass().getResource("/gateway-example.yaml").toURI()));
    }
}
