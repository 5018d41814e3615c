package io.sluice.gateway;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gateway's YAML: the shipped example loads as documented, and a bad session firm is named. */
final class GatewayConfigTest {
    @Test
    void theExampleLoadsWithAFirmOnOneSessionOnly() throws Exception {
        final GatewayConfig config = GatewayConfig.load(Path.of(getClass().getResource("/gateway-example.yaml").toURI()));
        assertNull(config.sessions().get(0).firm());
        assertEquals("ACME", config.sessions().get(1).firm());
    }

    @Test
    void aFirmLongerThanTenCharactersIsRefusedByName() {
        final GatewayConfig config = new GatewayConfig()
                .session(new SessionConfig("CLIENT1", "SLUICE", "pw").firm("ELEVENCHARS"));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, config::validate);
        assertTrue(refused.getMessage().contains("session CLIENT1: firm 'ELEVENCHARS' must be 1 to 10 characters"),
                refused.getMessage());
    }
}
