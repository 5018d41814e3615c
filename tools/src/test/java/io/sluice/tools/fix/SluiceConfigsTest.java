package io.sluice.tools.fix;

import io.sluice.engine.config.EngineConfig;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.SessionConfig;
import io.sluice.gateway.transport.ListenAddress;
import io.sluice.runtime.agent.IdleConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The configs a deployment writes are read back by the engine's and gateways' own config loaders. */
class SluiceConfigsTest {
    @TempDir
    Path dir;

    @Test
    void theEngineReadsItsConfigWithTheTradedInstrumentAndEveryGateway() {
        final Path root = dir.resolve("journals");
        final EngineConfig config = EngineConfig.parse(SluiceConfigs.engine(root, List.of(1, 2), "SLC", SluiceIdle.YIELD, 1),
                "test");
        assertEquals(root, config.journalRoot());
        assertArrayEquals(new int[] {1, 2}, config.gatewayIds());
        assertEquals(IdleConfig.of("yield"), config.idle());
        assertEquals(1, config.pinCpu());
    }

    @Test
    void anEngineIdleGivenInFullIsReadBackInFull() {
        final IdleConfig parking = IdleConfig.parking(10_000, 1_000_000);
        final EngineConfig config = EngineConfig.parse(SluiceConfigs.engine(dir.resolve("journals"), List.of(1), "SLC",
                parking, 0, SluiceDeployment.JournalDisk.DEFAULTS, ""), "test");
        assertEquals(parking, config.idle());
        assertEquals(parking.describe(), config.idle().describe());
    }

    @Test
    void aTcpGatewayReadsItsConfigWithEverySessionAndItsCredentials() throws Exception {
        final GatewayConfig config = gatewayConfig(FixTransport.TCP, FixEndpoint.tcp("127.0.0.1", 40123));
        assertEquals(2, config.gatewayId());
        assertEquals(dir.resolve("journals"), config.journalRoot());
        assertEquals(new InetSocketAddress("127.0.0.1", 40123), config.listen().address());
        assertEquals(IdleConfig.of("spin"), config.idle(), "busy-spin is Agrona's spin, with the shared defaults");
        final SessionConfig seeder = config.sessions().get(1);
        assertEquals(List.of("LOAD2", "SEEDER"), config.sessions().stream().map(SessionConfig::senderCompId).toList());
        assertEquals("GW", seeder.targetCompId());
        assertEquals("SEEDER", seeder.username());
        assertEquals("pw", seeder.password());
        assertTrue(config.validation().validateIncomingMessage(), "validation is on unless the spec turns it off");
    }

    @Test
    void aGatewaySettingReachesTheGatewaysConfig() throws Exception {
        final SluiceDeployment.GatewaySpec spec = new SluiceDeployment.GatewaySpec(2, FixTransport.TCP, List.of(
                new SessionIdentity("LOAD2", "GW", "LOAD2", "pw")), Map.of(),
                "validation: { validateIncomingMessage: false }");
        final Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, SluiceConfigs.gateway(dir.resolve("journals"), spec, FixEndpoint.tcp("127.0.0.1", 40123),
                "GW", SluiceIdle.BUSY_SPIN));
        final GatewayConfig config = GatewayConfig.load(file, Map.of());
        assertFalse(config.validation().validateIncomingMessage());
        assertEquals(List.of("LOAD2"), config.sessions().stream().map(SessionConfig::senderCompId).toList());
    }

    @Test
    void aUnixSocketGatewayListensOnItsSocketPath() throws Exception {
        final Path socket = dir.resolve("gateway-2.sock");
        final GatewayConfig config = gatewayConfig(FixTransport.UDS, FixEndpoint.uds(socket));
        final ListenAddress listen = config.listen();
        assertEquals(UnixDomainSocketAddress.of(socket), listen.address());
    }

    private GatewayConfig gatewayConfig(final FixTransport transport, final FixEndpoint endpoint) throws Exception {
        final SluiceDeployment.GatewaySpec spec = new SluiceDeployment.GatewaySpec(2, transport, List.of(
                new SessionIdentity("LOAD2", "GW", "LOAD2", "pw"), new SessionIdentity("SEEDER", "GW", "SEEDER", "pw")));
        final Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, SluiceConfigs.gateway(dir.resolve("journals"), spec, endpoint, "GW", SluiceIdle.BUSY_SPIN));
        return GatewayConfig.load(file, Map.of());
    }
}
