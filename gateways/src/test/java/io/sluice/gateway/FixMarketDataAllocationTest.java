package io.sluice.gateway;

import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.codec.ShortText;
import io.sluice.marketdata.feed.AddOrder;
import io.sluice.marketdata.feed.DeleteOrder;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchLayout;
import io.sluice.marketdata.journal.BatchWriter;
import io.sluice.runtime.agent.IdleConfig;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The I/O thread allocates nothing per market-data message once warm: a batch appended to the market-data journal,
 * read by the gateway's one reader, applied to its books and sent to a subscriber as a MarketDataIncrementalRefresh
 * (X), counted by HotSpot's per-thread allocation counter over {@value #MEASURED} messages after a warm-up of
 * {@value #WARM_UP} (as {@link GatewayAllocationTest}, whose bound it shares: less than one small object per message).
 * Each message is an add or a delete of an order at one of ten prices, so the books stay small.
 */
class FixMarketDataAllocationTest {
    private static final int MEASURED = 2_000;
    private static final int WARM_UP = 20_000;
    private static final String SYMBOL = "VOD.L";

    @TempDir
    Path root;

    @Test
    void theIoThreadAllocatesNothingPerIncrementalSent() throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .idle(IdleConfig.of("yield")).marketData(new GatewayMarketData(List.of(SYMBOL), "5s"))
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1")
                        .marketData(new MarketDataEntitlement(List.of(SYMBOL), 1)));
        try (ChronicleQueue marketData = Journals.open(Journals.marketDataJournal(root));
             RunningGateway gateway = new RunningGateway(config);
             TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            final Feed feed = new Feed(marketData.createAppender());
            client.logon("secret1");
            client.expect("A");
            client.send(MsgTypes.MARKET_DATA_REQUEST, request -> request.textField(FixTags.MD_REQ_ID, "R1")
                    .charField(FixTags.SUBSCRIPTION_REQUEST_TYPE, '1').longField(FixTags.MARKET_DEPTH, 0)
                    .longField(FixTags.NO_MD_ENTRY_TYPES, 1).charField(FixTags.MD_ENTRY_TYPE, '0')
                    .longField(FixTags.NO_RELATED_SYM, 1).textField(FixTags.SYMBOL, SYMBOL));
            client.expect("W");
            client.expect("f");
            incrementals(client, feed, WARM_UP);
            final long before = gateway.allocatedBytes();
            incrementals(client, feed, MEASURED);
            final long allocated = gateway.allocatedBytes() - before;
            System.out.println("gateway I/O thread allocated " + allocated + " bytes over " + MEASURED
                    + " market-data messages sent as 35=X");
            assertTrue(allocated < 16L * MEASURED, "bytes allocated by the I/O thread over " + MEASURED
                    + " market-data messages: " + allocated);
        }
    }

    private static void incrementals(final TestFixClient client, final Feed feed, final int count) throws Exception {
        for (int i = 0; i < count; i++) {
            final long sequence = feed.next();
            assertEquals(Long.toString(sequence), client.expect("X").get(FixTags.RPT_SEQ));
        }
    }

    /** Writes the market-data journal as {@code marketdata} does: a status first, then an add or a delete a batch. */
    private static final class Feed {
        private final ExcerptAppender appender;
        private final BatchWriter batch = new BatchWriter();
        private final AddOrder add = new AddOrder();
        private final DeleteOrder delete = new DeleteOrder();
        private final TradingStatus status = new TradingStatus();
        private final long symbol = ShortText.parse(SYMBOL);
        private long sequence = 1;
        private long orderId;

        Feed(final ExcerptAppender appender) {
            this.appender = appender;
            status.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
            batch.commit(status.encode(TradingStatus.OPEN, symbol, 0, false));
            batch.appendTo(appender, BatchLayout.NO_ENGINE_INDEX, sequence++);
        }

        /** Appends the next batch of one message, a bid added or the last one deleted; @return its sequence */
        long next() {
            if (orderId % 2 == 0) {
                add.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                batch.commit(add.encode(FeedMessage.BUY, symbol, 0, ++orderId, (100 + orderId % 10) * 100_000_000L,
                        10));
            } else {
                delete.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                batch.commit(delete.encode(FeedMessage.BUY, symbol, 0, orderId++));
            }
            batch.appendTo(appender, sequence, sequence);
            return sequence++;
        }
    }
}
