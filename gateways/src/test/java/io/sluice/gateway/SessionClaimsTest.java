package io.sluice.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deployment's session register on a real directory: a gateway claims its sessions; another gateway with the
 * same CompIDs is refused unless both are the same firm; a gateway's own claims survive its restarts and follow its
 * configuration.
 */
final class SessionClaimsTest {
    @TempDir
    Path root;

    private GatewayConfig gateway(final int id, final SessionConfig... sessions) {
        final GatewayConfig config = new GatewayConfig().gatewayId(id).journalRoot(root);
        for (final SessionConfig session : sessions) {
            config.session(session);
        }
        return config;
    }

    private static SessionConfig session(final String sender, final String target, final String firm) {
        return new SessionConfig(sender, target, "pw").firm(firm);
    }

    private Path claimFile(final int gatewayId, final SessionConfig session) {
        return SessionClaims.claimFile(root.resolve(SessionClaims.DIRECTORY), session, gatewayId);
    }

    @Test
    void aSecondGatewayWithTheSameCompIdsIsRefusedNamingBothGatewaysTheCompIdsTheClaimFileAndTheFix() throws Exception {
        final SessionConfig client1 = session("CLIENT1", "SLUICE", null);
        SessionClaims.claim(gateway(1, client1));

        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SessionClaims.claim(gateway(2, session("CLIENT2", "SLUICE", null), client1)));

        final String message = refused.getMessage();
        assertTrue(message.startsWith("gateway 2 cannot serve FIX session CLIENT1 -> SLUICE"), message);
        assertTrue(message.contains("gateway 1 of this deployment already serves it"), message);
        assertTrue(message.contains(claimFile(1, client1).toAbsolutePath().toString()), message);
        assertTrue(message.contains("set the same 'firm' on this session in both gateways' configs"), message);
        assertTrue(message.contains("rename the session"), message);
        assertFalse(Files.exists(claimFile(2, client1)), "the refused gateway claimed nothing");
        assertFalse(Files.exists(claimFile(2, session("CLIENT2", "SLUICE", null))),
                "not even its sessions that clash with nobody");
    }

    @Test
    void aRestartWithTheSameClaimsWritesNothingSoItStartsOnAFullDiskToo() throws Exception {
        final SessionConfig client1 = session("CLIENT1", "SLUICE", "ACME");
        SessionClaims.claim(gateway(1, client1));
        final Path file = claimFile(1, client1);
        final FileTime written = FileTime.fromMillis(0);
        Files.setLastModifiedTime(file, written);

        SessionClaims.claim(gateway(1, client1));
        assertEquals(written, Files.getLastModifiedTime(file), "an unchanged claim is not rewritten");

        SessionClaims.claim(gateway(1, session("CLIENT1", "SLUICE", "OTHER")));
        assertNotEquals(written, Files.getLastModifiedTime(file), "a changed firm is");
    }

    @Test
    void differentFirmsOrOneFirmOnOneSideOnlyAreRefusedToo() {
        SessionClaims.claim(gateway(1, session("CLIENT1", "SLUICE", "ACME")));
        assertThrows(IllegalArgumentException.class,
                () -> SessionClaims.claim(gateway(2, session("CLIENT1", "SLUICE", "OTHER"))));
        final IllegalArgumentException noFirm = assertThrows(IllegalArgumentException.class,
                () -> SessionClaims.claim(gateway(2, session("CLIENT1", "SLUICE", null))));
        assertTrue(noFirm.getMessage().contains("firm 'ACME'; this gateway's session: firm none"), noFirm.getMessage());
    }

    @Test
    void gatewaysOfOneFirmMayShareCompIdsAndAThirdWithoutTheFirmIsRefused() throws Exception {
        final SessionConfig acme = session("CLIENT1", "SLUICE", "ACME");
        SessionClaims.claim(gateway(1, acme));
        SessionClaims.claim(gateway(2, acme));
        assertTrue(Files.exists(claimFile(1, acme)) && Files.exists(claimFile(2, acme)));

        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SessionClaims.claim(gateway(3, session("CLIENT1", "SLUICE", null))));
        assertTrue(refused.getMessage().contains("gateway 1 of this deployment"), refused.getMessage());
        assertTrue(refused.getMessage().contains("gateway 2 of this deployment"), refused.getMessage());
    }

    @Test
    void theSameSenderCompIdTowardsAnotherTargetCompIdIsAnotherSession() {
        SessionClaims.claim(gateway(1, session("CLIENT1", "SLUICE1", null)));
        SessionClaims.claim(gateway(2, session("CLIENT1", "SLUICE2", null)));
    }

    @Test
    void aGatewayReclaimsItsSessionsOnRestartAndDropsTheClaimsOfSessionsItNoLongerHas() throws Exception {
        final SessionConfig client1 = session("CLIENT1", "SLUICE", null);
        final SessionConfig client2 = session("CLIENT2", "SLUICE", null);
        SessionClaims.claim(gateway(1, client1, client2));
        SessionClaims.claim(gateway(1, client1, client2));

        SessionClaims.claim(gateway(1, client1));
        assertTrue(Files.exists(claimFile(1, client1)));
        assertFalse(Files.exists(claimFile(1, client2)), "CLIENT2 was renamed away: its claim is dropped");
        SessionClaims.claim(gateway(2, client2));
    }

    @Test
    void aRestartedGatewayThatSetsAFirmRecordsIt() throws Exception {
        final SessionConfig plain = session("CLIENT1", "SLUICE", null);
        SessionClaims.claim(gateway(1, plain));
        final SessionConfig acme = session("CLIENT1", "SLUICE", "ACME");
        assertThrows(IllegalArgumentException.class, () -> SessionClaims.claim(gateway(2, acme)));

        SessionClaims.claim(gateway(1, acme));
        SessionClaims.claim(gateway(2, acme));
        assertEquals("""
                # A gateway's claim on this FIX session: see the README, gateway section.
                !SessionClaim {
                  gatewayId: 1,
                  firm: ACME
                }
                """, Files.readString(claimFile(1, acme)));
    }

    @Test
    void anUnreadableClaimIsNamedWithItsFile() throws Exception {
        final SessionConfig client1 = session("CLIENT1", "SLUICE", null);
        final Path other = claimFile(7, client1);
        Files.createDirectories(other.getParent());
        Files.writeString(other, "not a claim {");

        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SessionClaims.claim(gateway(1, client1)));
        assertTrue(refused.getMessage().startsWith("unreadable session claim " + other.toAbsolutePath()),
                refused.getMessage());
    }

    @Test
    void everyCompIdIsADirectoryOfItsOwn() {
        assertEquals("CLIENT-1", SessionClaims.directoryName("CLIENT-1"));
        assertEquals("A%2FB", SessionClaims.directoryName("A/B"));
        assertEquals("%2E.", SessionClaims.directoryName(".."));
        assertEquals("A%25B", SessionClaims.directoryName("A%B"));
        assertNotEquals(SessionClaims.directoryName("A%2FB"), SessionClaims.directoryName("A/B"));
    }
}
