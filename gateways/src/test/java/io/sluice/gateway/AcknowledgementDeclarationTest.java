package io.sluice.gateway;

import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.counters.AcknowledgementWaiters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway tells the shipper whether it waits for Kafka's acknowledgements ({@link AcknowledgementWaiters}): in
 * acknowledged mode while it runs, never in asynchronous mode, also when an earlier run in acknowledged mode was killed
 * before it could withdraw. The shipper holds its frames briefly while one waits and batches longer while none does.
 */
class AcknowledgementDeclarationTest {
    private static final int GATEWAY = 3;

    @TempDir
    Path root;

    @Test
    void aGatewayInAcknowledgedModeDeclaresItWhileItRuns() throws Exception {
        try (RunningGateway ignored = new RunningGateway(config(GatewayReplication.ACKNOWLEDGED))) {
            assertTrue(Files.exists(declaration()));
            assertTrue(AcknowledgementWaiters.any(root));
        }
        assertFalse(AcknowledgementWaiters.any(root), "withdrawn when the gateway stopped");
    }

    @Test
    void anAsynchronousGatewayRemovesTheDeclarationAKilledRunLeft() throws Exception {
        AcknowledgementWaiters.declare(root, deliveries());
        try (RunningGateway ignored = new RunningGateway(config(GatewayReplication.NONE))) {
            assertFalse(AcknowledgementWaiters.any(root));
        }
    }

    private GatewayConfig config(final GatewayReplication replication) {
        return new GatewayConfig().gatewayId(GATEWAY).journalRoot(root).listen("tcp://127.0.0.1:0")
                .replication(replication).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
    }

    private Path declaration() {
        return AcknowledgementWaiters.path(root, deliveries());
    }

    private String deliveries() {
        return Journals.gatewayDeliveries(root, GATEWAY).getFileName().toString();
    }
}
