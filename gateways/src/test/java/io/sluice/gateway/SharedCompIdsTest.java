package io.sluice.gateway;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.fix.TestFixClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two gateway processes of one deployment (one journal root, separate configs) that configure the same CompIDs:
 * the second is refused at start with a message that says what clashes and how to fix it, unless both sessions
 * are configured as one firm, whose orders then carry that firm.
 */
class SharedCompIdsTest {
    @TempDir
    Path dir;

    private Path config(final int id, final String firm) throws Exception {
        final String firmField = firm == null ? "" : ", firm: " + firm;
        return Files.writeString(dir.resolve("gateway-" + id + ".yaml"), """
                !GatewayConfig {
                  gatewayId: %d,
                  journalRoot: "%s",
                  listen: "unix:%s",
                  sessions: [ !Session { senderCompId: CLIENT1, targetCompId: SLUICE, password: secret%d%s } ]
                }
                """.formatted(id, dir.resolve("journals"), socket(id), id, firmField));
    }

    private Path socket(final int id) {
        return dir.resolve("gateway-" + id + ".sock");
    }

    private JavaProcess start(final int id, final Path config) throws Exception {
        return GatewayProcess.start(dir, "gateway-" + id, config);
    }

    @Test
    void aSecondGatewayWithTheSameCompIdsAndNoFirmIsRefusedWithANonZeroExitAndAMessage() throws Exception {
        try (JavaProcess first = start(1, config(1, null))) {
            GatewayProcess.awaitListening(first);
            try (JavaProcess second = start(2, config(2, null))) {
                final int exit = second.waitFor(120);
                final String log = second.logText();
                assertNotEquals(0, exit, log);
                final Path claim = dir.resolve("journals/sessions/CLIENT1/SLUICE/gateway-1.yaml").toAbsolutePath();
                assertTrue(log.contains("gateway 2: cannot start: gateway 2 cannot serve FIX session CLIENT1 -> SLUICE"),
                        log);
                assertTrue(log.contains("gateway 1 of this deployment already serves it (claim file " + claim), log);
                assertTrue(log.contains("set the same 'firm' on this session in both gateways' configs, or rename"), log);
                assertFalse(Files.exists(socket(2)), "the refused gateway never listened");
                assertFalse(Files.exists(dir.resolve("journals/gateway-2/metadata.cq4t")), "nor opened a journal");
            }
            assertTrue(first.isAlive(), "the first gateway goes on: " + first.logText());
        }
    }

    @Test
    void gatewaysOfOneFirmShareCompIdsAndEveryOrderCarriesTheFirm() throws Exception {
        try (JavaProcess first = start(1, config(1, "ACME"));
             JavaProcess second = start(2, config(2, "ACME"))) {
            GatewayProcess.awaitListening(first);
            GatewayProcess.awaitListening(second);
            try (TestFixClient client = new TestFixClient(UnixDomainSocketAddress.of(socket(2)), "CLIENT1", 1)) {
                client.logon("secret2");
                client.expect("A");
                client.newOrder("ORD-1", "VOD.L", '1', 100, "101.25");
                await("the order is a command of gateway 2",
                        () -> JournalProbe.commands(dir.resolve("journals"), 2).size() == 1);
            }
            final String command = JournalProbe.commands(dir.resolve("journals"), 2).getFirst();
            assertTrue(command.contains("session: CLIENT1") && command.contains("firm: ACME"), command);
        }
    }
}
