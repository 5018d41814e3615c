package io.sluice.marketdata.load;

import io.sluice.marketdata.feed.AddOrder;
import io.sluice.marketdata.feed.DeleteOrder;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchLayout;
import io.sluice.marketdata.journal.BatchWriter;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * Writes a market-data journal without an engine, for tests and benchmarks of its readers. One instrument opened (with
 * bids resting below the ten prices, if asked for), then one batch of one message at a time, a bid added or the one
 * added last deleted (at ten prices in turn), so every message changes a price level and the book stays small.
 */
public final class SyntheticFeed {
    /** The order ids of the bids resting from the start, clear of those added one by one. */
    private static final long RESTING_IDS = 1L << 40;
    private final ExcerptAppender appender;
    private final BatchWriter batch = new BatchWriter();
    private final AddOrder add = new AddOrder();
    private final DeleteOrder delete = new DeleteOrder();
    private final long symbol;
    private long sequence = 1;
    private long orderId;

    /** Appends the instrument's opening status through {@code appender}. */
    public SyntheticFeed(final ExcerptAppender appender, final String symbol) {
        this(appender, symbol, 0);
    }

    /**
     * Appends the instrument's opening status and {@code restingBids} bids, one a level, at 99.5, 100.5 and up: with
     * five, every bid added or deleted after them moves the lowest in or out of the best five levels.
     */
    public SyntheticFeed(final ExcerptAppender appender, final String symbol, final int restingBids) {
        this.appender = appender;
        this.symbol = ShortTextLongConverter.INSTANCE.parse(symbol);
        final TradingStatus status = new TradingStatus();
        status.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
        batch.commit(status.encode(TradingStatus.OPEN, this.symbol, 0, false));
        for (int i = 0; i < restingBids; i++) {
            add.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
            batch.commit(add.encode(FeedMessage.BUY, this.symbol, 0, RESTING_IDS + i, (995 + 10L * i) * 10_000_000L,
                    10));
        }
        final int count = batch.count();
        batch.appendTo(appender, BatchLayout.NO_ENGINE_INDEX, sequence);
        sequence += count;
    }

    /** @return the sequence the next message will have */
    public long sequence() {
        return sequence;
    }

    /** Appends the next batch; @return its message's sequence */
    public long next() {
        if (orderId % 2 == 0) {
            add.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
            batch.commit(add.encode(FeedMessage.BUY, symbol, 0, ++orderId, (100 + orderId % 10) * 100_000_000L, 10));
        } else {
            delete.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
            batch.commit(delete.encode(FeedMessage.BUY, symbol, 0, orderId++));
        }
        batch.appendTo(appender, sequence, sequence);
        return sequence++;
    }
}
