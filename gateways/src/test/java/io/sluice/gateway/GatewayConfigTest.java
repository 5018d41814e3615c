package io.sluice.gateway;

import io.sluice.gateway.codec.FixValidation;
import io.sluice.gateway.session.ResetPolicy;
import io.sluice.gateway.transport.TcpKeepalive;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gateway's YAML: the shipped example loads as documented, and bad values are refused at start by name. */
final class GatewayConfigTest {
    @Test
    void theExampleLoadsWithAFirmOnOneSessionAndThatFirmsDropCopy() throws Exception {
        final GatewayConfig config = example();
        assertNull(config.sessions().get(0).firm());
        assertEquals("ACME", config.sessions().get(1).firm());
        assertNull(config.sessions().get(1).dropCopy());
        assertEquals("ACME", config.sessions().get(2).dropCopy(), "ACME's drop copy");
    }

    @Test
    void theExampleSetsTheDeadPeerLimitsPerGatewayAndPerSession() throws Exception {
        final GatewayConfig config = example();
        assertEquals(new TcpKeepalive(30, 10), config.tcpKeepalive());
        assertEquals(1, config.minHeartBtIntSeconds(config.sessions().get(0)), "CLIENT1 has the gateway's minimum");
        assertEquals(5, config.minHeartBtIntSeconds(config.sessions().get(1)), "CLIENT2 sets its own");
    }

    @Test
    void theExampleSharesItsPreLogonBuffersSixteenPerAddress() throws Exception {
        final GatewayConfig config = example();
        assertEquals(64, config.preLogonBuffers());
        assertEquals(16, config.preLogonBuffersPerAddress());
        assertEquals(16, new GatewayConfig().preLogonBuffersPerAddress(), "the default");
    }

    @Test
    void aPreLogonShareBelowOneIsRefusedByName() {
        final GatewayConfig config = new GatewayConfig().preLogonBuffersPerAddress(0)
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        final String problems = assertThrows(IllegalArgumentException.class, () -> config.validate(Map.of())).getMessage();
        assertTrue(problems.contains("preLogonBuffersPerAddress must be positive, got 0"), problems);
    }

    @Test
    void aFirmLongerThanTenCharactersIsRefusedByName() {
        final GatewayConfig config = new GatewayConfig()
                .session(new SessionConfig("CLIENT1", "SLUICE", "pw").firm("ELEVENCHARS"));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> config.validate(Map.of()));
        assertTrue(refused.getMessage().contains("session CLIENT1: firm 'ELEVENCHARS' must be 1 to 10 characters"),
                refused.getMessage());
    }

    @Test
    void aMinimumHeartBtIntOfZeroIsRefusedAtStart() {
        final GatewayConfig config = new GatewayConfig().minHeartBtIntSeconds(0)
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1").minHeartBtIntSeconds(-1));
        final String problems = assertThrows(IllegalArgumentException.class, () -> config.validate(Map.of())).getMessage();
        assertTrue(problems.contains("minHeartBtIntSeconds must be 1 to 3600, got 0"), problems);
        assertTrue(problems.contains("session CLIENT1: minHeartBtIntSeconds must be 1 to 3600, or 0 for the gateway's, "
                + "got -1"), problems);
    }

    @Test
    void theExampleValidatesAsTheStandardAndResetsNothing() throws Exception {
        final GatewayConfig config = example();
        assertEquals(FixValidation.STANDARD, config.validation());
        assertEquals(ResetPolicy.NONE, config.sessions().get(1).resetPolicy());
    }

    @Test
    void aResetTimeThatIsNotATimeOfDayIsRefusedByName() {
        final GatewayConfig config = new GatewayConfig()
                .session(new SessionConfig("CLIENT1", "SLUICE", "pw").resets(true, false, false, "7pm"));
        final String problems = assertThrows(IllegalArgumentException.class, () -> config.validate(Map.of())).getMessage();
        assertTrue(problems.contains("session CLIENT1: resetTime must be HH:MM:SS (UTC), got '7pm'"), problems);
    }

    @Test
    void theExampleCancelsOnDisconnectForOneSessionOnly() throws Exception {
        final GatewayConfig config = example();
        assertTrue(config.sessions().get(0).cancelOnDisconnect().enabled());
        assertEquals(2_000, config.sessions().get(0).cancelOnDisconnect().gracePeriodMillis());
        assertFalse(config.sessions().get(1).cancelOnDisconnect().enabled(), "off by default");
    }

    @Test
    void aGracePeriodThatIsNoDurationOrTooLongIsRefusedByName() {
        final GatewayConfig config = new GatewayConfig()
                .session(new SessionConfig("CLIENT1", "SLUICE", "pw")
                        .cancelOnDisconnect(new CancelOnDisconnectConfig(true, "soon")))
                .session(new SessionConfig("CLIENT2", "SLUICE", "pw")
                        .cancelOnDisconnect(new CancelOnDisconnectConfig(true, "2h")))
                .session(new SessionConfig("CLIENT3", "SLUICE", "pw")
                        .cancelOnDisconnect(new CancelOnDisconnectConfig(true, "-1s")))
                .session(new SessionConfig("CLIENT4", "SLUICE", "pw")
                        .cancelOnDisconnect(new CancelOnDisconnectConfig(true, "2 s")));
        final String problems = assertThrows(IllegalArgumentException.class, () -> config.validate(Map.of())).getMessage();
        assertTrue(problems.contains("session CLIENT1: cancelOnDisconnect.gracePeriod: 'soon' is not a duration such as"
                + " 500ms, 2s or 1m"), problems);
        assertTrue(problems.contains("session CLIENT2: cancelOnDisconnect.gracePeriod: '2h' is not a duration"), problems);
        assertTrue(problems.contains("session CLIENT3: cancelOnDisconnect.gracePeriod must be 0 to 3600 s, got '-1s'"),
                problems);
        assertTrue(problems.contains("session CLIENT4: cancelOnDisconnect.gracePeriod: '2 s' has a space inside"),
                problems);
    }

    @Test
    void cancelOnDisconnectReadsFromYamlWithAnyWayOfWritingTheGracePeriod() throws Exception {
        final GatewayConfig config = loadYaml("""
                !GatewayConfig {
                  gatewayId: 1, journalRoot: data, listen: "tcp://127.0.0.1:0",
                  sessions: [
                    !Session { senderCompId: A, targetCompId: SLUICE, password: pw, cancelOnDisconnect: { enabled: true, gracePeriod: 500ms } },
                    !Session { senderCompId: B, targetCompId: SLUICE, password: pw, cancelOnDisconnect: { enabled: true, gracePeriod: 3 } },
                    !Session { senderCompId: C, targetCompId: SLUICE, password: pw, cancelOnDisconnect: { enabled: true } },
                    !Session { senderCompId: D, targetCompId: SLUICE, password: pw }
                  ]
                }
                """);
        assertEquals(500, config.sessions().get(0).cancelOnDisconnect().gracePeriodMillis());
        assertEquals(3_000, config.sessions().get(1).cancelOnDisconnect().gracePeriodMillis());
        assertTrue(config.sessions().get(2).cancelOnDisconnect().enabled());
        assertEquals(0, config.sessions().get(2).cancelOnDisconnect().gracePeriodMillis(), "at once by default");
        assertFalse(config.sessions().get(3).cancelOnDisconnect().enabled());
    }

    @Test
    void gracePeriodsReadAsPeopleWriteThem() {
        assertEquals(500, new CancelOnDisconnectConfig(true, "500ms").gracePeriodMillis());
        assertEquals(60_000, new CancelOnDisconnectConfig(true, "1m").gracePeriodMillis());
        assertEquals(3_000, new CancelOnDisconnectConfig(true, "3").gracePeriodMillis());
        assertEquals(1_500, new CancelOnDisconnectConfig(true, " 1.5s ").gracePeriodMillis());
        assertEquals(0, new CancelOnDisconnectConfig().gracePeriodMillis());
    }

    private GatewayConfig example() throws Exception {
        return GatewayConfig.load(Path.of(getClass().getResource("/gateway-example.yaml").toURI()), Map.of());
    }

    @Test
    void marketDataReadsFromYamlWithEntitlementsPerSession() throws Exception {
        final GatewayConfig config = loadYaml("""
                !GatewayConfig {
                  gatewayId: 1, journalRoot: data, listen: "tcp://127.0.0.1:0",
                  marketData: { instruments: [ SLC, SLD ], maxOrders: 1000, maxDepth: 20, slowSubscriberTimeout: 2s,
                                writeInterval: 500ms, maxWritesPerSecond: 2000 },
                  sessions: [
                    !Session { senderCompId: A, targetCompId: SLUICE, password: pw, marketData: { symbols: [ SLC ], maxSubscriptions: 3 } },
                    !Session { senderCompId: B, targetCompId: SLUICE, password: pw, marketData: { symbols: [ "*" ] } },
                    !Session { senderCompId: C, targetCompId: SLUICE, password: pw }
                  ]
                }
                """);
        assertEquals(List.of("SLC", "SLD"), config.marketData().instruments());
        assertEquals(1000, config.marketData().maxOrders());
        assertEquals(20, config.marketData().maxDepth());
        assertEquals(100, new GatewayMarketData().maxDepth(), "the default");
        assertEquals(2000, config.marketData().slowSubscriberTimeoutMillis());
        assertEquals(500_000_000L, config.marketData().writeIntervalNanos());
        assertEquals(1_000_000L, new GatewayMarketData().writeIntervalNanos(), "the default");
        assertEquals(2_000, config.marketData().maxWritesPerSecond());
        assertEquals(10_000, new GatewayMarketData().maxWritesPerSecond(), "the default");
        assertEquals(List.of("SLC"), config.sessions().get(0).marketData().symbols());
        assertEquals(3, config.sessions().get(0).marketData().maxSubscriptions());
        assertEquals(16, config.sessions().get(1).marketData().maxSubscriptions(), "the default");
        assertEquals(0, config.sessions().get(2).marketData().maxSubscriptions(), "no entitlement, no subscription");
    }

    @Test
    void marketDataSettingsThatCannotWorkAreRefusedByName() {
        final GatewayConfig without = new GatewayConfig().session(new SessionConfig("A", "SLUICE", "pw")
                .marketData(new MarketDataEntitlement(List.of("SLC"), 4)));
        final String noSection = assertThrows(IllegalArgumentException.class, () -> without.validate(Map.of()))
                .getMessage();
        assertTrue(noSection.contains("session A: marketData needs the gateway's marketData section"), noSection);

        final GatewayConfig config = new GatewayConfig().marketData(new GatewayMarketData(List.of("SLC", "SLC"), "soon"))
                .session(new SessionConfig("A", "SLUICE", "pw").marketData(new MarketDataEntitlement(List.of("XYZ"), 0)));
        final String problems = assertThrows(IllegalArgumentException.class, () -> config.validate(Map.of()))
                .getMessage();
        assertTrue(problems.contains("marketData.instruments: an instrument is listed twice"), problems);
        final GatewayConfig tooDeep = new GatewayConfig().marketData(new GatewayMarketData(List.of("SLC"), "5s")
                .maxDepth(2000));
        final String depth = assertThrows(IllegalArgumentException.class, () -> tooDeep.validate(Map.of())).getMessage();
        assertTrue(depth.contains("marketData.maxDepth must be 1 to maxPriceLevels (1024), got 2000"), depth);
        assertTrue(problems.contains("marketData.slowSubscriberTimeout: 'soon' is not a duration"), problems);
        assertTrue(problems.contains("session A: marketData.maxSubscriptions must be 1 to 256, got 0"), problems);
        assertFalse(problems.contains("writeInterval"), problems);
        assertFalse(problems.contains("maxWritesPerSecond"), problems);

        final GatewayConfig slowWrites = new GatewayConfig().marketData(new GatewayMarketData(List.of("SLC"), "2s")
                .writeInterval("3s").maxWritesPerSecond(0));
        final String tooSlow = assertThrows(IllegalArgumentException.class, () -> slowWrites.validate(Map.of()))
                .getMessage();
        assertTrue(tooSlow.contains("marketData.writeInterval must be from 0ms to the slowSubscriberTimeout, got '3s'"),
                tooSlow);
        assertTrue(tooSlow.contains("marketData.maxWritesPerSecond must be positive, got 0"), tooSlow);
        assertTrue(problems.contains("session A: marketData.symbols names XYZ, which the gateway's marketData.instruments"
                + " does not list"), problems);
    }

    @Test
    void aDropCopySessionReadsFromYamlAndMayCopyAFirmWhoseSessionsAreOnOtherGateways() throws Exception {
        final GatewayConfig config = loadYaml("""
                !GatewayConfig {
                  gatewayId: 1, journalRoot: data, listen: "tcp://127.0.0.1:0",
                  sessions: [
                    !Session { senderCompId: A, targetCompId: SLUICE, password: pw, firm: FIRMA },
                    !Session { senderCompId: BACKA, targetCompId: SLUICE, password: pw, dropCopy: FIRMA },
                    !Session { senderCompId: BACKB, targetCompId: SLUICE, password: pw, dropCopy: FIRMB }
                  ]
                }
                """);
        assertNull(config.sessions().get(0).dropCopy());
        assertEquals("FIRMA", config.sessions().get(1).dropCopy());
        assertEquals("FIRMB", config.sessions().get(2).dropCopy(), "FIRMB trades on other gateways only");
    }

    @Test
    void dropCopySettingsThatCannotWorkAreRefusedByName() {
        final GatewayConfig config = new GatewayConfig()
                .session(new SessionConfig("A", "SLUICE", "pw").dropCopy("NOT A FIRM!"))
                .session(new SessionConfig("B", "SLUICE", "pw").dropCopy("FIRMA").firm("FIRMA"))
                .session(new SessionConfig("C", "SLUICE", "pw").dropCopy("FIRMA")
                        .marketData(new MarketDataEntitlement(List.of("SLC"), 4)))
                .session(new SessionConfig("D", "SLUICE", "pw").dropCopy("FIRMA")
                        .cancelOnDisconnect(new CancelOnDisconnectConfig(true, "1s")));
        final String problems = assertThrows(IllegalArgumentException.class, () -> config.validate(Map.of()))
                .getMessage();
        assertTrue(problems.contains("session A: dropCopy firm 'NOT A FIRM!' must be 1 to 10 characters of letters,"
                + " digits and "), problems);
        assertTrue(problems.contains("session B: a drop-copy session places no orders and has no firm of its own:"
                + " give dropCopy or firm, not both"), problems);
        assertTrue(problems.contains("session C: a drop-copy session receives no market data: give dropCopy or"
                + " marketData, not both"), problems);
        assertTrue(problems.contains("session D: a drop-copy session has no orders to cancel on disconnect: remove"
                + " cancelOnDisconnect"), problems);
    }

    /** @return the gateway config {@code yaml} holds, loaded from a file as the gateway loads it */
    private static GatewayConfig loadYaml(final String yaml) throws Exception {
        final Path file = Files.createTempFile("gateway", ".yaml");
        try {
            Files.writeString(file, yaml);
            return GatewayConfig.load(file, Map.of());
        } finally {
            Files.delete(file);
        }
    }
}
