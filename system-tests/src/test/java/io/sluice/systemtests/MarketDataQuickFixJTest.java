package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.runtime.process.PollUntil;
import io.sluice.systemtests.script.ScriptedDeployment;
import io.sluice.tools.admin.AdminMain;
import io.sluice.tools.fix.SluiceDeployment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import quickfix.FieldNotFound;
import quickfix.Group;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.ExecType;
import quickfix.field.LeavesQty;
import quickfix.field.MDEntryPx;
import quickfix.field.MDEntrySize;
import quickfix.field.MDEntryType;
import quickfix.field.MDReqID;
import quickfix.field.MDUpdateAction;
import quickfix.field.MarketDepth;
import quickfix.field.MsgType;
import quickfix.field.NoMDEntries;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.SecurityTradingStatus;
import quickfix.field.Side;
import quickfix.field.SubscriptionRequestType;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.fix44.MarketDataRequest;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelRequest;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;

import static io.sluice.systemtests.FixMessages.SYMBOL;
import static io.sluice.systemtests.FixMessages.buy;
import static io.sluice.systemtests.FixMessages.charField;
import static io.sluice.systemtests.FixMessages.clOrdId;
import static io.sluice.systemtests.FixMessages.now;
import static io.sluice.systemtests.FixMessages.order;
import static io.sluice.systemtests.FixMessages.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FIX market data as QuickFIX/J sees it, through real engine, {@code marketdata} and gateway processes on real
 * journals: a MarketDataRequest answered with a MarketDataSnapshotFullRefresh (W) and a SecurityStatus (f), then the
 * MarketDataIncrementalRefresh (X) of an order coming to rest and of a trade when the subscriber's own order crosses it,
 * RptSeq rising from the snapshot on; an operator's halt and resume as SecurityStatus; an unsubscribe. QuickFIX/J's
 * FIX 4.4 dictionary does not define RptSeq (83) on W, X and f, so the client allows unknown message fields
 * ({@code AllowUnknownMsgFields=Y}), as docs/fix-gateway.md says; it rejects nothing else. And MarketDepth N: after a
 * random flow of orders that rest, cross and are cancelled, QuickFIX/J subscribers of depth 1, 5 and 10 each hold the
 * best N levels of each side of the book the execution reports say rests.
 */
class MarketDataQuickFixJTest {
    private static final String PASSWORD = "pw";
    private static final int RPT_SEQ = 83;
    private static final String DEPTH_SYMBOL = "SLD";
    private static final int[] DEPTHS = {1, 5, 10};
    private static final int STEPS = 240;
    private static final long SEED = 28112026L;

    @TempDir
    static Path dir;
    private static ScriptedDeployment deployment;

    @BeforeAll
    static void start() throws Exception {
        deployment = ScriptedDeployment.startWithMarketData(dir.resolve("sluice"), "slowSubscriberTimeout: 5s", "", """
                    !Session { senderCompId: QMD, targetCompId: SLUICE, password: pw,\
                 marketData: { symbols: [ SLC ], maxSubscriptions: 2 } },
                    !Session { senderCompId: QTR, targetCompId: SLUICE, password: pw },
                    !Session { senderCompId: QD1, targetCompId: SLUICE, password: pw, marketData: { symbols: [ SLD ] } },
                    !Session { senderCompId: QD5, targetCompId: SLUICE, password: pw, marketData: { symbols: [ SLD ] } },
                    !Session { senderCompId: QD10, targetCompId: SLUICE, password: pw, marketData: { symbols: [ SLD ] } },
                    !Session { senderCompId: QBUY, targetCompId: SLUICE, password: pw },
                    !Session { senderCompId: QSELL, targetCompId: SLUICE, password: pw }""");
    }

    @AfterAll
    static void stop() throws Exception {
        if (deployment != null) {
            deployment.close();
        }
    }

    @Test
    void quickFixJGetsTheSnapshotThenTheIncrementalsOfACrossInTheFeedsOrder() throws Exception {
        try (QuickFixJClient md = client("QMD", Map.of("AllowUnknownMsgFields", "Y")).logOn();
             QuickFixJClient trader = client("QTR", Map.of()).logOn()) {
            md.send(subscribe("R1"));
            final Message snapshot = md.await("the snapshot", ofType(MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH));
            assertEquals("R1", snapshot.getString(MDReqID.FIELD));
            assertEquals(SYMBOL, snapshot.getString(Symbol.FIELD));
            assertEquals(0, snapshot.getInt(NoMDEntries.FIELD), "the book is empty");
            final Message open = md.await("the trading status", ofType(MsgType.SECURITY_STATUS));
            assertEquals(SecurityTradingStatus.READY_TO_TRADE,
                    open.getInt(SecurityTradingStatus.FIELD));

            trader.send(order("S1", Side.SELL, 100, 900));
            trader.await("the ack of S1", report("S1", ExecType.NEW));
            final Message rested = md.await("the new offer level", incremental(entry -> is(entry,
                    MDUpdateAction.NEW, MDEntryType.OFFER, "900", "100")));

            md.send(buy("B1", 40, 900)); // from the subscriber's own session: a session never trades with itself
            trader.await("the fill of S1", report("S1", ExecType.TRADE));
            final Message traded = md.await("the trade", incremental(entry -> is(entry,
                    MDUpdateAction.NEW, MDEntryType.TRADE, "900", "40")));
            final List<Group> entries = traded.getGroups(NoMDEntries.FIELD);
            assertEquals(2, entries.size(), "the trade and the offer level it took from: " + traded);
            assertTrue(is(entries.get(1), MDUpdateAction.CHANGE, MDEntryType.OFFER, "900", "60"), traded.toString());

            final long snapshotSeq = snapshot.getInt(RPT_SEQ);
            final long restedSeq = rested.getInt(RPT_SEQ);
            final long tradedSeq = traded.getInt(RPT_SEQ);
            assertTrue(snapshotSeq < restedSeq && restedSeq < tradedSeq,
                    "RptSeq rises in the feed's order: " + snapshotSeq + ", " + restedSeq + ", " + tradedSeq);
            final List<Message> received = md.applicationMessages();
            assertTrue(received.indexOf(snapshot) < received.indexOf(rested)
                    && received.indexOf(rested) < received.indexOf(traded), "W, then the Xs in order");

            assertEquals(AdminMain.EXIT_ACKNOWLEDGED, admin("halt", SYMBOL));
            final Message halted = md.await("the halt", status(SecurityTradingStatus.TRADING_HALT));
            assertEquals(AdminMain.EXIT_ACKNOWLEDGED, admin("resume", SYMBOL));
            md.await("the resume", status(SecurityTradingStatus.READY_TO_TRADE)
                    .and(message -> received.indexOf(message) > received.indexOf(halted)));

            md.send(unsubscribe("R1"));
            md.send(unsubscribe("R1"));
            final Message refused = md.await("the refusal of the second unsubscribe",
                    ofType(MsgType.MARKET_DATA_REQUEST_REJECT));
            assertEquals("Unknown MDReqID: no subscription to end", refused.getString(Text.FIELD));
            assertTrue(md.isLoggedOn(), md.trafficText());
            assertFalse(md.traffic().stream().anyMatch(line -> line.startsWith("-> ") && line.contains("\u000135=3\u0001")),
                    "QuickFIX/J rejected nothing: " + md.trafficText());
        }
    }

    @Test
    void subscribersOfDepthNHoldTheBestNLevelsOfTheBookAfterRandomOrdersCrossesAndCancels() throws Exception {
        final Map<String, String> allowRptSeq = Map.of("AllowUnknownMsgFields", "Y");
        try (QuickFixJClient depth1 = client("QD1", allowRptSeq).logOn();
             QuickFixJClient depth5 = client("QD5", allowRptSeq).logOn();
             QuickFixJClient depth10 = client("QD10", allowRptSeq).logOn();
             QuickFixJClient buyer = client("QBUY", Map.of()).logOn();
             QuickFixJClient seller = client("QSELL", Map.of()).logOn()) {
            final QuickFixJClient[] subscribers = {depth1, depth5, depth10};
            for (int i = 0; i < DEPTHS.length; i++) {
                subscribers[i].send(subscribe("D" + DEPTHS[i], DEPTHS[i], DEPTH_SYMBOL));
                subscribers[i].await("the snapshot", ofType(MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH));
            }
            // A buyer (80 to 104) and a seller (96 to 120; a session never trades with itself) send orders that rest or
            // cross, and cancel orders that may rest; each waits for its answer before the next.
            final Random random = new Random(SEED);
            final Map<String, Character> sides = new HashMap<>();
            final Map<String, Integer> prices = new HashMap<>();
            final List<String> sent = new ArrayList<>();
            for (int step = 0; step < STEPS; step++) {
                if (sent.isEmpty() || random.nextInt(10) < 7) {
                    final boolean buy = random.nextBoolean();
                    final String id = "O" + step;
                    final int price = (buy ? 80 : 96) + random.nextInt(25);
                    final NewOrderSingle order = order(id, buy ? Side.BUY : Side.SELL,
                            1 + random.nextInt(50), price);
                    order.set(new Symbol(DEPTH_SYMBOL));
                    sides.put(id, buy ? Side.BUY : Side.SELL);
                    prices.put(id, price);
                    sent.add(id);
                    (buy ? buyer : seller).send(order);
                    (buy ? buyer : seller).await("the answer to " + id, answerTo(id));
                } else {
                    final String target = sent.get(random.nextInt(sent.size()));
                    final char side = sides.get(target);
                    final String id = "C" + step;
                    (side == Side.BUY ? buyer : seller).send(cancel(id, target, side));
                    (side == Side.BUY ? buyer : seller).await("the answer to " + id, answerTo(id));
                }
            }
            // A cancel of no order, answered after every report the flow caused on that session.
            for (final QuickFixJClient trader : new QuickFixJClient[] {buyer, seller}) {
                trader.send(cancel("END", "NONE", trader == buyer ? Side.BUY : Side.SELL));
                trader.await("the refusal of the last cancel", answerTo("END"));
            }
            final Map<String, Long> leaves = new HashMap<>();
            leaves(buyer.applicationMessages(), leaves);
            leaves(seller.applicationMessages(), leaves);
            for (int i = 0; i < DEPTHS.length; i++) {
                final int depth = DEPTHS[i];
                final QuickFixJClient subscriber = subscribers[i];
                final Map<BigDecimal, BigDecimal> bids = best(leaves, sides, prices, Side.BUY, depth);
                final Map<BigDecimal, BigDecimal> offers = best(leaves, sides, prices, Side.SELL, depth);
                PollUntil.await(() -> {
                    final List<Map<BigDecimal, BigDecimal>> held = book(subscriber.applicationMessages(), depth);
                    return held.get(0).equals(bids) && held.get(1).equals(offers);
                }, Duration.ofSeconds(60), () -> "depth " + depth + " to hold bids " + bids + " and offers " + offers
                        + "; it holds " + book(subscriber.applicationMessages(), depth));
                assertTrue(bids.size() == depth && offers.size() == depth, "the flow left at least " + depth
                        + " levels a side: " + bids + " / " + offers);
                assertFalse(subscriber.traffic().stream().anyMatch(line -> line.startsWith("-> ")
                        && line.contains("\u000135=3\u0001")), "QuickFIX/J rejected nothing: " + subscriber.trafficText());
            }
        }
    }

    /** @return a match for the first answer to {@code clOrdId}: an execution report or a cancel reject */
    private static Predicate<Message> answerTo(final String clOrdId) {
        return message -> (QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)
                || QuickFixJClient.isType(message, MsgType.ORDER_CANCEL_REJECT)) && clOrdId.equals(clOrdId(message));
    }

    private static OrderCancelRequest cancel(final String clOrdId, final String origClOrdId, final char side) {
        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID(origClOrdId), new ClOrdID(clOrdId),
                new Side(side), now());
        cancel.set(new Symbol(DEPTH_SYMBOL));
        cancel.set(new OrderQty(1));
        return cancel;
    }

    /** Puts each order's LeavesQty, as its last execution report gives it, in {@code leaves} (0 once cancelled). */
    private static void leaves(final List<Message> messages, final Map<String, Long> leaves) throws FieldNotFound {
        for (final Message message : messages) {
            if (!QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)) {
                continue;
            }
            if (charField(message, ExecType.FIELD) == ExecType.CANCELED) {
                leaves.put(message.getString(OrigClOrdID.FIELD), 0L);
            } else {
                leaves.put(clOrdId(message), message.getDecimal(LeavesQty.FIELD).longValueExact());
            }
        }
    }

    /** @return the best {@code depth} levels of one side of the orders resting: price to quantity */
    private static Map<BigDecimal, BigDecimal> best(final Map<String, Long> leaves, final Map<String, Character> sides,
                                                    final Map<String, Integer> prices, final char side,
                                                    final int depth) {
        final Comparator<Integer> bestFirst = side == Side.BUY ? Comparator.reverseOrder() : Comparator.naturalOrder();
        final TreeMap<Integer, Long> levels = new TreeMap<>(bestFirst);
        leaves.forEach((id, left) -> {
            if (left > 0 && sides.get(id) == side) {
                levels.merge(prices.get(id), left, Long::sum);
            }
        });
        final Map<BigDecimal, BigDecimal> best = new TreeMap<>();
        for (final Map.Entry<Integer, Long> level : levels.entrySet()) {
            if (best.size() < depth) {
                best.put(BigDecimal.valueOf(level.getKey()).stripTrailingZeros(),
                        BigDecimal.valueOf(level.getValue()).stripTrailingZeros());
            }
        }
        return best;
    }

    /**
     * @return the bids and offers a subscriber holds after its snapshots (W) and incrementals (X) in order, price to
     *         size; fails if an X does not apply to what it holds or leaves it more than {@code depth} levels a side
     */
    private static List<Map<BigDecimal, BigDecimal>> book(final List<Message> messages, final int depth) {
        final Map<BigDecimal, BigDecimal> bids = new TreeMap<>();
        final Map<BigDecimal, BigDecimal> offers = new TreeMap<>();
        try {
            for (final Message message : List.copyOf(messages)) {
                final boolean snapshot = QuickFixJClient.isType(message, MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH);
                if (!snapshot && !QuickFixJClient.isType(message, MsgType.MARKET_DATA_INCREMENTAL_REFRESH)) {
                    continue;
                }
                if (snapshot) {
                    bids.clear();
                    offers.clear();
                }
                for (final Group entry : message.getGroups(NoMDEntries.FIELD)) {
                    final char type = entry.getChar(MDEntryType.FIELD);
                    if (type == MDEntryType.TRADE) {
                        continue;
                    }
                    final Map<BigDecimal, BigDecimal> side = type == MDEntryType.BID ? bids : offers;
                    final BigDecimal price = entry.getDecimal(MDEntryPx.FIELD).stripTrailingZeros();
                    final BigDecimal size = entry.getDecimal(MDEntrySize.FIELD).stripTrailingZeros();
                    final char action = snapshot ? MDUpdateAction.NEW : entry.getChar(MDUpdateAction.FIELD);
                    final boolean applies = switch (action) {
                        case MDUpdateAction.NEW -> side.put(price, size) == null;
                        case MDUpdateAction.CHANGE -> side.replace(price, size) != null;
                        default -> side.remove(price) != null;
                    };
                    assertTrue(applies, "an entry " + action + " at " + price + " that does not apply: " + message);
                }
                assertTrue(bids.size() <= depth && offers.size() <= depth, "more than " + depth + " levels: " + message);
            }
        } catch (final FieldNotFound e) {
            throw new IllegalStateException("a market-data entry without " + e.field, e);
        }
        return List.of(bids, offers);
    }

    private static MarketDataRequest subscribe(final String reqId) {
        return subscribe(reqId, 0, SYMBOL);
    }

    /** @return a subscription to the bids, offers and trades of {@code symbol}, MarketDepth {@code depth} */
    private static MarketDataRequest subscribe(final String reqId, final int depth, final String symbol) {
        final MarketDataRequest request = new MarketDataRequest(new MDReqID(reqId),
                new SubscriptionRequestType(SubscriptionRequestType.SNAPSHOT_UPDATES), new MarketDepth(depth));
        for (final char type : new char[] {MDEntryType.BID, MDEntryType.OFFER, MDEntryType.TRADE}) {
            final MarketDataRequest.NoMDEntryTypes entryType = new MarketDataRequest.NoMDEntryTypes();
            entryType.set(new MDEntryType(type));
            request.addGroup(entryType);
        }
        final MarketDataRequest.NoRelatedSym related = new MarketDataRequest.NoRelatedSym();
        related.set(new Symbol(symbol));
        request.addGroup(related);
        return request;
    }

    private static MarketDataRequest unsubscribe(final String reqId) {
        final MarketDataRequest request = subscribe(reqId);
        request.set(new SubscriptionRequestType(SubscriptionRequestType.DISABLE_PREVIOUS_SNAPSHOT_UPDATE_REQUEST));
        return request;
    }

    private static Predicate<Message> ofType(final String msgType) {
        return message -> QuickFixJClient.isType(message, msgType);
    }

    private static Predicate<Message> status(final int tradingStatus) {
        return message -> QuickFixJClient.isType(message, MsgType.SECURITY_STATUS)
                && tradingStatus == intField(message, SecurityTradingStatus.FIELD);
    }

    /** @return a match for an X with an entry matching {@code entry} */
    private static Predicate<Message> incremental(final Predicate<Group> entry) {
        return message -> QuickFixJClient.isType(message, MsgType.MARKET_DATA_INCREMENTAL_REFRESH)
                && message.getGroups(NoMDEntries.FIELD).stream().anyMatch(entry);
    }

    private static boolean is(final Group entry, final char action, final char type, final String price,
                              final String size) {
        try {
            return entry.getChar(MDUpdateAction.FIELD) == action && entry.getChar(MDEntryType.FIELD) == type
                    && entry.getDecimal(MDEntryPx.FIELD).compareTo(new BigDecimal(price)) == 0
                    && entry.getDecimal(MDEntrySize.FIELD).compareTo(new BigDecimal(size)) == 0;
        } catch (final FieldNotFound e) {
            return false;
        }
    }

    private static int intField(final Message message, final int tag) {
        try {
            return message.getInt(tag);
        } catch (final FieldNotFound e) {
            return -1;
        }
    }

    private static int admin(final String... args) {
        final StringWriter out = new StringWriter();
        final CommandLine command = AdminMain.commandLine();
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(out));
        final String[] all = new String[args.length + 2];
        all[0] = "--root";
        all[1] = deployment.journals().toString();
        System.arraycopy(args, 0, all, 2, args.length);
        final int exit = command.execute(all);
        assertEquals(AdminMain.EXIT_ACKNOWLEDGED, exit, out.toString());
        return exit;
    }

    private static QuickFixJClient client(final String compId, final Map<String, String> settings) throws Exception {
        return new QuickFixJClient(deployment.gateway(), compId, SluiceDeployment.GATEWAY_COMP_ID, PASSWORD,
                dir.resolve("qfj-" + compId), false, settings);
    }
}
