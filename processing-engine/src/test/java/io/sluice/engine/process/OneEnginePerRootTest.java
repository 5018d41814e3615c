package io.sluice.engine.process;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One engine per journal root, enforced by the OS: a second engine process on the same root is refused at start with
 * exit code 1, naming the engine journal and the pid of the engine that writes it, and writes nothing; once that engine
 * is killed with {@code kill -9}, the kernel has released its lock and a new one starts. SIGTERM stops an engine with
 * exit code 0, as the exit-code table says.
 */
final class OneEnginePerRootTest {
    @TempDir
    Path root;

    @Test
    void aSecondEngineIsRefusedNamingTheFirstOnesPidAndOneStartsOnceItIsKilled() throws Exception {
        try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1)) {
            gateway.write(3);
        }
        final Path configFile = Files.writeString(root.resolve("engine.yaml"), TwoInstrumentMarket.config(root).toString());
        final Path journal = Journals.engineJournal(root).toAbsolutePath();

        try (JavaProcess first = engine("engine-1", configFile)) {
            EngineProcesses.await(() -> EngineJournalContents.read(root).size() == 3, first, "3 answered commands");
            try (JavaProcess second = engine("engine-2", configFile)) {
                assertEquals(EngineMain.EXIT_FAILED, second.waitFor(120), second.logText());
                assertTrue(second.logText().contains("engine: cannot start: journal " + journal + " is written by engine pid "
                        + first.pid() + " (it holds " + journal.resolve("writer.lock") + "): one process writes a journal;"
                        + " stop that one first"), second.logText());
            }
            assertEquals(3, EngineJournalContents.read(root).size(), "nothing written by the refused engine");
            assertTrue(first.isAlive(), first.logText());

            first.kill9();
            try (JavaProcess third = engine("engine-3", configFile)) {
                EngineProcesses.await(() -> third.logText().contains("engine: recovered 3 inputs"), third, "the restart");
                assertEquals(0, third.stop(30), third.logText()); // SIGTERM: a clean stop
                assertTrue(third.logText().contains("engine: stopped"), third.logText());
            }
        }
    }

    private JavaProcess engine(final String name, final Path configFile) throws Exception {
        return JavaProcess.start(name, root.resolve(name + ".log"), List.of("-XX:TieredStopAtLevel=1"), EngineMain.class,
                "--config", configFile.toString());
    }
}
