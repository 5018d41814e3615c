package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.bench.replication.ReplicationProcesses;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.NoOpGatewayRecords;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.engine.config.EngineConfig;
import io.sluice.kafka.KafkaCluster;
import io.sluice.replay.ReplayAssertions;
import io.sluice.replication.ReplicateMain;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.MsgSeqNum;
import quickfix.field.MsgType;
import quickfix.field.Side;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import static io.sluice.systemtests.FixMessages.clOrdId;
import static io.sluice.systemtests.FixMessages.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Standby takeover with real processes and a real broker: a primary root with engine, gateway and shipper, a receiver
 * filling a replica root, a QuickFIX/J initiator sending orders continuously (buys and sells that trade), then
 * {@code kill -9} of every primary process at once mid-flow (the broker stays: it is off-host). The receiver catches
 * up with Kafka and is stopped, {@code promote} promotes the replica (refused while the receiver still runs; the engine and
 * gateway refuse the root before, a late receiver after), and an engine and gateway start on it on new ports.
 * <ul>
 *   <li>With the primary's gateway in {@code replication: acknowledged}: the client logs on to the standby with its
 *   sequence numbers continuing (QuickFIX/J would refuse a number it has seen), and ends with every report it was
 *   ever sent exactly once (ExecIDs and MsgSeqNums distinct, every number up to the last received or gap-filled),
 *   every order it sent acknowledged once; the standby's engine journal replays identically.</li>
 *   <li>In the default asynchronous mode: what the client saw that the replica lacks is counted and printed (the
 *   figure the README gives), not asserted.</li>
 * </ul>
 */
class TakeoverTest {
    private static final String CLIENT = "TAKER";
    private static final String PASSWORD = "secret";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final long ORDER_INTERVAL_NANOS = 1_000_000L;
    private static final int SIGKILL_EXIT = 137;
    private static final int ASYNCHRONOUS_ROUNDS = 3;
    private static final long REPLICATED_BEFORE_KILL = 500;

    @TempDir
    Path dir;

    @Test
    void inAcknowledgedModeTheStandbyTakesOverWithEveryReportOnceAndNoSequenceNumberReused() throws Exception {
        final long seed = System.nanoTime();
        final int killAfterReports = 200 + new Random(seed).nextInt(400);
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            final SluiceDeployment primary = deployment("primary").gatewayReplication("acknowledged");
            final SluiceDeployment standby = deployment("standby");
            final JavaProcess receiver = ReplicationProcesses.receive(dir, "receiver", "takeover", standby.journals(),
                    kafka.bootstrapServers());
            final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper", "takeover", primary.journals(),
                    kafka.bootstrapServers());
            try (QuickFixJClient client = new QuickFixJClient(List.of(primary.endpoint(1), standby.endpoint(1)),
                    CLIENT, SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj"), false, Map.of())) {
                primary.startGateway(1);
                primary.launchEngine();
                client.logOn();
                final OrderFlow flow = new OrderFlow(client);
                flow.start();
                awaitReports(client, killAfterReports, primary);
                final int seenBeforeKill = executionReports(client).size();

                ReplicationProcesses.loseHost(shipper, primary.gateway(1), primary.engine());

                awaitCaughtUp(kafka, "takeover", standby, receiver);
                final JavaProcess early = ReplicationProcesses.promote(dir, standby.journals(), kafka.bootstrapServers());
                assertEquals(ReplicateMain.EXIT_REFUSED, early.waitFor(60), early.logText());
                assertTrue(early.logText().contains("a receiver is writing the replica root"), early.logText());
                assertNotEquals(SIGKILL_EXIT, receiver.stop(30), receiver.logText());

                final JavaProcess unpromotedGateway = standby.launchGateway(1);
                assertEquals(1, unpromotedGateway.waitFor(60), unpromotedGateway.logText());
                assertTrue(unpromotedGateway.logText().contains("it is a replica root"), unpromotedGateway.logText());
                final JavaProcess unpromotedEngine = standby.launchEngine();
                assertEquals(EngineMain.EXIT_BAD_CONFIG, unpromotedEngine.waitFor(60), unpromotedEngine.logText());
                assertTrue(unpromotedEngine.logText().contains("./sluice promote --root"), unpromotedEngine.logText());

                final JavaProcess promote = ReplicationProcesses.promote(dir, standby.journals(), kafka.bootstrapServers());
                assertEquals(0, promote.waitFor(60), promote.logText());
                assertTrue(promote.logText().contains("the replica holds every excerpt the log holds"), promote.logText());
                assertTrue(promote.logText().contains("fenced the deployment's shipper"), promote.logText());
                try (JavaProcess late = ReplicationProcesses.receive(dir, "late-receiver", "takeover",
                        standby.journals(), kafka.bootstrapServers())) {
                    assertEquals(ReplicateMain.EXIT_REFUSED, late.waitFor(60), late.logText());
                    assertTrue(late.logText().contains("role: promoted"), late.logText());
                }

                standby.startGateway(1);
                standby.launchEngine();
                client.awaitLoggedOn();
                final int sentBeforeStandby = flow.sent().size();
                PollUntil.await(() -> flow.sent().size() >= sentBeforeStandby + 200, TIMEOUT,
                        () -> "orders to flow to the standby; " + standby.logs(3000));
                flow.stop();
                awaitAnswered(client, flow.sent(), standby);

                final List<Message> reports = assertEveryReportOnce(client, flow.sent(), seenBeforeKill);
                System.out.printf("takeover (acknowledged): killed after %d reports (seed %d); %d orders, %d reports"
                        + " in all, each once%n", seenBeforeKill, seed, flow.sent().size(), reports.size());

                assertNotEquals(SIGKILL_EXIT, standby.gateway(1).stop(10), standby.logs(3000));
                assertNotEquals(SIGKILL_EXIT, standby.engine().stop(10), standby.logs(3000));
                ReplayAssertions.assertReplaysIdentically(standby.journals(),
                        EngineConfig.load(standby.root().resolve("config/engine.yaml")));
            } finally {
                primary.close();
                standby.close();
                receiver.close();
                shipper.close();
            }
        }
    }

    @Test
    void inAsynchronousModeALostPrimaryLosesWhatKafkaHadNotAcknowledged() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            for (int round = 1; round <= ASYNCHRONOUS_ROUNDS; round++) {
                measureAsynchronousLoss(kafka, round);
            }
        }
    }

    /** One kill of a primary in the default mode, a fresh deployment (topics, roots, client store) each round. */
    private void measureAsynchronousLoss(final KafkaCluster kafka, final int round) throws Exception {
        final long seed = System.nanoTime();
        final int killAfterReports = 200 + new Random(seed).nextInt(400);
        final String id = "async" + round;
        final SluiceDeployment primary = deployment("primary-" + round);
        final SluiceDeployment standby = deployment("standby-" + round);
        final JavaProcess receiver = ReplicationProcesses.receive(dir, "receiver-" + round, id, standby.journals(),
                kafka.bootstrapServers());
        final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper-" + round, id, primary.journals(),
                kafka.bootstrapServers());
        try (QuickFixJClient client = new QuickFixJClient(primary.endpoint(1), CLIENT,
                SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj-" + round))) {
            primary.startGateway(1);
            primary.launchEngine();
            client.logOn();
            final OrderFlow flow = new OrderFlow(client);
            flow.start();
            // Replication in its steady state (not the shipper's start), then a random moment.
            PollUntil.await(() -> engineExcerpts(standby) >= REPLICATED_BEFORE_KILL, TIMEOUT,
                    () -> "the replica to follow the flow; " + receiver.logText() + shipper.logText());
            awaitReports(client, executionReports(client).size() + killAfterReports, primary);
            ReplicationProcesses.loseHost(shipper, primary.gateway(1), primary.engine());
            flow.stop();

            awaitCaughtUp(kafka, id, standby, receiver);
            final Set<String> onReplica = replicaExecIds(standby.journals());
            final List<Message> seen = executionReports(client);
            int missing = 0;
            for (final Message report : seen) {
                if (!onReplica.contains(report.getString(ExecID.FIELD))) {
                    missing++;
                }
            }
            final long clientSeq = client.session().getExpectedTargetNum() - 1;
            final long replicaSeq = lastSentSeq(standby.journals());
            System.out.printf("asynchronous loss, round %d: the client saw %d reports (up to MsgSeqNum %d); the"
                    + " replica's engine journal lacks %d of them, its gateway-1-out has sent records up to MsgSeqNum"
                    + " %d: a standby would reuse %d sequence numbers (seed %d)%n", round, seen.size(), clientSeq,
                    missing, replicaSeq, Math.max(0, clientSeq - replicaSeq), seed);
            assertTrue(seen.size() >= killAfterReports);
        } finally {
            primary.close();
            standby.close();
            receiver.close();
            shipper.close();
        }
    }

    private SluiceDeployment deployment(final String name) throws IOException {
        return SluiceDeployment.prepare(dir.resolve(name), List.of(new SluiceDeployment.GatewaySpec(1,
                        FixTransport.TCP, List.of(SessionIdentity.ofSluiceClient(CLIENT, PASSWORD)))),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS);
    }

    /** Sends a buy and a sell that trade, alternately, one a millisecond, while the client is logged on. */
    static final class OrderFlow implements Runnable {
        private final QuickFixJClient client;
        private final List<String> sent = new CopyOnWriteArrayList<>();
        private final Thread thread = new Thread(this, "order-flow");
        private volatile boolean running = true;

        OrderFlow(final QuickFixJClient client) {
            this.client = client;
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        /** @return every order handed to QuickFIX/J: sent, or stored for a resend (it numbers and keeps both) */
        List<String> sent() {
            return sent;
        }

        @Override
        public void run() {
            int next = 1;
            while (running) {
                if (client.isLoggedOn()) {
                    final String id = "T" + next;
                    try {
                        client.send(order(id, next % 2 == 0 ? Side.SELL : Side.BUY, 10, 100));
                    } catch (final IllegalStateException | quickfix.SessionNotFound notSentNow) {
                        // Logged out meanwhile: QuickFIX/J numbered and stored it; a ResendRequest brings it.
                    }
                    sent.add(id);
                    next++;
                }
                LockSupport.parkNanos(ORDER_INTERVAL_NANOS);
            }
        }
    }

    private static long engineExcerpts(final SluiceDeployment standby) {
        try {
            return ReplicationProcesses.excerptCounts(standby.journals()).getOrDefault("engine", 0L);
        } catch (final IOException | RuntimeException notYet) {
            return 0;
        } catch (final AssertionError cycleBeingCreated) {
            // Chronicle's lastIndex() meeting the receiver creating the replica's first cycle: with assertions on (as
            // in tests) its backward tailer trips `direction != BACKWARD` in toStart(); without them it is the
            // NotReachedException ExcerptCount answers UNKNOWN for. Not yet, either way.
            return 0;
        }
    }

    static void awaitReports(final QuickFixJClient client, final int count, final SluiceDeployment sluice) {
        PollUntil.await(() -> executionReports(client).size() >= count, TIMEOUT,
                () -> count + " reports before the kill; " + sluice.logs(3000));
    }

    static void awaitAnswered(final QuickFixJClient client, final List<String> sent,
                                      final SluiceDeployment sluice) {
        PollUntil.await(() -> {
            final Set<String> answered = new HashSet<>();
            for (final Message report : executionReports(client)) {
                final char type = FixMessages.charField(report, ExecType.FIELD);
                if (type == ExecType.NEW || type == ExecType.REJECTED) {
                    answered.add(clOrdId(report));
                }
            }
            return answered.containsAll(sent);
        }, TIMEOUT, () -> "every order sent to be acknowledged or rejected; " + sluice.logs(3000)
                + client.trafficText().substring(Math.max(0, client.trafficText().length() - 5000)));
    }

    /** Waits until the replica holds every record Kafka holds (the primary is gone: Kafka's ends stay put). */
    private static void awaitCaughtUp(final KafkaCluster kafka, final String deployment,
                                      final SluiceDeployment standby, final JavaProcess receiver) {
        PollUntil.await(() -> {
            try {
                final Map<String, Long> kafkaLast = ReplicationProcesses.kafkaLastIndexes(kafka.bootstrapServers(), deployment);
                return !kafkaLast.isEmpty() && kafkaLast.equals(ReplicationProcesses.lastIndexes(standby.journals()));
            } catch (final Exception e) {
                return false;
            }
        }, TIMEOUT, () -> "the receiver to catch up with Kafka; " + receiver.logText());
    }

    static List<Message> executionReports(final QuickFixJClient client) {
        final List<Message> reports = new ArrayList<>();
        for (final Message message : client.applicationMessages()) {
            if (QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)) {
                reports.add(message);
            }
        }
        return reports;
    }

    /**
     * Asserts that the client got reports after the takeover (more than {@code seenBeforeKill}), every one once
     * (distinct ExecIDs and MsgSeqNums, every number up to the last received or gap-filled), and every order in
     * {@code sent} acknowledged once.
     *
     * @return the reports
     */
    static List<Message> assertEveryReportOnce(final QuickFixJClient client, final List<String> sent,
                                               final int seenBeforeKill) throws FieldNotFound {
        final List<Message> reports = executionReports(client);
        assertTrue(reports.size() > seenBeforeKill, "reports arrived after the takeover");
        assertDistinct("ExecID", reports, ExecID.FIELD);
        assertDistinct("MsgSeqNum", reports, -MsgSeqNum.FIELD);
        final Map<String, Integer> acks = new HashMap<>();
        for (final Message report : reports) {
            if (report.getChar(ExecType.FIELD) == ExecType.NEW) {
                acks.merge(clOrdId(report), 1, Integer::sum);
            }
        }
        for (final String id : sent) {
            assertEquals(1, acks.getOrDefault(id, 0), id + " acknowledged exactly once");
        }
        final int expected = client.session().getExpectedTargetNum();
        final BitSet covered = receivedOrGapFilled(client.traffic());
        assertTrue(covered.nextClearBit(1) >= expected,
                "every MsgSeqNum from 1 to " + (expected - 1) + " received or gap-filled: " + covered);
        return reports;
    }

    /** @param tag a body tag, or minus a header tag */
    private static void assertDistinct(final String what, final List<Message> messages, final int tag)
            throws FieldNotFound {
        final Set<String> seen = new HashSet<>();
        for (final Message message : messages) {
            final String value = tag < 0 ? message.getHeader().getString(-tag) : message.getString(tag);
            assertTrue(seen.add(value), what + " " + value + " received twice");
        }
    }

    /** @return every MsgSeqNum the client received, and those a SequenceReset-GapFill covered */
    private static BitSet receivedOrGapFilled(final List<String> traffic) {
        final BitSet covered = new BitSet();
        for (final String line : traffic) {
            if (!line.startsWith("<- ")) {
                continue;
            }
            final Map<String, String> fields = new HashMap<>();
            for (final String field : line.substring(3).split("\u0001")) {
                final int equals = field.indexOf('=');
                if (equals > 0) {
                    fields.putIfAbsent(field.substring(0, equals), field.substring(equals + 1));
                }
            }
            final int seq = Integer.parseInt(fields.get("34"));
            if ("4".equals(fields.get("35")) && "Y".equals(fields.get("123"))) {
                covered.set(seq, Integer.parseInt(fields.get("36")));
            } else {
                covered.set(seq);
            }
        }
        return covered;
    }

    /** @return the ExecIDs of every execution report in the engine journal under {@code root} */
    private static Set<String> replicaExecIds(final Path root) {
        final Set<String> ids = new HashSet<>();
        try (ChronicleQueue journal = Journals.openReadOnly(Journals.engineJournal(root));
             ExcerptTailer tailer = journal.createTailer();
             JournalReader reader = new JournalReader(journal, tailer, new NoOpEngineToGateway() {
                 @Override
                 public void executionReport(final ExecutionReport report) {
                     ids.add(Long.toString(report.execId()));
                 }
             })) {
            while (reader.readOne()) {
                // collecting
            }
        }
        return ids;
    }

    /** @return the highest MsgSeqNum of a sent record in gateway 1's out journal under {@code root} */
    private static long lastSentSeq(final Path root) {
        final long[] last = {0};
        try (ChronicleQueue journal = Journals.openReadOnly(Journals.gatewayDeliveries(root, 1));
             ExcerptTailer tailer = journal.createTailer();
             JournalReader reader = new JournalReader(journal, tailer, new NoOpGatewayRecords() {
                 @Override
                 public void sent(final SentMessage message) {
                     last[0] = Math.max(last[0], message.seqNum());
                 }
             })) {
            while (reader.readOne()) {
                // collecting
            }
        }
        return last[0];
    }
}
