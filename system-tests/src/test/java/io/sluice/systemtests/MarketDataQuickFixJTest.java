package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
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
import quickfix.field.ExecType;
import quickfix.field.MDEntryPx;
import quickfix.field.MDEntrySize;
import quickfix.field.MDEntryType;
import quickfix.field.MDReqID;
import quickfix.field.MDUpdateAction;
import quickfix.field.MarketDepth;
import quickfix.field.MsgType;
import quickfix.field.NoMDEntries;
import quickfix.field.SecurityTradingStatus;
import quickfix.field.Side;
import quickfix.field.SubscriptionRequestType;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.fix44.MarketDataRequest;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.sluice.systemtests.FixMessages.SYMBOL;
import static io.sluice.systemtests.FixMessages.buy;
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
 * ({@code AllowUnknownMsgFields=Y}), as docs/fix-gateway.md says; it rejects nothing else.
 */
class MarketDataQuickFixJTest {
    private static final String PASSWORD = "pw";
    private static final int RPT_SEQ = 83;

    @TempDir
    static Path dir;
    private static ScriptedDeployment deployment;

    @BeforeAll
    static void start() throws Exception {
        deployment = ScriptedDeployment.startWithMarketData(dir.resolve("sluice"), "slowSubscriberTimeout: 5s", "", """
                    !Session { senderCompId: QMD, targetCompId: SLUICE, password: pw,\
                 marketData: { symbols: [ SLC ], maxSubscriptions: 2 } },
                    !Session { senderCompId: QTR, targetCompId: SLUICE, password: pw }""");
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

    private static MarketDataRequest subscribe(final String reqId) {
        final MarketDataRequest request = new MarketDataRequest(new MDReqID(reqId),
                new SubscriptionRequestType(SubscriptionRequestType.SNAPSHOT_UPDATES), new MarketDepth(0));
        for (final char type : new char[] {MDEntryType.BID, MDEntryType.OFFER, MDEntryType.TRADE}) {
            final MarketDataRequest.NoMDEntryTypes entryType = new MarketDataRequest.NoMDEntryTypes();
            entryType.set(new MDEntryType(type));
            request.addGroup(entryType);
        }
        final MarketDataRequest.NoRelatedSym symbol = new MarketDataRequest.NoRelatedSym();
        symbol.set(new Symbol(SYMBOL));
        request.addGroup(symbol);
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
