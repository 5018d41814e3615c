package io.sluice.tools.tail;

import io.sluice.testkit.LatencyPattern;
import io.sluice.testkit.SyntheticJournals;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./sluice tail}: options in, exit codes out; bad options are refused before anything is read. */
class TailMainTest {
    @TempDir
    static Path dir;
    private static Path root;

    @BeforeAll
    static void writeJournals() {
        root = dir.resolve("journals");
        new SyntheticJournals(2, LatencyPattern.realistic()).write(root, 1, 2_000);
    }

    @Test
    void offlineWithEveryOptionWritesTheLog() throws IOException {
        final Path hlog = dir.resolve("cli.hlog");
        assertEquals(0, run("--root", root.toString(), "--offline", "--interval", "2ms", "--gateway", "1,2",
                "--session", "CLIENT1", "--since", "2026-01-01T00:00:00Z", "--until", "2026-01-02T00:00:00Z",
                "--hlog", hlog.toString(), "--join-window", "1024"));
        assertTrue(Files.size(hlog) > 0);
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertEquals(2, run("--root", root.toString(), "--offline", "--interval", "soon"));
        assertEquals(2, run("--root", root.toString(), "--offline", "--interval", "0s"));
        assertEquals(2, run("--root", root.toString(), "--offline", "--session", "MUCH-TOO-LONG-ID"));
        assertEquals(2, run("--root", root.toString(), "--offline", "--since", "yesterday"));
        assertEquals(2, run("--offline"));
        assertEquals(2, run("--root", root.toString(), "--offline", "--priority", "low"));
    }

    @Test
    void aMissingOrEmptyJournalDirectoryIsAnError() throws IOException {
        assertEquals(1, run("--root", dir.resolve("nowhere").toString(), "--offline"));
        assertEquals(1, run("--root", Files.createDirectories(dir.resolve("empty")).toString(), "--offline"));
        assertEquals(1, run("--root", root.toString(), "--offline", "--join-window", "1000"));
    }

    /** Runs the command with its tables going nowhere (they are tested elsewhere); errors still show. */
    private static int run(final String... args) {
        final PrintStream standardOut = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
        try {
            return new CommandLine(new TailMain()).execute(args);
        } finally {
            System.setOut(standardOut);
        }
    }
}
