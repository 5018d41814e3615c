package io.sluice.marketdata.handler;

import io.sluice.engine.load.RecordedEngine;
import io.sluice.marketdata.MarketDataConfig;
import io.sluice.marketdata.derive.MarketDataService;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.load.TwoInstrumentMarketData;
import io.sluice.marketdata.publish.FeedPublisher;
import io.sluice.marketdata.publish.RetransmitServer;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A whole feed in one test thread, every part real: an engine writing its journal ({@link RecordedEngine}), the
 * market-data service, publisher and retransmission service, relays on 127.0.0.1 that lose, repeat or reorder packets
 * as a test says ({@link LossyRelay}: one for incrementals, one for snapshots), and feed handlers added at any time.
 * {@link #pump()} gives every part one turn; nothing runs on other threads, so what happens follows from the script.
 */
final class FeedRig implements AutoCloseable {
    final RecordedEngine engine;
    final MarketDataService service;
    final FeedPublisher publisher;
    final RetransmitServer retransmit;
    final LossyRelay incremental;
    final LossyRelay snapshots;
    final List<FeedHandler> handlers = new ArrayList<>();
    private final MarketDataConfig config;

    FeedRig(final Path root, final long seed, final long heartbeatMillis) throws IOException {
        engine = new RecordedEngine(root, seed);
        incremental = new LossyRelay();
        snapshots = new LossyRelay();
        config = TwoInstrumentMarketData.config(root, address(incremental.address()))
                .snapshot(List.of(address(snapshots.address()))).snapshotIntervalMillis(20)
                .heartbeatIntervalMillis(heartbeatMillis).retransmit("127.0.0.1:0");
        service = new MarketDataService(config);
        publisher = new FeedPublisher(config, service.journal(), SystemNanoClock.INSTANCE);
        retransmit = new RetransmitServer(config.retransmitAddress(), config.sessionBytes(), config.maxRetransmitCount(),
                service.journal());
    }

    /** @return a new handler, listening on ports of its own, fed by the relays from now on */
    FeedHandler join() {
        final FeedHandler handler = new FeedHandler(config.sessionBytes(), config.symbols(), TradingStatus.OPEN, 100_000,
                256, new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0), retransmit.address(),
                null, 4_096, SystemNanoClock.INSTANCE);
        incremental.to(handler.incrementalAddress());
        snapshots.to(handler.snapshotAddress());
        handlers.add(handler);
        return handler;
    }

    /** One turn of every part; @return whether the service found anything new in the engine journal */
    boolean pump() {
        final boolean derived = service.doWork() > 0;
        publisher.doWork();
        retransmit.doWork();
        incremental.pump();
        snapshots.pump();
        for (final FeedHandler handler : handlers) {
            handler.doWork();
        }
        return derived;
    }

    /** Pumps until every handler is live at the service's next sequence (at most 60 s, else the test fails naming where each handler is). */
    void untilCaughtUp() {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (pump() || !caughtUp()) {
            if (System.nanoTime() - deadline > 0) {
                final StringBuilder states = new StringBuilder();
                for (final FeedHandler h : handlers) {
                    states.append(' ').append(h.state()).append(" at ").append(h.expected()).append(" (gaps ")
                            .append(h.gaps()).append(", requests ").append(h.requests()).append(", refusals ")
                            .append(h.refusals()).append(' ').append(h.lastRefusal()).append(')');
                }
                fail("handlers not caught up with sequence " + service.nextSequence() + " in 60 s:" + states);
            }
        }
    }

    private boolean caughtUp() {
        for (final FeedHandler handler : handlers) {
            if (handler.state() != FeedHandler.State.LIVE || handler.expected() != service.nextSequence()) {
                return false;
            }
        }
        return true;
    }

    private static String address(final InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }

    @Override
    public void close() throws IOException {
        for (final FeedHandler handler : handlers) {
            handler.close();
        }
        retransmit.close();
        publisher.close();
        service.close();
        engine.close();
        incremental.close();
        snapshots.close();
    }
}
