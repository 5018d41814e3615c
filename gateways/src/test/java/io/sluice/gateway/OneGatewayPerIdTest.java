package io.sluice.gateway;

import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One process per gateway id, enforced by the OS: a second gateway process with the same {@code gatewayId} (a copied
 * config with only {@code listen} changed) is refused at start with exit code 1, naming the journal and the pid of the
 * gateway that writes it, and never listens; once that gateway is killed with {@code kill -9}, the kernel has released
 * its lock and the copy starts. SIGTERM stops a gateway with exit code 0.
 */
final class OneGatewayPerIdTest {
    @TempDir
    Path dir;

    @Test
    void aSecondGatewayWithTheSameIdIsRefusedNamingTheFirstOnesPidAndStartsOnceItIsKilled() throws Exception {
        final OneSessionGateway deployment = new OneSessionGateway(dir);
        final Path copy = dir.resolve("copy.yaml");
        Files.writeString(copy, Files.readString(dir.resolve("gateway.yaml")).replace("gw.sock", "gw-copy.sock"));
        final Path journal = Journals.gatewayJournal(deployment.journals(), 1).toAbsolutePath();

        try (JavaProcess first = deployment.start("first")) {
            try (JavaProcess second = GatewayProcess.start(dir, "second", copy)) {
                await("the second gateway exits or listens", 120,
                        () -> !second.isAlive() || second.logText().contains("listening on"));
                assertEquals(GatewayMain.EXIT_FAILED, second.waitFor(30), second.logText());
                assertTrue(second.logText().contains("gateway 1: cannot start: journal " + journal
                        + " is written by gateway 1 pid " + first.pid() + " (it holds " + journal.resolve("writer.lock")
                        + "): one process writes a journal; stop that one first, or give this gateway a gatewayId of its"
                        + " own"), second.logText());
                assertFalse(second.logText().contains("listening on"), second.logText());
            }
            assertTrue(first.isAlive(), first.logText());

            first.kill9();
            try (JavaProcess third = GatewayProcess.startListening(dir, "third", copy)) {
                assertEquals(0, third.stop(30), third.logText()); // SIGTERM: a clean stop
                assertTrue(third.logText().contains("gateway 1 stopped"), third.logText());
            }
        }
    }
}
