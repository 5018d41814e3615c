package io.sluice.engine.process;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineContext;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.runtime.process.LockHeldException;
import io.sluice.runtime.process.ProcessLock;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An engine's context concludes before its agents are built: it takes the engine journal's writer lock in any JVM, a
 * test's too, recovers with the clock it is given, and a step that fails releases what the earlier ones took.
 */
final class EngineContextTest {
    @TempDir
    Path root;

    @Test
    void aSecondEngineOnTheSameRootInOneJvmIsRefusedByTheJournalsWriterLock() {
        final EngineConfig config = TwoInstrumentMarket.config(root);
        try (EngineService first = EngineService.launch(config)) {
            final LockHeldException e = assertThrows(LockHeldException.class, () -> EngineService.launch(config));
            assertTrue(e.getMessage().contains("journal " + Journals.engineJournal(root).toAbsolutePath()
                    + " is written by engine pid " + ProcessHandle.current().pid()), e.getMessage());
            assertEquals(0, first.recovered());
        }
        EngineService.launch(config).close(); // released when the first closed
    }

    @Test
    void aStepThatFailsAfterTheLockReleasesItAndTheJournals() throws Exception {
        final Path admin = Files.createDirectories(Journals.adminJournal(root));
        Files.setPosixFilePermissions(admin, PosixFilePermissions.fromString("rwxr-xr-x"));
        final EngineContext context = new EngineContext().config(TwoInstrumentMarket.config(root));
        final IllegalStateException e = assertThrows(IllegalStateException.class, context::conclude);
        assertTrue(e.getMessage().contains("admin journal " + admin.toAbsolutePath()), e.getMessage());
        try (ProcessLock lock = ProcessLock.journalWriter(Journals.engineJournal(root), "test")) {
            assertTrue(Files.exists(Journals.engineJournal(root).resolve(ProcessLock.JOURNAL_WRITER_FILE)), lock.toString());
        }
        assertThrows(IllegalStateException.class, context::conclude, "a context concludes once");
    }

    @Test
    void theRecoveryIsTimedWithTheContextsClock() throws Exception {
        try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1)) {
            gateway.write(30);
        }
        final EngineConfig config = TwoInstrumentMarket.config(root);
        try (EngineService service = EngineService.launch(config)) {
            while (service.processed() < 30) {
                service.poll();
            }
        }
        final long[] now = {1_000};
        final NanoClock steps = () -> now[0] += 1_000_000; // every read one millisecond later
        try (EngineService restarted = EngineService.launch(new EngineContext().config(config).nanoClock(steps))) {
            assertEquals(30, restarted.recovered());
            assertEquals(1_000_000, restarted.context().recoveryNanos(), "one read before the re-run, one after");
        }
    }
}
