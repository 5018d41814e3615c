package io.sluice.gateway;

import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.marketdata.MarketDataFanOut;
import io.sluice.gateway.marketdata.MarketDataRequests;
import io.sluice.gateway.marketdata.Subscriptions;
import io.sluice.gateway.session.FixApplication;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.EpochClock;

import java.util.List;

/**
 * The gateway's FIX market data wired from its configuration: one reader of the market-data journal for every
 * subscriber ({@link MarketDataFanOut}, a duty of the gateway's loop, on the thread that owns the sessions), the
 * sessions' subscriptions and entitlements ({@link Subscriptions}), and the MarketDataRequest handler in front of the
 * order path ({@link MarketDataRequests}). The books are caught up with the journal before the gateway listens.
 */
final class FixMarketData {
    private final MarketDataFanOut fanOut;
    private final MarketDataRequests requests;

    private FixMarketData(final MarketDataFanOut fanOut, final MarketDataRequests requests) {
        this.fanOut = fanOut;
        this.requests = requests;
    }

    /** Builds the books from {@code journal} to its end and puts market-data requests in front of {@code orders}. */
    static FixMarketData wire(final GatewayConfig config, final ChronicleQueue journal, final EpochClock clock,
                              final FixApplication orders) {
        final GatewayMarketData settings = config.marketData();
        final List<String> instruments = settings.instruments();
        final List<SessionConfig> sessions = config.sessions();
        final long[] ids = new long[sessions.size()];
        final int[] maxSubscriptions = new int[sessions.size()];
        final boolean[][] entitled = new boolean[sessions.size()][instruments.size()];
        for (int i = 0; i < ids.length; i++) {
            final MarketDataEntitlement entitlement = sessions.get(i).marketData();
            ids[i] = ShortText.parse(sessions.get(i).senderCompId());
            maxSubscriptions[i] = entitlement.maxSubscriptions();
            final boolean every = entitlement.symbols().contains(MarketDataEntitlement.EVERY_SYMBOL);
            for (int j = 0; j < instruments.size(); j++) {
                entitled[i][j] = every || entitlement.symbols().contains(instruments.get(j));
            }
        }
        final Subscriptions subscriptions = new Subscriptions(ids, maxSubscriptions, entitled);
        final MarketDataFanOut fanOut = new MarketDataFanOut(new BatchReader(journal, journal.createTailer()),
                new OrderBooks(settings.symbols(), TradingStatus.OPEN, settings.maxOrders(), settings.maxPriceLevels()),
                subscriptions, clock, config.sendBufferBytes(), config.maxMessageBytes(),
                settings.slowSubscriberTimeoutMillis());
        fanOut.catchUp();
        return new FixMarketData(fanOut, new MarketDataRequests(orders, fanOut, subscriptions, ids.length,
                settings.maxDepth()));
    }

    /** @return the application sessions hand their messages to: market-data requests here, the rest to the orders */
    FixApplication requests() {
        return requests;
    }

    /** Sets the gateway's market-data counters. */
    void sample(final GatewayCounters counters) {
        counters.sampleMarketData(fanOut.lastSequence(), fanOut.conflated(), fanOut.cutOff());
    }

    /** @return work done: market-data batches read, subscriptions brought back */
    int poll() {
        return fanOut.poll();
    }
}
