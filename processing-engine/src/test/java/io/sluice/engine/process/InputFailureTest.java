package io.sluice.engine.process;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's error policy: an input whose processing throws is never skipped. The engine process stops with
 * {@link EngineMain#EXIT_INPUT_FAILED} and a message naming the gateway journal, the excerpt and the input as YAML;
 * restarted, it stops again on the same input with the same message; an engine without the bug then processes it.
 */
final class InputFailureTest {
    private static final int FAILING_EVENT = 3;

    @TempDir
    Path root;

    @Test
    void anInputThatMakesProcessingThrowStopsTheEngineWithItsOwnCodeNamingJournalIndexAndInput() throws Exception {
        try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1)) {
            gateway.write(5);
        }
        final Path journal = Journals.gatewayJournal(root, 1).toAbsolutePath();
        final long index = indexOfExcerpt(journal, FAILING_EVENT);
        final Path configFile = root.resolve("engine.yaml");
        Files.writeString(configFile, TwoInstrumentMarket.config(root).toString());

        for (int run = 1; run <= 2; run++) {
            try (JavaProcess engine = JavaProcess.start("failing-engine-" + run, root.resolve("failing-" + run + ".log"),
                    List.of("-XX:TieredStopAtLevel=1"), FailingEngineMain.class, configFile.toString(),
                    Integer.toString(FAILING_EVENT))) {
                assertEquals(EngineMain.EXIT_INPUT_FAILED, engine.waitFor(60), engine.logText());
                final String log = engine.logText();
                assertTrue(log.contains("engine: stopped: processing failed on the input at journal " + journal
                        + ", file "), log);
                assertTrue(log.contains("excerpt index 0x" + Long.toHexString(index) + ", byte offset "), log);
                assertTrue(log.contains("planted bug: fails on event id " + FAILING_EVENT), log);
                assertTrue(log.contains("The input:\n!io.sluice.contracts."), log);
                assertTrue(log.contains("eventId: " + FAILING_EVENT), log);
            }
            assertEquals(FAILING_EVENT - 1, EngineJournalContents.read(root).size(),
                    "run " + run + ": the inputs before it answered, it and those after it not");
        }

        try (JavaProcess fixed = JavaProcess.start("engine", root.resolve("engine.log"),
                List.of("-XX:TieredStopAtLevel=1"), EngineMain.class, "--config", configFile.toString())) {
            EngineServiceTest.awaitTrue(() -> EngineJournalContents.read(root).size() == 5, "all 5 inputs answered");
            fixed.stop(30);
        }
    }

    /** @return the index of the {@code n}-th data excerpt (1-based) of {@code journal} */
    private static long indexOfExcerpt(final Path journal, final int n) {
        try (ChronicleQueue queue = Journals.openReadOnly(journal); ExcerptTailer tailer = queue.createTailer()) {
            int seen = 0;
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        throw new AssertionError("journal " + journal + " has fewer than " + n + " excerpts");
                    }
                    if (dc.isData() && ++seen == n) {
                        return dc.index();
                    }
                }
            }
        }
    }
}
