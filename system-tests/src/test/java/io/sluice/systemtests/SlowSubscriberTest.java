package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.process.PollUntil;
import io.sluice.systemtests.script.ScriptedDeployment;
import io.sluice.testkit.fix.FixScript;
import io.sluice.tools.fix.SluiceDeployment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
import quickfix.field.Side;
import quickfix.field.SubscriptionRequestType;
import quickfix.field.Symbol;
import quickfix.fix44.MarketDataRequest;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.sluice.systemtests.FixMessages.SYMBOL;
import static io.sluice.systemtests.FixMessages.order;
import static io.sluice.systemtests.FixMessages.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slow market-data subscribers over real sockets, through real engine, {@code marketdata} and gateway processes: two
 * raw clients with small socket receive buffers subscribe to a book and stop reading while another session rests
 * {@value #ORDERS} orders. The trader gets every report and a fast QuickFIX/J subscriber every level, unhindered; the
 * subscriber that reads again once the flood is over gets a fresh snapshot (W) in place of the incrementals its socket
 * could not take (conflation), and, as the {@value #LEVELS} levels do not fit one W, incrementals that add the deeper
 * ones until it holds the same book as the fast one; the one that never reads is logged out after {@code slowSubscriberTimeout} with a
 * Logout saying why. The gateway's send buffer is small ({@code sendBufferBytes: 32768}) so that the sockets fill.
 */
class SlowSubscriberTest {
    private static final String PASSWORD = "pw";
    private static final int ORDERS = 1_500;
    private static final int LEVELS = 400;
    private static final int LOWEST = 500;
    private static final Duration WAIT = Duration.ofSeconds(90);
    /**
     * Long enough that the conflated subscriber, read only once the fast one holds the last level, is still within it
     * on a loaded host (at 10 s it was logged out instead, at load 21 with two busy loops beside the test).
     */
    private static final String TIMEOUT = "45s";

    @TempDir
    static Path dir;
    private static ScriptedDeployment deployment;

    @BeforeAll
    static void start() throws Exception {
        final String entitled = ", marketData: { symbols: [ SLC ], maxSubscriptions: 1 }";
        deployment = ScriptedDeployment.startWithMarketData(dir.resolve("sluice"), "slowSubscriberTimeout: " + TIMEOUT,
                "sendBufferBytes: 32768, socketSendBufferBytes: 8192, logoutTimeoutMillis: 30000,", String.join(",\n",
                        session("TRADER", ""), session("FAST", entitled), session("CONFL", entitled),
                        session("SLOW", entitled)));
    }

    @AfterAll
    static void stop() throws Exception {
        if (deployment != null) {
            deployment.close();
        }
    }

    @Test
    void aSlowSubscriberIsConflatedOrCutOffAndNeverHoldsUpTheOrdersOrAFastSubscriber() throws Exception {
        try (RawSubscriber conflated = RawSubscriber.subscribe("CONFL");
             RawSubscriber slow = RawSubscriber.subscribe("SLOW");
             QuickFixJClient fast = client("FAST", Map.of("AllowUnknownMsgFields", "Y")).logOn();
             QuickFixJClient trader = client("TRADER", Map.of()).logOn()) {
            fast.send(subscribe("F1"));
            fast.await("the fast subscriber's snapshot", message -> QuickFixJClient.isType(message,
                    MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH));

            for (int i = 0; i < ORDERS; i++) {
                trader.send(order("S" + i, Side.SELL, 10, LOWEST + i % LEVELS));
            }
            trader.await("the last ack", report("S" + (ORDERS - 1), ExecType.NEW));
            assertEquals(ORDERS, trader.applicationMessages().stream()
                    .filter(message -> QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)).count());
            // The fast subscriber ends holding the last level: the last order joins the level of LOWEST + 299 as its
            // fourth, 40 in all. Under load it may itself have been conflated, a W in place of some X: what it holds
            // is checked (its W and X applied in order), not which message brought it.
            final long lastPrice = LOWEST + (ORDERS - 1) % LEVELS;
            final long lastSize = 10L * (ORDERS / LEVELS + 1);
            PollUntil.await(() -> Long.valueOf(lastSize).equals(offerBook(fast.applicationMessages()).get(lastPrice)),
                    WAIT,
                    () -> "the fast subscriber's book to hold " + lastSize + " at " + lastPrice + "; it holds "
                            + offerBook(fast.applicationMessages()));
            final Map<Long, Long> held = offerBook(fast.applicationMessages());
            for (final Map.Entry<Long, Long> level : held.entrySet()) {
                final long index = level.getKey() - LOWEST;
                assertEquals(10L * (ORDERS / LEVELS + (index < ORDERS % LEVELS ? 1 : 0)), level.getValue(),
                        "the fast subscriber's level " + level.getKey());
            }
            final long lastSeq = lastRptSeq(fast.applicationMessages());
            PollUntil.await(() -> counter("sluice_gateway_market_data_conflated_total") > 0, WAIT,
                    () -> "incrementals conflated; " + deployment.gatewayLog());

            // The conflated subscriber's fresh W holds the best levels that fit one message; incrementals that add
            // the deeper ones follow, so it too ends holding all 400 levels.
            final RawSubscriber.Received caughtUp = conflated.readUntilSnapshotFrom(lastSeq);
            assertTrue(caughtUp.incrementals() < ORDERS, "incrementals were dropped: " + caughtUp.incrementals());
            assertTrue(caughtUp.snapshotEntries() > 0 && caughtUp.snapshotEntries() < LEVELS,
                    "the snapshot holds the best levels that fit: " + caughtUp);
            assertEquals(held, conflated.readUntilBookHolds(LEVELS), "the conflated subscriber's book, W and X");

            PollUntil.await(() -> counter("sluice_gateway_market_data_cut_off_total") > 0, WAIT,
                    () -> "the slow subscriber to be logged out; " + deployment.gatewayLog());
            assertEquals("Market data not read fast enough: behind for more than 45000 ms; logging out",
                    slow.readUntilLogout());

            trader.send(order("LAST", Side.SELL, 10, 999));
            trader.await("an ack after it all", report("LAST", ExecType.NEW));
            assertTrue(trader.isLoggedOn() && fast.isLoggedOn(), fast.trafficText());
            assertEquals(1, counter("sluice_gateway_market_data_cut_off_total"), "only the one that never read");
        }
    }

    /** @return the offer book a subscriber holds after its snapshots (W) and incrementals (X) in order: price, size */
    private static Map<Long, Long> offerBook(final List<Message> messages) {
        final Map<Long, Long> book = new TreeMap<>();
        try {
            for (final Message message : messages) {
                final boolean snapshot = QuickFixJClient.isType(message, MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH);
                if (!snapshot && !QuickFixJClient.isType(message, MsgType.MARKET_DATA_INCREMENTAL_REFRESH)) {
                    continue;
                }
                if (snapshot) {
                    book.clear();
                }
                for (final Group entry : message.getGroups(NoMDEntries.FIELD)) {
                    if (entry.getChar(MDEntryType.FIELD) != MDEntryType.OFFER) {
                        continue;
                    }
                    final long price = entry.getDecimal(MDEntryPx.FIELD).longValueExact();
                    if (!snapshot && entry.getChar(MDUpdateAction.FIELD) == MDUpdateAction.DELETE) {
                        book.remove(price);
                    } else {
                        book.put(price, entry.getDecimal(MDEntrySize.FIELD).longValueExact());
                    }
                }
            }
        } catch (final FieldNotFound e) {
            throw new IllegalStateException("a market-data entry without " + e.field, e);
        }
        return book;
    }

    /** @return the highest RptSeq of the subscriber's W and X */
    private static long lastRptSeq(final List<Message> messages) throws FieldNotFound {
        long last = 0;
        for (final Message message : messages) {
            if (QuickFixJClient.isType(message, MsgType.MARKET_DATA_SNAPSHOT_FULL_REFRESH)
                    || QuickFixJClient.isType(message, MsgType.MARKET_DATA_INCREMENTAL_REFRESH)) {
                last = Math.max(last, message.getInt(83));
            }
        }
        return last;
    }

    private static long counter(final String metric) {
        return new CountersDirectory(deployment.journals()).read().stream()
                .filter(process -> process.process().equals("gateway-1"))
                .flatMap(process -> process.counters().stream())
                .filter(counter -> counter.label().metric().equals(metric))
                .mapToLong(CountersDirectory.Counter::value).sum();
    }

    private static String session(final String compId, final String settings) {
        return "    !Session { senderCompId: %s, targetCompId: SLUICE, password: %s%s }".formatted(compId, PASSWORD,
                settings);
    }

    private static MarketDataRequest subscribe(final String reqId) {
        final MarketDataRequest request = new MarketDataRequest(new MDReqID(reqId),
                new SubscriptionRequestType(SubscriptionRequestType.SNAPSHOT_UPDATES), new MarketDepth(0));
        final MarketDataRequest.NoMDEntryTypes offers = new MarketDataRequest.NoMDEntryTypes();
        offers.set(new MDEntryType(MDEntryType.OFFER));
        request.addGroup(offers);
        final MarketDataRequest.NoRelatedSym symbol = new MarketDataRequest.NoRelatedSym();
        symbol.set(new Symbol(SYMBOL));
        request.addGroup(symbol);
        return request;
    }

    private static QuickFixJClient client(final String compId, final Map<String, String> settings) throws Exception {
        return new QuickFixJClient(deployment.gateway(), compId, SluiceDeployment.GATEWAY_COMP_ID, PASSWORD,
                dir.resolve("qfj-" + compId), false, settings);
    }

    /** A subscriber on a plain socket with a 4 KB receive buffer, which reads only when the test says so. */
    private static final class RawSubscriber implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final StringBuilder pending = new StringBuilder();
        private final Map<Long, Long> offers = new TreeMap<>();

        private RawSubscriber(final Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
        }

        /** Logs on as {@code compId}, subscribes to the offers of the book and reads its snapshot and status. */
        static RawSubscriber subscribe(final String compId) throws IOException {
            final Socket socket = new Socket();
            socket.setReceiveBufferSize(4096);
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.connect(new InetSocketAddress(deployment.gateway().host(), deployment.gateway().port()));
            final RawSubscriber subscriber = new RawSubscriber(socket);
            subscriber.send("8=FIX.4.4|35=A|34=1|49=" + compId + "|56=SLUICE|52=<NOW>|98=0|108=30|554=" + PASSWORD + "|");
            subscriber.expect("A");
            subscriber.send("8=FIX.4.4|35=V|34=2|49=" + compId + "|56=SLUICE|52=<NOW>|262=" + compId
                    + "|263=1|264=0|267=1|269=1|146=1|55=" + SYMBOL + "|");
            subscriber.expect("W");
            subscriber.expect("f");
            return subscriber;
        }

        /** What a subscriber read up to its snapshot. */
        record Received(int incrementals, int snapshotEntries) {
        }

        /** Reads until a snapshot (W) of RptSeq {@code rptSeq} or later; @return what came before, and its size */
        Received readUntilSnapshotFrom(final long rptSeq) throws IOException {
            int incrementals = 0;
            while (true) {
                final List<String[]> message = next();
                final String type = last(message, 35);
                if ("X".equals(type)) {
                    incrementals++;
                } else if ("W".equals(type) && Long.parseLong(last(message, 83)) >= rptSeq) {
                    apply(message, true);
                    return new Received(incrementals, Integer.parseInt(last(message, 268)));
                }
            }
        }

        /** Reads incrementals (X), applying them after the last snapshot, until it holds {@code levels} offers. */
        Map<Long, Long> readUntilBookHolds(final int levels) throws IOException {
            while (offers.size() < levels) {
                final List<String[]> message = next();
                if ("X".equals(last(message, 35))) {
                    apply(message, false);
                }
            }
            return offers;
        }

        /** Applies a W (after clearing the book) or an X: its offer entries, 279=2 deleting a level. */
        private void apply(final List<String[]> message, final boolean snapshot) {
            if (snapshot) {
                offers.clear();
            }
            final String firstTag = snapshot ? "269" : "279";
            final String[] entry = new String[4]; // 279, 269, 270, 271
            for (final String[] field : message) {
                if (field[0].equals(firstTag)) {
                    applyEntry(entry);
                    Arrays.fill(entry, null);
                }
                switch (field[0]) {
                    case "279" -> entry[0] = field[1];
                    case "269" -> entry[1] = field[1];
                    case "270" -> entry[2] = field[1];
                    case "271" -> entry[3] = field[1];
                    default -> {
                    }
                }
            }
            applyEntry(entry);
        }

        private void applyEntry(final String[] entry) {
            if (!"1".equals(entry[1])) {
                return;
            }
            if ("2".equals(entry[0])) {
                offers.remove(Long.parseLong(entry[2]));
            } else {
                offers.put(Long.parseLong(entry[2]), Long.parseLong(entry[3]));
            }
        }

        /** Reads until a Logout; @return its Text */
        String readUntilLogout() throws IOException {
            while (true) {
                final List<String[]> message = next();
                if ("5".equals(last(message, 35))) {
                    return last(message, 58);
                }
            }
        }

        private void expect(final String msgType) throws IOException {
            final List<String[]> message = next();
            assertEquals(msgType, last(message, 35), pending.toString());
        }

        private void send(final String line) throws IOException {
            socket.getOutputStream().write(FixScript.frame(line, System.currentTimeMillis()).replace('|', '\u0001')
                    .getBytes(StandardCharsets.US_ASCII));
        }

        /** @return the last value of {@code tag} in the message, or null */
        private static String last(final List<String[]> message, final int tag) {
            String value = null;
            for (final String[] field : message) {
                if (field[0].equals(Integer.toString(tag))) {
                    value = field[1];
                }
            }
            return value;
        }

        /** @return the next message's fields in order, tag and value, read from the socket */
        private List<String[]> next() throws IOException {
            while (true) {
                final int end = pending.indexOf("\u000110=");
                final int close = end < 0 ? -1 : pending.indexOf("\u0001", end + 1);
                if (close >= 0) {
                    final String text = pending.substring(0, close + 1);
                    pending.delete(0, close + 1);
                    final List<String[]> fields = new ArrayList<>();
                    for (final String field : text.split("\u0001")) {
                        fields.add(field.split("=", 2));
                    }
                    return fields;
                }
                final byte[] chunk = new byte[8192];
                final int read = in.read(chunk);
                if (read < 0) {
                    throw new IOException("closed by the gateway; unread: " + pending);
                }
                pending.append(new String(chunk, 0, read, StandardCharsets.US_ASCII));
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
