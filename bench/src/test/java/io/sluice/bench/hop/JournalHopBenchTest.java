package io.sluice.bench.hop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The journal hop benchmark at a tiny size: what it runs, counts and writes, never how fast. */
class JournalHopBenchTest {
    private static final int MESSAGES = 2_000;
    private static final int ROUNDS = 2;

    @TempDir
    Path tmp;

    @Test
    void measuresContractAndRawAtEveryRateForEveryRoundAndWritesJson() throws IOException {
        final JournalHopBench bench = new JournalHopBench();
        final Path journals = tmp.resolve("journals");

        final int exitCode = new CommandLine(bench).execute("--messages", String.valueOf(MESSAGES),
                "--rates", "50000,0", "--rounds", String.valueOf(ROUNDS), "--warmup", "1000", "--settle", "100", "--codec-messages", "1000",
                "--dir", journals.toString(), "--results", tmp.resolve("results").toString());

        assertEquals(0, exitCode);
        final List<HopFigures> figures = bench.figures();
        assertEquals(List.of("contract 50000", "raw 50000", "contract 0", "raw 0"),
                figures.stream().map(f -> f.variant().label() + " " + f.ratePerSecond()).toList());
        for (final HopFigures row : figures) {
            assertEquals(ROUNDS, row.passes().size(), "passes of " + row.variant());
            assertEquals((long) ROUNDS * MESSAGES, row.messages(), "messages of " + row.variant());
            assertEquals((long) ROUNDS * MESSAGES, row.latencyNanos().getTotalCount(), "latencies of " + row.variant());
            assertEquals(0, row.outOfSequence(), "out of sequence in " + row.variant());
            assertTrue(row.excerptBytes() > 0, "excerpt length of " + row.variant());
        }
        final PassResult contract = figures.get(0).passes().getFirst();
        assertTrue(contract.writerImplementation().endsWith("MethodWriter"), contract.writerImplementation());
        assertTrue(contract.readerImplementation().endsWith("MethodReader"), contract.readerImplementation());

        final String json = Files.readString(bench.resultFile());
        assertTrue(json.contains("\"scenario\": \"journal-hop\""), json);
        assertTrue(json.contains("\"variant\": \"contract\""), json);
        assertTrue(json.contains("\"variant\": \"raw\""), json);
        assertTrue(json.contains("\"ratiosContractOverRaw\""), json);
        assertTrue(json.contains("\"singleThreadCpuNanosPerOrder\""), json);
        assertTrue(json.contains("\"count\": " + ROUNDS * MESSAGES), json);
        try (Stream<Path> left = Files.list(journals)) {
            assertFalse(left.findAny().isPresent(), "journals left behind under " + journals);
        }
    }

    @Test
    void refusesANonPositiveMessageCount() {
        final int exitCode = new CommandLine(new JournalHopBench()).execute("--messages", "0", "--dir", tmp.toString());

        assertEquals(CommandLine.ExitCode.USAGE, exitCode);
    }
}
