package io.sluice.gateway;

import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.process.LockHeldException;
import io.sluice.runtime.process.ProcessLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway context's conclusion takes the journals' writer locks in this JVM too, as the gateway process does, and a
 * conclusion that fails part way gives back what it took, so a start after it is not refused by its leftovers.
 */
final class GatewayContextTest {
    private static final int GATEWAY = 1;

    @TempDir
    Path dir;

    @Test
    void aConcludedContextHoldsBothJournalWriterLocksUntilItIsClosed() {
        final Path root = dir.resolve("journals");
        try (GatewayContext context = new GatewayContext().config(config(root, GATEWAY)).conclude()) {
            assertHeld(Journals.gatewayJournal(root, GATEWAY));
            assertHeld(Journals.gatewayDeliveries(root, GATEWAY));
            final LockHeldException refused = assertThrows(LockHeldException.class,
                    () -> new GatewayContext().config(config(root, GATEWAY)).conclude());
            assertTrue(refused.getMessage().contains("is written by gateway 1 pid " + ProcessHandle.current().pid()),
                    refused.getMessage());
        }
        assertFree(Journals.gatewayJournal(root, GATEWAY));
        assertFree(Journals.gatewayDeliveries(root, GATEWAY));
    }

    @Test
    void aConclusionRefusedAfterTakingTheLocksGivesThemBack() {
        final Path root = dir.resolve("journals");
        SessionClaims.claim(config(root, 2)); // gateway 2 serves CLIENT1 already
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new GatewayContext().config(config(root, GATEWAY)).conclude());
        assertTrue(refused.getMessage().contains("gateway 2 of this deployment already serves it"), refused.getMessage());
        assertFree(Journals.gatewayJournal(root, GATEWAY));
        assertFree(Journals.gatewayDeliveries(root, GATEWAY));
    }

    private GatewayConfig config(final Path root, final int gatewayId) {
        return new GatewayConfig().gatewayId(gatewayId).journalRoot(root)
                .listen("unix:" + dir.resolve("gw-" + gatewayId + ".sock"))
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
    }

    private static void assertHeld(final Path journal) {
        assertThrows(LockHeldException.class, () -> ProcessLock.journalWriter(journal, "test").close());
    }

    private static void assertFree(final Path journal) {
        ProcessLock.journalWriter(journal, "test").close();
    }
}
