package io.sluice.marketdata.handler;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code ./sluice feed} refuses what it cannot do with a message and exit code 2: an unknown symbol, no snapshots. */
final class FeedMainTest {
    @TempDir
    Path dir;

    @Test
    void anUnknownSymbolIsRefusedNamingTheFeedsInstruments() throws Exception {
        assertEquals("feed: unknown symbol NOPE: the feed carries VOD.L, BARC.L", refusal("""
                !io.sluice.marketdata.MarketDataConfig {
                  journalRoot: data, instruments: [ VOD.L, BARC.L ], incremental: [ "127.0.0.1:9" ],
                  snapshot: [ "127.0.0.1:9" ]
                }""", "--symbol", "NOPE"));
    }

    @Test
    void aConfigWithoutSnapshotsIsRefused() throws Exception {
        assertEquals("feed: the config names no snapshot address: a handler cannot join without snapshots", refusal("""
                !io.sluice.marketdata.MarketDataConfig {
                  journalRoot: data, instruments: [ VOD.L ], incremental: [ "127.0.0.1:9" ]
                }"""));
    }

    private String refusal(final String config, final String... options) throws Exception {
        final Path file = dir.resolve("marketdata.yaml");
        Files.writeString(file, config);
        final String[] args = new String[options.length + 2];
        args[0] = "--config";
        args[1] = file.toString();
        System.arraycopy(options, 0, args, 2, options.length);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertEquals(2, new CommandLine(new FeedMain()).execute(args));
        } finally {
            System.setErr(saved);
        }
        return err.toString(StandardCharsets.UTF_8).strip();
    }
}
