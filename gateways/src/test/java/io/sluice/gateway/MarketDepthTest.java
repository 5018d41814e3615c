package io.sluice.gateway;

import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.marketdata.feed.AddOrder;
import io.sluice.marketdata.feed.DeleteOrder;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.ModifyOrder;
import io.sluice.marketdata.feed.Trade;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchLayout;
import io.sluice.marketdata.journal.BatchWriter;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * MarketDepth N holds the best N levels of each side: after a random flow of adds, modifies, deletes and trades written
 * to the market-data journal, the book each subscriber built from its snapshot (W) and incrementals (X) equals the best
 * N levels of each side of the book the flow made, for N of 1, 5 and 10 and the full book (0). Every X must apply to
 * the book as the subscriber holds it (a new level is not held yet, a changed or deleted one is), and no side ever
 * holds more than N levels. The gateway's messages are small ({@code maxMessageBytes: 1024}, four levels a side in a
 * W), so depths 5 and 10 also fill their books with incrementals after each W; and one depth-5 subscriber reads
 * nothing until the flow ends, so it is conflated and resnapshotted, and must end with the same book. Three subscribers
 * of each depth and batches of one to three messages make the gateway's fan-out of one message stop for the round
 * partway and resume in the next, in the middle of a batch too: each subscriber must still get every change once.
 */
class MarketDepthTest {
    private static final String SYMBOL = "VOD.L";
    private static final long SCALE = 100_000_000L;
    private static final int EVENTS = 8_000;
    private static final int EVENTS_PER_CHUNK = 100;
    private static final int[] DEPTHS = {0, 1, 5, 10};
    private static final long SEED = 20261128L;
    /** Subscribers of each depth: with the slow one, more than one round of the gateway's loop sends (ten). */
    private static final int COPIES = 3;

    @TempDir
    Path root;

    @Test
    void everyDepthHoldsTheBestLevelsOfTheBookAfterARandomFlow() throws Exception {
        GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .idle(IdleConfig.of("yield")).maxMessageBytes(1024).sendBufferBytes(16 * 1024)
                .socketSendBufferBytes(4096)
                .marketData(new GatewayMarketData(List.of(SYMBOL), "60s").maxDepth(10));
        for (final int depth : DEPTHS) {
            for (int copy = 0; copy < COPIES; copy++) {
                config = config.session(entitled("MD" + depth + "-" + copy));
            }
        }
        config = config.session(entitled("SLOW5"));
        try (ChronicleQueue journal = Journals.open(Journals.marketDataJournal(root));
             RunningGateway gateway = new RunningGateway(config)) {
            final RandomFlow flow = new RandomFlow(journal.createAppender(), new Random(SEED));
            flow.run(EVENTS / 2);
            final List<Subscriber> readers = new ArrayList<>();
            for (final int depth : DEPTHS) {
                for (int copy = 0; copy < COPIES; copy++) {
                    readers.add(new Subscriber(gateway, "MD" + depth + "-" + copy, depth));
                }
            }
            final Subscriber slow = new Subscriber(gateway, "SLOW5", 5);
            try {
                for (int chunk = 0; chunk < EVENTS / 2 / EVENTS_PER_CHUNK; chunk++) {
                    flow.run(EVENTS_PER_CHUNK);
                    final long marker = flow.toggleStatus();
                    for (final Subscriber reader : readers) {
                        reader.readUntilStatus(marker);
                    }
                }
                final long end = flow.toggleStatus();
                for (final Subscriber subscriber : readers) {
                    subscriber.readUntilStatus(end);
                    subscriber.readUntilItHolds(flow, end);
                }
                slow.readUntilStatus(end);
                assertTrue(slow.snapshots > 1, "the slow subscriber was conflated: a fresh W replaced what it missed");
                slow.readUntilItHolds(flow, end);
            } finally {
                for (final Subscriber reader : readers) {
                    reader.client.close();
                }
                slow.client.close();
            }
        }
    }

    private static SessionConfig entitled(final String compId) {
        return new SessionConfig(compId, "SLUICE", "pw").marketData(new MarketDataEntitlement(List.of(SYMBOL), 1));
    }

    /**
     * @return the best {@code depth} levels of a side (all for 0), price to quantity in FIX units
     */
    private static Map<BigDecimal, BigDecimal> best(final NavigableMap<Long, Long> side, final int depth) {
        final Map<BigDecimal, BigDecimal> best = new TreeMap<>();
        for (final Map.Entry<Long, Long> level : side.entrySet()) {
            if (depth > 0 && best.size() == depth) {
                break;
            }
            best.put(BigDecimal.valueOf(level.getKey(), 8).stripTrailingZeros(),
                    BigDecimal.valueOf(level.getValue()));
        }
        return best;
    }

    /** A random flow of feed messages on one instrument, and the book it makes: price to quantity, best first. */
    private static final class RandomFlow {
        private static final int PRICES = 30;
        private final ExcerptAppender appender;
        private final Random random;
        private final BatchWriter batch = new BatchWriter();
        private final AddOrder add = new AddOrder();
        private final ModifyOrder modify = new ModifyOrder();
        private final DeleteOrder delete = new DeleteOrder();
        private final Trade trade = new Trade();
        private final TradingStatus status = new TradingStatus();
        private final long symbol = ShortTextLongConverter.INSTANCE.parse(SYMBOL);
        private final NavigableMap<Long, Long> bids = new TreeMap<>(Comparator.reverseOrder());
        private final NavigableMap<Long, Long> offers = new TreeMap<>();
        private final List<long[]> resting = new ArrayList<>(); // order id, side (1 bid), price, quantity
        private long sequence = 1;
        private long batchFirst = 1;
        private long orderId;
        private boolean halted;

        RandomFlow(final ExcerptAppender appender, final Random random) {
            this.appender = appender;
            this.random = random;
            toggleStatus();
        }

        /** Writes {@code events} random adds (half of them), modifies, deletes and trades. */
        void run(final int events) {
            for (int i = 0; i < events; i++) {
                final int kind = resting.isEmpty() ? 0 : resting.size() > 150 ? 5 + random.nextInt(5) : random.nextInt(10);
                if (kind < 5) {
                    addOne();
                } else {
                    final long[] order = resting.get(random.nextInt(resting.size()));
                    switch (kind) {
                        case 5, 6 -> requantify(order, 0, false);
                        case 7 -> requantify(order, order[3] > 1 ? 1 + random.nextInt((int) order[3] - 1) : 0, false);
                        default -> requantify(order, random.nextInt((int) order[3]), true);
                    }
                }
            }
        }

        /** Halts an open instrument, or opens a halted one; @return the message's sequence */
        long toggleStatus() {
            halted = !halted;
            status.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
            batch.commit(status.encode(halted ? TradingStatus.HALTED : TradingStatus.OPEN, symbol, 0, halted));
            return append(true);
        }

        NavigableMap<Long, Long> side(final boolean bid) {
            return bid ? bids : offers;
        }

        private void addOne() {
            final boolean bid = random.nextBoolean();
            final long price = (bid ? 100 - 1 - random.nextInt(PRICES) : 100 + 1 + random.nextInt(PRICES)) * SCALE / 10;
            final long quantity = 1 + random.nextInt(100);
            add.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
            batch.commit(add.encode(bid ? FeedMessage.BUY : FeedMessage.SELL, symbol, 0, ++orderId, price, quantity));
            resting.add(new long[] {orderId, bid ? 1 : 0, price, quantity});
            side(bid).merge(price, quantity, Long::sum);
            append();
        }

        /** The order's quantity becomes {@code left}: by a trade, a modify, or (0, not traded) a delete. */
        private void requantify(final long[] order, final long left, final boolean traded) {
            final boolean bid = order[1] == 1;
            final byte sideFlag = bid ? FeedMessage.BUY : FeedMessage.SELL;
            if (traded) {
                trade.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                batch.commit(trade.encode(bid ? FeedMessage.SELL : FeedMessage.BUY, symbol, 0, order[0], sequence,
                        order[2], order[3] - left, left));
            } else if (left == 0) {
                delete.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                batch.commit(delete.encode(sideFlag, symbol, 0, order[0]));
            } else {
                modify.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                batch.commit(modify.encode(sideFlag, symbol, 0, order[0], left));
            }
            final long level = side(bid).get(order[2]) - (order[3] - left);
            if (level == 0) {
                side(bid).remove(order[2]);
            } else {
                side(bid).put(order[2], level);
            }
            order[3] = left;
            if (left == 0) {
                resting.remove(order);
            }
            append();
        }

        /** Ends the message just committed; it closes its batch at random, one to three messages long. */
        private long append() {
            return append(random.nextInt(3) == 0);
        }

        /** @return the sequence of the message just committed, appending its batch if {@code last} */
        private long append(final boolean last) {
            final long appended = sequence++;
            if (last) {
                batch.appendTo(appender, batchFirst == 1 ? BatchLayout.NO_ENGINE_INDEX : batchFirst, batchFirst);
                batchFirst = sequence;
            }
            return appended;
        }
    }

    /** A subscriber of one depth to both sides and trades, and the book it built from what it was sent. */
    private static final class Subscriber {
        private final TestFixClient client;
        private final String compId;
        private final int depth;
        private final Map<BigDecimal, BigDecimal> bids = new TreeMap<>();
        private final Map<BigDecimal, BigDecimal> offers = new TreeMap<>();
        private int snapshots;

        Subscriber(final RunningGateway gateway, final String compId, final int depth) throws Exception {
            this.client = new TestFixClient(gateway.address(), compId, 1);
            this.compId = compId;
            this.depth = depth;
            client.logon("pw");
            client.expect("A");
            client.send(MsgTypes.MARKET_DATA_REQUEST, request -> request.textField(FixTags.MD_REQ_ID, compId)
                    .charField(FixTags.SUBSCRIPTION_REQUEST_TYPE, '1').longField(FixTags.MARKET_DEPTH, depth)
                    .longField(FixTags.NO_MD_ENTRY_TYPES, 3).charField(FixTags.MD_ENTRY_TYPE, '0')
                    .charField(FixTags.MD_ENTRY_TYPE, '1').charField(FixTags.MD_ENTRY_TYPE, '2')
                    .longField(FixTags.NO_RELATED_SYM, 1).textField(FixTags.SYMBOL, SYMBOL));
        }

        /**
         * Reads and applies W and X until a SecurityStatus (f) of RptSeq {@code rptSeq} or later (later: the one after
         * a fresh W, if it was behind).
         */
        void readUntilStatus(final long rptSeq) throws Exception {
            while (true) {
                final FixFields message = client.receive();
                if (message.msgType().equals("f") && Long.parseLong(message.get(FixTags.RPT_SEQ)) >= rptSeq) {
                    return;
                }
                apply(message);
            }
        }

        /**
         * Reads and applies the incrementals that fill its book until it holds the best levels of {@code flow}'s book,
         * then proves nothing else was queued for it.
         */
        void readUntilItHolds(final RandomFlow flow, final long rptSeq) throws Exception {
            final Map<BigDecimal, BigDecimal> bestBids = best(flow.side(true), depth);
            final Map<BigDecimal, BigDecimal> bestOffers = best(flow.side(false), depth);
            while (!bids.equals(bestBids) || !offers.equals(bestOffers)) {
                final FixFields message = client.receive();
                assertEquals("X", message.msgType(), compId + ": only incrementals that fill its book follow: " + message);
                assertEquals(rptSeq, Long.parseLong(message.get(FixTags.RPT_SEQ)), compId + ": " + message);
                apply(message);
            }
            client.expectNothingElse();
        }

        private void apply(final FixFields message) {
            switch (message.msgType()) {
                case "W" -> {
                    snapshots++;
                    bids.clear();
                    offers.clear();
                    final List<String> types = message.all(FixTags.MD_ENTRY_TYPE);
                    for (int i = 0; i < types.size(); i++) {
                        if (!types.get(i).equals("2")) {
                            book(types.get(i)).put(new BigDecimal(message.all(FixTags.MD_ENTRY_PX).get(i))
                                    .stripTrailingZeros(), new BigDecimal(message.all(FixTags.MD_ENTRY_SIZE).get(i)));
                        }
                    }
                    assertHeld(message);
                }
                case "X" -> {
                    final List<String> actions = message.all(FixTags.MD_UPDATE_ACTION);
                    final List<String> types = message.all(FixTags.MD_ENTRY_TYPE);
                    for (int i = 0; i < actions.size(); i++) {
                        if (types.get(i).equals("2")) {
                            continue;
                        }
                        final Map<BigDecimal, BigDecimal> book = book(types.get(i));
                        final BigDecimal price = new BigDecimal(message.all(FixTags.MD_ENTRY_PX).get(i))
                                .stripTrailingZeros();
                        final BigDecimal size = new BigDecimal(message.all(FixTags.MD_ENTRY_SIZE).get(i));
                        switch (actions.get(i)) {
                            case "0" -> assertNull(book.put(price, size), compId + ": a new level it held: " + message);
                            case "1" -> assertTrue(book.replace(price, size) != null,
                                    compId + ": a change of a level it did not hold: " + message);
                            case "2" -> assertTrue(book.remove(price) != null,
                                    compId + ": a delete of a level it did not hold: " + message);
                            default -> fail(compId + ": MDUpdateAction " + actions.get(i) + ": " + message);
                        }
                    }
                    assertHeld(message);
                }
                case "f", "0" -> {
                }
                default -> fail(compId + ": unexpected " + message);
            }
        }

        private void assertHeld(final FixFields message) {
            assertFalse(depth > 0 && (bids.size() > depth || offers.size() > depth),
                    compId + " holds more levels than its depth after " + message + ": " + bids + " / " + offers);
        }

        private Map<BigDecimal, BigDecimal> book(final String type) {
            return type.equals("0") ? bids : offers;
        }
    }
}
