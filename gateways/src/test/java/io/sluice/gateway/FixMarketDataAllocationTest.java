package io.sluice.gateway;

import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.session.FixSession;
import io.sluice.marketdata.load.SyntheticFeed;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The I/O thread allocates nothing per market-data message once warm: a batch appended to the market-data journal,
 * read by the gateway's one reader, applied to its books and sent to a subscriber as a MarketDataIncrementalRefresh
 * (X), counted by HotSpot's per-thread allocation counter over {@value #MEASURED} messages after a warm-up of
 * {@value #WARM_UP} (as {@link GatewayAllocationTest}, whose bound it shares: less than one small object per message).
 * Each message is an add or a delete of a bid ({@link SyntheticFeed}), so the books stay small. The subscriber takes
 * the full book (MarketDepth 0), or the best five levels (5) of a book with five bids resting below the ones added and
 * deleted, so that every message also moves a level out of its five or into them.
 */
class FixMarketDataAllocationTest {
    private static final int MEASURED = 2_000;
    private static final int WARM_UP = 20_000;
    private static final String SYMBOL = "VOD.L";

    @TempDir
    Path root;

    @ParameterizedTest(name = "MarketDepth {0}")
    @ValueSource(ints = {0, 5})
    void theIoThreadAllocatesNothingPerIncrementalSent(final int depth) throws Exception {
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .idle(IdleConfig.of("yield")).marketData(new GatewayMarketData(List.of(SYMBOL), "5s"))
                .session(new SessionConfig("CLIENT1", "SLUICE", "secret1")
                        .marketData(new MarketDataEntitlement(List.of(SYMBOL), 1)));
        try (ChronicleQueue marketData = Journals.open(Journals.marketDataJournal(root));
             RunningGateway gateway = new RunningGateway(config);
             TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 1)) {
            final SyntheticFeed feed = new SyntheticFeed(marketData.createAppender(), SYMBOL, depth);
            // The client only reads for the whole run (tens of seconds on a loaded host): a HeartBtInt longer than that
            // keeps the gateway's TestRequest out of the stream of 35=X it counts.
            client.logon("secret1", FixSession.MAX_HEARTBEAT_SECONDS);
            client.expect("A");
            client.send(MsgTypes.MARKET_DATA_REQUEST, request -> request.textField(FixTags.MD_REQ_ID, "R1")
                    .charField(FixTags.SUBSCRIPTION_REQUEST_TYPE, '1').longField(FixTags.MARKET_DEPTH, depth)
                    .longField(FixTags.NO_MD_ENTRY_TYPES, 1).charField(FixTags.MD_ENTRY_TYPE, '0')
                    .longField(FixTags.NO_RELATED_SYM, 1).textField(FixTags.SYMBOL, SYMBOL));
            assertEquals(depth, client.expect("W").all(FixTags.MD_ENTRY_PX).size(), "the resting bids");
            client.expect("f");
            incrementals(client, feed, WARM_UP);
            final long before = gateway.allocatedBytes();
            incrementals(client, feed, MEASURED);
            final long allocated = gateway.allocatedBytes() - before;
            System.out.println("gateway I/O thread allocated " + allocated + " bytes over " + MEASURED
                    + " market-data messages sent as 35=X at MarketDepth " + depth);
            assertTrue(allocated < 16L * MEASURED, "bytes allocated by the I/O thread over " + MEASURED
                    + " market-data messages: " + allocated);
        }
    }

    private static void incrementals(final TestFixClient client, final SyntheticFeed feed, final int count) throws Exception {
        for (int i = 0; i < count; i++) {
            final long sequence = feed.next();
            assertEquals(Long.toString(sequence), client.expect("X").get(FixTags.RPT_SEQ));
        }
    }
}
