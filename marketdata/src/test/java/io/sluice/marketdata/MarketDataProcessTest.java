package io.sluice.marketdata;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.load.RecordedEngine;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.handler.FeedHandler;
import io.sluice.marketdata.handler.LossyRelay;
import io.sluice.marketdata.journal.SequenceSearch;
import io.sluice.marketdata.load.TwoInstrumentMarketData;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ./sluice marketdata} as a real child process, killed with {@code kill -9} while it derives and started again:
 * it resumes the sequence where its journal ends, so its journal is byte for byte the one a run that never stopped
 * writes (no number used twice, none skipped), and a feed handler that was live before the kill recovers what it
 * missed by retransmission and ends with the engine's books. Incrementals pass a relay that loses the first packet
 * the restarted process sends, so the handler meets a gap whatever the kill caught in flight. A second process on the
 * same root is refused.
 */
final class MarketDataProcessTest {
    @TempDir
    Path dir;

    @Test
    void afterAKill9TheRestartedProcessResumesTheSequenceAndTheHandlerRecovers() throws Exception {
        final Path root = dir.resolve("root");
        final FeedHandler handler = new FeedHandler(TwoInstrumentMarketData.config(root, "127.0.0.1:9").sessionBytes(),
                TwoInstrumentMarketData.config(root, "127.0.0.1:9").symbols(), TradingStatus.OPEN, 100_000, 256,
                new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", freePort()), null, 4_096, SystemNanoClock.INSTANCE);
        final LossyRelay relay = new LossyRelay().to(handler.incrementalAddress());
        final Path config = dir.resolve("marketdata.yaml");
        Files.writeString(config, """
                !MarketDataConfig {
                  journalRoot: "%s",
                  instruments: [ VOD.L, BARC.L ],
                  incremental: [ "127.0.0.1:%d" ],
                  snapshot: [ "127.0.0.1:%d" ],
                  retransmit: "127.0.0.1:%d",
                  snapshotIntervalMillis: 50,
                  checksumEvery: 50,
                  maxOrders: 100000,
                  maxPriceLevels: 256
                }
                """.formatted(root, relay.address().getPort(), handler.snapshotAddress().getPort(),
                handler.retransmitAddress().getPort()));
        try (RecordedEngine engine = new RecordedEngine(root, 41); handler; relay) {
            engine.trade(2_000, 397);
            try (JavaProcess first = start(config, "first")) {
                until(() -> handler.state() == FeedHandler.State.LIVE && handler.expected() > 1_000, handler, relay, first);
                engine.trade(3_000, 397);
                first.kill9();
            }
            final long writtenBeforeKill = nextToWrite(root);
            relay.drop(writtenBeforeKill); // the first number the restarted process publishes never arrives
            engine.trade(1_000, 397);
            // What one run that never stopped derives from the same engine journal, with the same config.
            final Path reference = RecordedEngine.copyJournal(root, dir.resolve("reference"));
            final long expectedNext = EngineBooks.derivedWhole(TwoInstrumentMarketData.config(reference, "127.0.0.1:9"));
            try (JavaProcess second = start(config, "second")) {
                until(() -> nextToWrite(root) == expectedNext && handler.expected() == expectedNext
                        && handler.state() == FeedHandler.State.LIVE, handler, relay, second);
                assertTrue(second.logText().contains("next sequence " + writtenBeforeKill),
                        "resumed at " + writtenBeforeKill + ": " + second.logText());
                assertEquals(0, second.stop(10), second.logText()); // SIGTERM: a clean stop
            }
            final List<byte[]> expected = MarketDataJournalContents.excerpts(reference);
            final List<byte[]> actual = MarketDataJournalContents.excerpts(root);
            assertEquals(expected.size(), actual.size(), "batches");
            for (int i = 0; i < expected.size(); i++) {
                assertArrayEquals(expected.get(i), actual.get(i), "batch " + i);
            }
            EngineBooks.assertSameBooks(engine, handler.books());
            assertTrue(handler.gaps() >= 1 && handler.requests() >= 1, "the handler recovered a gap: " + handler.gaps());
            assertEquals(0, handler.checksumsMismatched());
        }
    }

    @Test
    void aSecondProcessOnTheSameRootIsRefused() throws Exception {
        final Path root = dir.resolve("root");
        final Path config = dir.resolve("marketdata.yaml");
        Files.writeString(config, """
                !MarketDataConfig {
                  journalRoot: "%s",
                  instruments: [ VOD.L, BARC.L ],
                  incremental: [ "127.0.0.1:9" ],
                  retransmit: "127.0.0.1:0"
                }
                """.formatted(root));
        try (RecordedEngine engine = new RecordedEngine(root, 42);
             JavaProcess first = start(config, "first")) {
            engine.trade(10, 397);
            until(() -> first.logText().contains("marketdata: live"), null, null, first);
            try (JavaProcess second = start(config, "second")) {
                assertEquals(1, second.waitFor(60), second.logText());
                assertTrue(second.logText().contains("is written by marketdata pid"), second.logText());
            }
        }
    }

    private JavaProcess start(final Path config, final String name) throws IOException {
        return JavaProcess.start("marketdata", dir.resolve(name + ".log"), List.of("-Xmx256m"), MarketDataMain.class,
                "--config", config.toString());
    }

    private static long nextToWrite(final Path root) {
        if (!Files.exists(Journals.marketDataJournal(root).resolve("metadata.cq4t"))) {
            return 1;
        }
        try (ChronicleQueue journal = Journals.openReadOnly(Journals.marketDataJournal(root));
             SequenceSearch search = new SequenceSearch(journal)) {
            return search.nextToWrite();
        }
    }

    /** Turns the relay and handler (if any) until {@code done}; fails after 60 s or if the process died, naming its log. */
    private static void until(final BooleanSupplier done, final FeedHandler handler, final LossyRelay relay,
                              final JavaProcess process) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0 || !process.isAlive()) {
                fail("not done in 60 s (process alive: " + process.isAlive() + "; handler "
                        + (handler == null ? "-" : handler.state() + " at " + handler.expected()) + "):\n" + process.logText());
            }
            if (relay != null) {
                relay.pump();
            }
            if (handler != null) {
                handler.doWork();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
