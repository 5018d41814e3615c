package io.sluice.marketdata;

import io.sluice.engine.load.RecordedEngine;
import io.sluice.marketdata.handler.FeedMain;
import io.sluice.marketdata.load.TwoInstrumentMarketData;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The feed over multicast, only inside a network namespace this test creates (its loopback up, multicast on, a route
 * for 224.0.0.0/4): {@code ./sluice marketdata} sends incrementals and snapshots to two groups, and {@code ./sluice
 * feed}, joining them on that loopback, rebuilds the books to the last message with every checksum equal. Skipped,
 * saying why, where namespaces cannot be made (not root, no {@code ip}).
 */
final class MulticastFeedTest {
    private final String namespace = "sluice-md-" + ProcessHandle.current().pid();
    private boolean created;

    @TempDir
    Path dir;

    @AfterEach
    void deleteNamespace() throws Exception {
        if (created) {
            run("ip", "netns", "delete", namespace);
        }
    }

    @Test
    void aFeedHandlerInANamespaceRebuildsTheBooksFromMulticast() throws Exception {
        final String refused = run("ip", "netns", "add", namespace);
        Assumptions.assumeTrue(refused == null, () -> "skipped: cannot create a network namespace here: " + refused);
        created = true;
        for (final String[] step : new String[][] {{"link", "set", "lo", "up"}, {"link", "set", "lo", "multicast", "on"},
                {"route", "add", "224.0.0.0/4", "dev", "lo"}}) {
            final List<String> command = new ArrayList<>(List.of("ip", "-n", namespace));
            command.addAll(List.of(step));
            final String failed = run(command.toArray(String[]::new));
            assertEquals(null, failed, "ip " + String.join(" ", step));
        }
        final Path root = dir.resolve("root");
        try (RecordedEngine engine = new RecordedEngine(root, 71)) {
            engine.trade(3_000, 397);
        }
        final Path reference = RecordedEngine.copyJournal(root, dir.resolve("reference"));
        final long last = EngineBooks.derivedWhole(TwoInstrumentMarketData.config(reference, "127.0.0.1:9")) - 1;
        final Path config = dir.resolve("marketdata.yaml");
        Files.writeString(config, """
                !MarketDataConfig {
                  journalRoot: "%s",
                  instruments: [ VOD.L, BARC.L ],
                  incremental: [ "239.255.71.1:31001" ],
                  snapshot: [ "239.255.71.2:31002" ],
                  multicastInterface: lo,
                  retransmit: "127.0.0.1:31003",
                  snapshotIntervalMillis: 100,
                  checksumEvery: 50
                }
                """.formatted(root));
        final List<String> inNamespace = List.of("ip", "netns", "exec", namespace);
        final String classPath = System.getProperty("java.class.path");
        try (JavaProcess handler = JavaProcess.start("feed", dir.resolve("feed.log"), inNamespace, classPath,
                List.of("-Xmx256m"), FeedMain.class.getName(), "--config", config.toString(), "--interface", "lo",
                "--print-ms", "100");
             JavaProcess marketData = JavaProcess.start("marketdata", dir.resolve("marketdata.log"), inNamespace,
                     classPath, List.of("-Xmx256m"), MarketDataMain.class.getName(), "--config", config.toString())) {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!handler.logText().contains("seq " + last + "  ")) {
                if (System.nanoTime() - deadline > 0 || !handler.isAlive()) {
                    fail("the handler did not reach sequence " + last + ":\n" + handler.logText() + "\nmarketdata:\n"
                            + marketData.logText());
                }
                Thread.onSpinWait();
            }
            handler.stop(10);
            final String log = handler.logText();
            assertTrue(log.contains("feed: LIVE at sequence " + last + ": "), log);
            assertTrue(log.contains(" equal and 0 different"), log);
            assertTrue(!log.contains("differs"), log);
        }
    }

    /** @return null if {@code command} succeeded, else what it printed */
    private static String run(final String... command) throws IOException, InterruptedException {
        try {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return process.waitFor() == 0 ? null : output.strip();
        } catch (final IOException e) {
            return "'" + command[0] + "' cannot be run: " + e.getMessage();
        }
    }
}
