package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.Report;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.gateway.GatewayMain;
import io.sluice.gateway.codec.ShortText;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.LoopbackPorts;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.SessionNotFound;
import quickfix.field.BusinessRejectReason;
import quickfix.field.DeliverToCompID;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.field.PossDupFlag;
import quickfix.field.RefMsgType;
import quickfix.field.Side;
import quickfix.fix44.NewOrderSingle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static io.sluice.systemtests.FixMessages.buy;
import static io.sluice.systemtests.FixMessages.cancel;
import static io.sluice.systemtests.FixMessages.clOrdId;
import static io.sluice.systemtests.FixMessages.order;
import static io.sluice.systemtests.FixMessages.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drop copy over real FIX TCP: a real engine, two real gateway processes on real journals, QuickFIX/J clients. Firm
 * FIRMA trades on both gateways (CLIENT1 on gateway 1, CLIENT2 on gateway 2); firm FIRMB (OTHER, gateway 2) trades
 * with it. BACKA on gateway 1 is FIRMA's drop copy: it receives a copy of every ExecutionReport and
 * OrderCancelReject of FIRMA's sessions, from both gateways, in the order the engine wrote them, and none of FIRMB's;
 * what it sends is refused, and nothing of it reaches the engine. Offline, it gets what it missed on its next logon
 * through the resend protocol: none missing, none twice.
 */
class DropCopyTest {
    private static final Duration READY = Duration.ofSeconds(180);
    private static final String PASSWORD = "secret";

    @TempDir
    Path dir;

    @Test
    void aDropCopyGetsEveryReportOfItsFirmOnBothGatewaysInEngineOrderAndSendsNothing() throws Exception {
        try (Deployment deployment = new Deployment(dir);
             QuickFixJClient dropCopy = deployment.client(1, "BACKA", "drop-copy").logOn();
             QuickFixJClient client1 = deployment.client(1, "CLIENT1", "client1").logOn();
             QuickFixJClient client2 = deployment.client(2, "CLIENT2", "client2").logOn();
             QuickFixJClient other = deployment.client(2, "OTHER", "other").logOn()) {
            client1.send(buy("O1", 10, 90));
            client1.await("the ack of O1", report("O1", ExecType.NEW));
            other.send(order("S1", Side.SELL, 4, 90));
            other.await("FIRMB's fill of S1", report("S1", ExecType.TRADE));
            client2.send(buy("O2", 5, 89));
            client2.await("the ack of O2", report("O2", ExecType.NEW));
            client2.send(cancel("X1", "NOSUCH", 5));
            client2.await("the cancel reject of X1", message -> QuickFixJClient.isType(message,
                    MsgType.ORDER_CANCEL_REJECT));
            client2.send(cancel("X2", "O2", 5));
            client2.await("the cancel of O2", report("X2", ExecType.CANCELED));
            client1.send(cancel("X3", "O1", 10));
            client1.await("the cancel of O1", report("X3", ExecType.CANCELED));

            dropCopy.send(buy("D1", 1, 90));
            final Message refused = dropCopy.await("the refusal of the drop copy's order",
                    message -> QuickFixJClient.isType(message, MsgType.BUSINESS_MESSAGE_REJECT));
            assertEquals(BusinessRejectReason.NOT_AUTHORIZED, refused.getInt(BusinessRejectReason.FIELD));
            assertEquals(NewOrderSingle.MSGTYPE, refused.getString(RefMsgType.FIELD));
            assertEquals("Drop-copy session: it receives its firm's reports and may send no application messages",
                    QuickFixJClient.text(refused));

            final List<String> expected = deployment.firmReportsInEngineOrder("FIRMA");
            assertEquals(List.of("CLIENT1 O1 8/0", "CLIENT1 O1 8/F", "CLIENT2 O2 8/0", "CLIENT2 X1 9",
                    "CLIENT2 X2 8/4", "CLIENT1 X3 8/4"), expected, "FIRMA's reports in the engine journal");
            PollUntil.await(() -> copies(dropCopy).size() >= expected.size(), QuickFixJClient.TIMEOUT,
                    () -> "the drop copies; " + dropCopy.trafficText());
            assertEquals(expected, copies(dropCopy), "copies in engine order, none of FIRMB's; "
                    + dropCopy.trafficText());
            assertTrue(deployment.sessionReports("BACKA").isEmpty(), "nothing of the drop copy reached the engine");
        }
    }

    @Test
    void aDropCopyThatWasOfflineGetsWhatItMissedByResendOnLogon() throws Exception {
        try (Deployment deployment = new Deployment(dir);
             QuickFixJClient client1 = deployment.client(1, "CLIENT1", "client1").logOn();
             QuickFixJClient client2 = deployment.client(2, "CLIENT2", "client2").logOn();
             QuickFixJClient other = deployment.client(2, "OTHER", "other").logOn()) {
            final List<String> before;
            try (QuickFixJClient dropCopy = deployment.client(1, "BACKA", "drop-copy").logOn()) {
                client1.send(buy("O1", 10, 90));
                client1.await("the ack of O1", report("O1", ExecType.NEW));
                PollUntil.await(() -> copies(dropCopy).size() == 1, QuickFixJClient.TIMEOUT,
                        () -> "the copy of O1's ack; " + dropCopy.trafficText());
                before = copies(dropCopy);
            }
            // offline: fills and cancels of both of FIRMA's sessions
            other.send(order("S1", Side.SELL, 4, 90));
            client1.await("the fill of O1", report("O1", ExecType.TRADE));
            client1.send(cancel("X1", "O1", 10));
            client1.await("the cancel of O1", report("X1", ExecType.CANCELED));
            client2.send(buy("O2", 5, 89));
            client2.await("the ack of O2", report("O2", ExecType.NEW));
            other.send(order("S2", Side.SELL, 5, 89));
            client2.await("the fill of O2", report("O2", ExecType.TRADE));

            final List<String> expected = deployment.firmReportsInEngineOrder("FIRMA");
            assertEquals(List.of("CLIENT1 O1 8/0", "CLIENT1 O1 8/F", "CLIENT1 X1 8/4", "CLIENT2 O2 8/0",
                    "CLIENT2 O2 8/F"), expected, "FIRMA's reports in the engine journal");
            try (QuickFixJClient again = deployment.client(1, "BACKA", "drop-copy").logOn()) {
                PollUntil.await(() -> copies(again).size() >= expected.size() - before.size(),
                        QuickFixJClient.TIMEOUT, () -> "the missed copies; " + again.trafficText());
                final List<String> all = new ArrayList<>(before);
                all.addAll(copies(again));
                assertEquals(expected, all, "none missing, none twice; " + again.trafficText());
                for (final Message missed : again.applicationMessages()) {
                    assertTrue(missed.getHeader().getBoolean(PossDupFlag.FIELD), "resent with PossDupFlag: "
                            + missed);
                }
            }
        }
    }

    @Test
    void aDropCopyClientKilledMidStreamGetsEveryReportOfItsFirmExactlyOnceAfterItsRestart() throws Exception {
        try (Deployment deployment = new Deployment(dir);
             QuickFixJClient client1 = deployment.client(1, "CLIENT1", "client1").logOn();
             QuickFixJClient client2 = deployment.client(2, "CLIENT2", "client2").logOn();
             QuickFixJClient other = deployment.client(2, "OTHER", "other").logOn()) {
            final Path store = dir.resolve("qfj-drop-copy-child");
            final JavaProcess first = deployment.dropCopyProcess("drop-copy-1", store);
            final Trading trading = new Trading(client1, client2, other);
            final ExecutorService executor = Executors.newSingleThreadExecutor();
            try {
                final Future<?> flow = executor.submit(trading);
                PollUntil.await(() -> copies(first.log()).size() >= 10 || flow.isDone(), READY,
                        () -> "ten copies before the kill; " + first.logText());
                assertFalse(flow.isDone(), "the firm still trades when the drop copy is killed");
                first.kill9();
                final int roundsAtKill = trading.rounds.get();
                PollUntil.await(() -> trading.rounds.get() >= roundsAtKill + 5 || flow.isDone(),
                        READY, () -> "five rounds of trading while the drop copy is dead");
                final JavaProcess second = deployment.dropCopyProcess("drop-copy-2", store);
                final int roundsAtRestart = trading.rounds.get();
                PollUntil.await(() -> trading.rounds.get() >= roundsAtRestart + 5 || flow.isDone(),
                        READY, () -> "five rounds of trading after the restart");
                trading.stop = true;
                flow.get();

                final List<String> expected = deployment.firmReportKeys("FIRMA");
                final List<String> otherFirms = deployment.firmReportKeys("FIRMB");
                PollUntil.await(() -> firstOccurrences(copies(first.log()), copies(second.log())).size()
                        >= expected.size(), READY,
                        () -> expected.size() + " copies; the restarted drop copy's log: " + second.logText());
                final List<Copy> before = copies(first.log());
                final List<Copy> after = copies(second.log());
                assertEquals(expected, firstOccurrences(before, after), "every report of FIRMA once, in engine "
                        + "order (" + trading.rounds.get() + " rounds, killed after round " + roundsAtKill + ")");
                final Set<String> seen = new HashSet<>();
                for (final Copy copy : concat(before, after)) {
                    assertTrue(seen.add(copy.key()) || copy.possDup(), "a second copy of " + copy.key()
                            + " is a PossDup resend: " + copy);
                    assertFalse(otherFirms.contains(copy.key()), "none of FIRMB's reports: " + copy);
                }
                assertTrue(after.stream().anyMatch(Copy::possDup), "what it missed came by resend: " + after);
                assertTrue(after.stream().anyMatch(copy -> !copy.possDup()), "and then live copies: " + after);
            } finally {
                trading.stop = true;
                executor.shutdownNow();
            }
        }
    }

    /**
     * FIRMA trading on both gateways until stopped, one round at a time: CLIENT1 (gateway 1) buys, FIRMB's OTHER sells
     * into it, CLIENT2 (gateway 2) buys and cancels, CLIENT1 cancels the rest, and every fifth round CLIENT2 cancels an
     * order that does not exist (an OrderCancelReject).
     */
    private static final class Trading implements Runnable {
        final AtomicInteger rounds = new AtomicInteger();
        volatile boolean stop;
        private final QuickFixJClient client1;
        private final QuickFixJClient client2;
        private final QuickFixJClient other;

        Trading(final QuickFixJClient client1, final QuickFixJClient client2, final QuickFixJClient other) {
            this.client1 = client1;
            this.client2 = client2;
            this.other = other;
        }

        @Override
        public void run() {
            try {
                for (int round = 0; !stop; round = rounds.incrementAndGet()) {
                    client1.send(buy("A" + round, 10, 90));
                    client1.await("the ack of A" + round, report("A" + round, ExecType.NEW));
                    other.send(order("S" + round, Side.SELL, 4, 90));
                    client1.await("the fill of A" + round, report("A" + round, ExecType.TRADE));
                    client2.send(buy("B" + round, 5, 89));
                    client2.await("the ack of B" + round, report("B" + round, ExecType.NEW));
                    client2.send(cancel("C" + round, "B" + round, 5));
                    client2.await("the cancel of B" + round, report("C" + round, ExecType.CANCELED));
                    client1.send(cancel("D" + round, "A" + round, 10));
                    client1.await("the cancel of A" + round, report("D" + round, ExecType.CANCELED));
                    if (round % 5 == 0) {
                        final String unknown = "X" + round;
                        client2.send(cancel(unknown, "NOSUCH", 5));
                        client2.await("the cancel reject of " + unknown, message -> QuickFixJClient.isType(message,
                                MsgType.ORDER_CANCEL_REJECT) && unknown.equals(clOrdId(message)));
                    }
                }
            } catch (final SessionNotFound e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** One line {@link DropCopyClientMain} printed: a message as QuickFIX/J handed it over. */
    private record Copy(String msgType, boolean possDup, String owner, String key) {
    }

    /** @return the copies a {@link DropCopyClientMain} printed to {@code log}, in the order it received them */
    private static List<Copy> copies(final Path log) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        final List<Copy> copies = new ArrayList<>();
        for (final String line : lines) {
            if (line.startsWith(DropCopyClientMain.COPY)) {
                final String[] fields = line.substring(DropCopyClientMain.COPY.length()).split(" ");
                copies.add(new Copy(fields[0], fields[1].equals("Y"), fields[2], fields[3]));
            }
        }
        return copies;
    }

    /** @return each key the first time it was received, across both processes */
    private static List<String> firstOccurrences(final List<Copy> before, final List<Copy> after) {
        return List.copyOf(concat(before, after).stream().map(Copy::key)
                .collect(Collectors.toCollection(LinkedHashSet::new)));
    }

    private static List<Copy> concat(final List<Copy> before, final List<Copy> after) {
        final List<Copy> all = new ArrayList<>(before);
        all.addAll(after);
        return all;
    }

    /** @return each copy as the owning session (DeliverToCompID), ClOrdID and MsgType/ExecType */
    private static List<String> copies(final QuickFixJClient dropCopy) {
        final List<String> copies = new ArrayList<>();
        for (final Message message : dropCopy.applicationMessages()) {
            if (QuickFixJClient.isType(message, MsgType.BUSINESS_MESSAGE_REJECT)) {
                continue;
            }
            try {
                final String owner = message.getHeader().getString(DeliverToCompID.FIELD);
                copies.add(QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)
                        ? owner + " " + clOrdId(message) + " 8/" + message.getChar(ExecType.FIELD)
                        : owner + " " + clOrdId(message) + " 9");
            } catch (final FieldNotFound e) {
                throw new AssertionError("a copy without " + e.field + ": " + message, e);
            }
        }
        return copies;
    }

    /** One engine and two gateways on fresh journals; FIRMA's drop copy BACKA on gateway 1. */
    private static final class Deployment implements AutoCloseable {
        private final Path dir;
        private final FixEndpoint[] gateways = new FixEndpoint[2];
        private final List<JavaProcess> processes = new ArrayList<>();

        Deployment(final Path dir) throws Exception {
            this.dir = dir;
            try {
                final JavaProcess engine = start("engine", EngineMain.class, Files.writeString(
                        dir.resolve("engine.yaml"), """
                        !EngineConfig {
                          journalRoot: "%s",
                          gatewayIds: [ 1, 2 ],
                          idle: { strategy: backoff },
                          instruments: [ { symbol: %s, tickSize: 0.01, lotSize: 1, priceLow: 1, priceHigh: 1000,
                                           maxOrderQty: 100000, maxNotional: 100000000 } ]
                        }
                        """.formatted(journals(), FixMessages.SYMBOL)));
                PollUntil.await(() -> engine.logText().contains("engine: recovered") || !engine.isAlive(), READY,
                        () -> "the engine to recover; its log: " + engine.logText());
                assertTrue(engine.isAlive(), engine::logText);
                startGateway(1, """
                        !Session { senderCompId: CLIENT1, targetCompId: GW1, password: %1$s, firm: FIRMA },
                        !Session { senderCompId: BACKA, targetCompId: GW1, password: %1$s, dropCopy: FIRMA }\
                        """.formatted(PASSWORD));
                startGateway(2, """
                        !Session { senderCompId: CLIENT2, targetCompId: GW2, password: %1$s, firm: FIRMA },
                        !Session { senderCompId: OTHER, targetCompId: GW2, password: %1$s, firm: FIRMB }\
                        """.formatted(PASSWORD));
            } catch (final Throwable failed) {
                close();
                throw failed;
            }
        }

        FixEndpoint endpoint(final int gateway) {
            return gateways[gateway - 1];
        }

        /** Starts {@link DropCopyClientMain} as BACKA on gateway 1 in a JVM of its own, on the store {@code store}. */
        JavaProcess dropCopyProcess(final String name, final Path store) throws Exception {
            final JavaProcess child = JavaProcess.start(name, dir.resolve(name + ".log"), List.of("-Xmx128m"),
                    DropCopyClientMain.class, endpoint(1).host(), Integer.toString(endpoint(1).port()), "BACKA",
                    "GW1", PASSWORD, store.toString());
            processes.add(child);
            PollUntil.await(() -> child.logText().contains(DropCopyClientMain.LOGGED_ON) || !child.isAlive(), READY,
                    () -> "the drop copy " + name + " to log on; its log: " + child.logText());
            assertTrue(child.isAlive(), child::logText);
            return child;
        }

        QuickFixJClient client(final int gateway, final String compId, final String store) throws Exception {
            return new QuickFixJClient(gateways[gateway - 1], compId, "GW" + gateway, PASSWORD,
                    dir.resolve("qfj-" + store));
        }

        /** @return every report in the engine journal whose firm is {@code firm}, as {@link #copies} shows them */
        List<String> firmReportsInEngineOrder(final String firm) {
            final long packed = ShortText.parse(firm);
            return reports(report -> report.firm() == packed);
        }

        /** @return every report in the engine journal owned by {@code session} */
        List<String> sessionReports(final String session) {
            final long packed = ShortText.parse(session);
            return reports(report -> report.session() == packed);
        }

        private List<String> reports(final Predicate<Report> wanted) {
            return reports(wanted, report -> ShortText.toString(report.session()) + " "
                    + ShortText.toString(report.clOrdId()) + " 8/" + report.execType().fixCode(),
                    reject -> ShortText.toString(reject.session()) + " " + ShortText.toString(reject.clOrdId()) + " 9");
        }

        /**
         * @return every report in the engine journal whose firm is {@code firm}, by the key
         * {@link DropCopyClientMain} prints: the ExecID of an execution report, the ClOrdID of a cancel reject
         */
        List<String> firmReportKeys(final String firm) {
            final long packed = ShortText.parse(firm);
            return reports(report -> report.firm() == packed, report -> Long.toString(report.execId()),
                    reject -> ShortText.toString(reject.clOrdId()));
        }

        private List<String> reports(final Predicate<Report> wanted, final Function<ExecutionReport, String> execution,
                                     final Function<CancelReject, String> cancelReject) {
            final List<String> reports = new ArrayList<>();
            try (ChronicleQueue journal = Journals.openReadOnly(Journals.engineJournal(journals()));
                 ExcerptTailer tailer = journal.createTailer();
                 JournalReader reader = new JournalReader(journal, tailer, new NoOpEngineToGateway() {
                     @Override
                     public void executionReport(final ExecutionReport report) {
                         if (wanted.test(report)) {
                             reports.add(execution.apply(report));
                         }
                     }

                     @Override
                     public void cancelReject(final CancelReject reject) {
                         if (wanted.test(reject)) {
                             reports.add(cancelReject.apply(reject));
                         }
                     }
                 })) {
                while (reader.readOne()) {
                    // collecting
                }
            }
            return reports;
        }

        private Path journals() {
            return dir.resolve("journals");
        }

        private void startGateway(final int id, final String sessions) throws Exception {
            final FixEndpoint endpoint = FixEndpoint.tcp("127.0.0.1", LoopbackPorts.free());
            gateways[id - 1] = endpoint;
            final JavaProcess gateway = start("gateway-" + id, GatewayMain.class, Files.writeString(
                    dir.resolve("gateway-" + id + ".yaml"), """
                    !GatewayConfig {
                      gatewayId: %d,
                      journalRoot: "%s",
                      listen: "tcp://127.0.0.1:%d",
                      idle: backoff,
                      sessions: [
                    %s
                      ]
                    }
                    """.formatted(id, journals(), endpoint.port(), sessions)));
            PollUntil.await(() -> !gateway.isAlive() || endpoint.isAccepting(), READY,
                    () -> gateway.name() + " to accept on " + endpoint + "; its log: " + gateway.logText());
            assertTrue(gateway.isAlive(), gateway::logText);
        }

        private JavaProcess start(final String name, final Class<?> main, final Path config) throws Exception {
            final JavaProcess process = JavaProcess.start(name, dir.resolve(name + ".log"), List.of("-Xmx256m"),
                    main, "--config", config.toString());
            processes.add(process);
            return process;
        }

        @Override
        public void close() throws Exception {
            for (int i = processes.size() - 1; i >= 0; i--) {
                processes.get(i).stop(10);
            }
        }
    }
}
