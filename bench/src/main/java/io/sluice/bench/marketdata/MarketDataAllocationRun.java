package io.sluice.bench.marketdata;

import com.sun.management.ThreadMXBean;
import io.sluice.engine.load.RecordedEngine;
import io.sluice.marketdata.MarketDataConfig;
import io.sluice.marketdata.derive.MarketDataService;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.handler.FeedHandler;
import io.sluice.marketdata.load.TwoInstrumentMarketData;
import io.sluice.marketdata.publish.FeedPublisher;
import io.sluice.marketdata.publish.RetransmitServer;
import org.agrona.concurrent.SystemNanoClock;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the market-data process's agents and a feed handler allocate per feed message in steady state, on one thread
 * that turns them all. The agents are the service, publisher and retransmission service: {@code MarketDataAllocationRun
 * <dir> <commands per stretch>}, meant for a JVM under Epsilon GC. A real engine writes the engine journal on the same
 * thread between the
 * measured turns, its allocation left out. After a warm-up, two stretches are measured (the thread's allocated bytes,
 * read around the agents' turns only); it prints one line per stretch and exits 0, the gate deciding.
 */
public final class MarketDataAllocationRun {
    /** The line each stretch prints starts with this. */
    public static final String STRETCH = "stretch: ";

    private MarketDataAllocationRun() {
    }

    public static void main(final String[] args) throws Exception {
        final Path root = Files.createDirectories(Path.of(args[0]));
        final long perStretch = Long.parseLong(args[1]);
        final ThreadMXBean threads =
                (ThreadMXBean) ManagementFactory.getThreadMXBean();
        final MarketDataConfig base = TwoInstrumentMarketData.config(root, "127.0.0.1:9");
        try (RecordedEngine engine = new RecordedEngine(root, 51);
             FeedHandler handler = new FeedHandler(base.sessionBytes(), base.symbols(), TradingStatus.OPEN, 200_000, 256,
                     new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0),
                     new InetSocketAddress("127.0.0.1", 9), null, 1_024, SystemNanoClock.INSTANCE)) {
            final MarketDataConfig config = base.incremental(List.of("127.0.0.1:" + handler.incrementalAddress().getPort()))
                    .snapshot(List.of("127.0.0.1:" + handler.snapshotAddress().getPort())).snapshotIntervalMillis(3_600_000)
                    .retransmit("127.0.0.1:0");
            try (MarketDataService service = new MarketDataService(config);
                 FeedPublisher publisher = new FeedPublisher(config, service.journal(), SystemNanoClock.INSTANCE);
                 RetransmitServer retransmit = new RetransmitServer(config.retransmitAddress(), config.sessionBytes(),
                         config.maxRetransmitCount(), service.journal())) {
                final Turns turns = new Turns(service, publisher, retransmit, handler, threads);
                turns.run(engine, perStretch); // warm-up
                for (int stretch = 1; stretch <= 2; stretch++) {
                    final long messagesBefore = handler.applied();
                    final long bytes = turns.run(engine, perStretch);
                    final long messages = handler.applied() - messagesBefore;
                    System.out.printf(Locale.ROOT, STRETCH + "%d: %d bytes over %d messages (%.4f bytes/message),"
                                    + " handler %s at %d, gaps %d, checksums %d equal and %d different%n", stretch, bytes,
                            messages, bytes / (double) messages, handler.state(), handler.expected(), handler.gaps(),
                            handler.checksumsMatched(), handler.checksumsMismatched());
                }
            }
        }
    }

    /** The agents' turns on this thread, their allocation counted, until the handler has every message. */
    private record Turns(MarketDataService service, FeedPublisher publisher, RetransmitServer retransmit,
                         FeedHandler handler, ThreadMXBean threads) {
        long run(final RecordedEngine engine, final long commands) {
            long bytes = 0;
            for (long done = 0; done < commands; done += 100) {
                engine.trade(100, 997);
                boolean derived = true;
                while (derived || handler.state() != FeedHandler.State.LIVE
                        || handler.expected() != service.nextSequence()) {
                    final long before = threads.getCurrentThreadAllocatedBytes();
                    derived = service.doWork() > 0;
                    publisher.doWork();
                    retransmit.doWork();
                    handler.doWork();
                    bytes += threads.getCurrentThreadAllocatedBytes() - before;
                }
            }
            return bytes;
        }
    }
}
