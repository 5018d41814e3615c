package io.sluice.bench.replication;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.SessionNotFound;
import quickfix.field.Account;
import quickfix.field.ClOrdID;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * One round of {@code ./sluice bench failover}: a primary (engine, acknowledged gateway, shipper) and
 * {@code ./sluice standby} with its own engine and gateway, two QuickFIX/J initiators knowing both addresses: a maker
 * that rests one large sell, and a taker sending buys that fill against it at a steady rate; after some reports,
 * {@code kill -9} of every primary process at once. It notes when the standby reached each step and when the taker
 * first got a fill of an order it sent once the primary was gone, then counts the orders never answered (lost) and those
 * acknowledged twice.
 */
final class FailoverRound {
    private static final String CLIENT = "TAKER";
    /** Rests one large sell before the load: every buy of the taker fills against it, before and after the kill. */
    private static final String MAKER = "MAKER";
    private static final int RESTING_QUANTITY = 1_000_000;
    private static final String PASSWORD = "secret";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    /** What the engine and gateway started by the standby print once they run, first seen by polling. */
    private static final Map<String, String> MARKERS = Map.of("engine", "engine: recovered", "gateway",
            "gateway 1 listening on");

    /** What one round measured: each milestone in ms after the kill (-1: not reached), and the orders' fate. */
    record Times(long detection, long fenced, long promoted, long started, long engineUp, long gatewayUp, long logon,
                 long firstFill, int orders, int lost, int duplicated, int reportsBeforeKill) {
    }

    private FailoverRound() {
    }

    static Times run(final Path dir, final String servers, final String deployment, final long failoverAfterMillis,
                     final int ordersPerSecond, final int killAfterReports) throws Exception {
        final SluiceDeployment primary = deployment(dir.resolve("primary")).gatewayReplication("acknowledged");
        final SluiceDeployment standby = deployment(dir.resolve("standby"));
        final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper", deployment, primary.journals(), servers);
        final JavaProcess standbyProcess = ReplicationProcesses.standby(dir, "standby", deployment, standby.journals(),
                servers, failoverAfterMillis, List.of(standby.engineCommand(), standby.gatewayCommand(1)));
        final Map<String, Long> sentAt = new ConcurrentHashMap<>();
        try (QuickFixJClient maker = new QuickFixJClient(List.of(primary.endpoint(1), standby.endpoint(1)), MAKER,
                SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj-maker"), false, Map.of());
             QuickFixJClient client = new QuickFixJClient(List.of(primary.endpoint(1), standby.endpoint(1)), CLIENT,
                SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj"), false, Map.of())) {
            primary.startGateway(1);
            primary.launchEngine();
            maker.logOn();
            maker.send(OrderSender.order("REST", Side.SELL, RESTING_QUANTITY));
            maker.await("the resting sell's acknowledgement", message -> execType(message) == ExecType.NEW);
            client.logOn();
            final OrderSender sender = new OrderSender(client, sentAt, 1_000_000_000L / ordersPerSecond);
            sender.start();
            PollUntil.await(() -> reports(client) >= killAfterReports, TIMEOUT, () -> killAfterReports
                    + " reports before the kill; " + primary.logs(2000));
            PollUntil.await(() -> standbyProcess.logText().contains("the primary is alive"), TIMEOUT,
                    () -> "the standby to see the primary; " + standbyProcess.logText());
            final int reportsBeforeKill = reports(client);
            final int logonsBefore = client.logons();
            final long killMillis = System.currentTimeMillis();
            ReplicationProcesses.loseHost(shipper, primary.gateway(1), primary.engine());
            // An order sent while the kill was under way may still be filled by the primary: the first fill counted
            // is of an order sent once every primary process was gone.
            final long goneMillis = System.currentTimeMillis();

            final StandbyMilestones milestones = new StandbyMilestones();
            final long[] logonMillis = {-1};
            final long[] fillMillis = {-1};
            PollUntil.await(() -> {
                final long now = System.currentTimeMillis();
                milestones.read(standbyProcess.logText(), now, MARKERS);
                if (logonMillis[0] < 0 && client.logons() > logonsBefore) {
                    logonMillis[0] = now;
                }
                fillMillis[0] = firstFillOfOrderSentAfter(client, sentAt, goneMillis);
                if (!standbyProcess.isAlive()) {
                    throw new IllegalStateException("the standby exited: " + standbyProcess.logText());
                }
                return fillMillis[0] >= 0 && logonMillis[0] >= 0;
            }, TIMEOUT, () -> "a fill on the standby; " + standbyProcess.logText());
            sender.stop();
            final Set<String> sent = Set.copyOf(sentAt.keySet());
            try {
                PollUntil.await(() -> unanswered(client, sent).isEmpty(), TIMEOUT, () -> "every order answered");
            } catch (final IllegalStateException timedOut) {
                System.out.println("failover: " + unanswered(client, sent).size() + " orders not answered in "
                        + TIMEOUT.toSeconds() + " s: counted as lost");
            }
            // Where the time went: the standby's steps, and the start-up lines of the engine and gateway it runs.
            standbyProcess.logText().lines().filter(line -> line.contains(" took ") || line.startsWith("engine: live")
                    || line.contains(" listening on ")).forEach(line -> System.out.println("    " + line));
            return new Times(milestones.at("detection") - killMillis, milestones.at("fence") - killMillis,
                    milestones.at("promotion") - killMillis, milestones.at("start") - killMillis,
                    milestones.at("engine") - killMillis, milestones.at("gateway") - killMillis,
                    logonMillis[0] - killMillis, fillMillis[0] - killMillis, sent.size(),
                    unanswered(client, sent).size(), acknowledgedTwice(client), reportsBeforeKill);
        } finally {
            standbyProcess.stop(40);
            primary.close();
            shipper.close();
        }
    }

    private static SluiceDeployment deployment(final Path root) throws IOException {
        return SluiceDeployment.prepare(root, List.of(new SluiceDeployment.GatewaySpec(1, FixTransport.TCP,
                        List.of(SessionIdentity.ofSluiceClient(CLIENT, PASSWORD),
                                SessionIdentity.ofSluiceClient(MAKER, PASSWORD)))), SluiceIdle.BACKOFF,
                SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS);
    }

    private static int reports(final QuickFixJClient client) {
        int reports = 0;
        for (final Message message : client.applicationMessages()) {
            if (QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)) {
                reports++;
            }
        }
        return reports;
    }

    /** @return when the first fill of an order sent after {@code sinceMillis} arrived, or -1 */
    private static long firstFillOfOrderSentAfter(final QuickFixJClient client, final Map<String, Long> sentAt,
                                                  final long sinceMillis) {
        final List<Message> messages = client.applicationMessages();
        final List<Long> arrivals = client.applicationArrivals();
        for (int i = 0; i < messages.size(); i++) {
            final Message message = messages.get(i);
            if (execType(message) == ExecType.TRADE && sentAt.getOrDefault(field(message, ClOrdID.FIELD), 0L) > sinceMillis) {
                return arrivals.get(i);
            }
        }
        return -1;
    }

    /** @return the orders in {@code sent} neither acknowledged nor rejected */
    private static Set<String> unanswered(final QuickFixJClient client, final Set<String> sent) {
        final Set<String> missing = new HashSet<>(sent);
        for (final Message message : client.applicationMessages()) {
            final char type = execType(message);
            if (type == ExecType.NEW || type == ExecType.REJECTED) {
                missing.remove(field(message, ClOrdID.FIELD));
            }
        }
        return missing;
    }

    /** @return the orders acknowledged under more than one ExecID (a resent report keeps its ExecID) */
    private static int acknowledgedTwice(final QuickFixJClient client) {
        final Map<String, Set<String>> execIds = new HashMap<>();
        for (final Message message : client.applicationMessages()) {
            if (execType(message) == ExecType.NEW) {
                execIds.computeIfAbsent(field(message, ClOrdID.FIELD), id -> new HashSet<>())
                        .add(field(message, ExecID.FIELD));
            }
        }
        return (int) execIds.values().stream().filter(ids -> ids.size() > 1).count();
    }

    private static char execType(final Message message) {
        if (!QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)) {
            return 0;
        }
        try {
            return message.getChar(ExecType.FIELD);
        } catch (final FieldNotFound e) {
            return 0;
        }
    }

    private static String field(final Message message, final int tag) {
        return QuickFixJClient.field(message, tag);
    }

    /** Sends a buy every interval while the client is logged on, noting when each went. */
    private static final class OrderSender implements Runnable {
        private final QuickFixJClient client;
        private final Map<String, Long> sentAt;
        private final long intervalNanos;
        private final Thread thread = new Thread(this, "failover-orders");
        private volatile boolean running = true;

        OrderSender(final QuickFixJClient client, final Map<String, Long> sentAt, final long intervalNanos) {
            this.client = client;
            this.sentAt = sentAt;
            this.intervalNanos = intervalNanos;
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        @Override
        public void run() {
            int next = 1;
            while (running) {
                if (client.isLoggedOn()) {
                    final String id = "F" + next;
                    sentAt.put(id, System.currentTimeMillis());
                    try {
                        client.send(order(id, Side.BUY, 10));
                    } catch (final IllegalStateException | SessionNotFound notSentNow) {
                        // logged out meanwhile: QuickFIX/J numbered and stored it; a ResendRequest brings it
                    }
                    next++;
                }
                LockSupport.parkNanos(intervalNanos);
            }
        }

        static NewOrderSingle order(final String clOrdId, final char side, final int quantity) {
            final NewOrderSingle order = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side),
                    new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
            order.set(new Account("ACC1"));
            order.set(new Symbol(SluiceDeployment.SYMBOL));
            order.set(new OrderQty(quantity));
            order.set(new Price(100));
            order.set(new TimeInForce(TimeInForce.DAY));
            return order;
        }
    }
}
