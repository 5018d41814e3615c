package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.bench.replication.ReplicationProcesses;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.engine.config.EngineConfig;
import io.sluice.gateway.GatewayMain;
import io.sluice.kafka.KafkaCluster;
import io.sluice.replay.ReplayAssertions;
import io.sluice.runtime.process.AwaitPromotion;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.runtime.process.ProcessLock;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.sluice.systemtests.TakeoverTest.assertEveryReportOnce;
import static io.sluice.systemtests.TakeoverTest.awaitAnswered;
import static io.sluice.systemtests.TakeoverTest.awaitReports;
import static io.sluice.systemtests.TakeoverTest.executionReports;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failover without an operator, with real processes and a real broker: {@code ./sluice standby} receives the primary's
 * journals and watches its shipper's heartbeats; after {@code kill -9} of every primary process (the broker stays: it is
 * off-host) it takes over by itself (fence, claim, promote, then the engine and gateway it started warm, before the
 * kill, open the promoted root and serve on its own ports), and a
 * QuickFIX/J initiator with the primary and the standby as SocketConnectHost and SocketConnectHost1 reconnects by
 * itself. Failing back: the standby ships the root it promoted, the old primary's host stands by for it with a new
 * root re-seeded from Kafka, and takes over again when the new primary is lost. Two standbys racing for one
 * deployment: exactly one takes over, the other stays a replica and says why.
 */
class FailoverTest {
    private static final String CLIENT = "TAKER";
    private static final String PASSWORD = "secret";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final long FAILOVER_AFTER_MILLIS = 2000;

    @TempDir
    Path dir;

    @Test
    void theStandbyTakesOverByItselfAndTheClientGetsEveryReportOnce() throws Exception {
        final long seed = System.nanoTime();
        final int killAfterReports = 200 + new Random(seed).nextInt(400);
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            final SluiceDeployment primary = deployment("primary").gatewayReplication("acknowledged");
            final SluiceDeployment standby = deployment("standby");
            final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper", "failover", primary.journals(),
                    kafka.bootstrapServers());
            final JavaProcess standbyProcess = ReplicationProcesses.standby(dir, "standby-b", "failover",
                    standby.journals(), kafka.bootstrapServers(), FAILOVER_AFTER_MILLIS,
                    List.of(standby.engineCommand(), standby.gatewayCommand(1)));
            try (QuickFixJClient client = new QuickFixJClient(List.of(primary.endpoint(1), standby.endpoint(1)),
                    CLIENT, SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj"), false, Map.of())) {
                primary.startGateway(1);
                primary.launchEngine();
                client.logOn();
                final TakeoverTest.OrderFlow flow = new TakeoverTest.OrderFlow(client);
                flow.start();
                awaitReports(client, killAfterReports, primary);
                PollUntil.await(() -> standbyProcess.logText().contains("the primary is alive"), TIMEOUT,
                        () -> "the standby to see the primary's heartbeats; " + standbyProcess.logText());
                // The standby's engine and gateway run before the primary dies, waiting for the promoted root.
                PollUntil.await(() -> standbyProcess.logText().contains("engine: ready but for its journals")
                        && standbyProcess.logText().contains("gateway 1: ready but for its journals"), TIMEOUT,
                        () -> "the standby's engine and gateway to await the promotion; " + standbyProcess.logText());
                // Its engine re-runs the replica read-only meanwhile: once promoted, it re-runs only what came since.
                PollUntil.await(() -> standbyProcess.logText().contains("engine: following "
                        + standby.journals().toAbsolutePath() + " read-only before the promotion"), TIMEOUT,
                        () -> "the standby's engine to follow the replica; " + standbyProcess.logText());
                final long enginePid = awaitingChild(standbyProcess, EngineMain.class);
                final long gatewayPid = awaitingChild(standbyProcess, GatewayMain.class);
                final int seenBeforeKill = executionReports(client).size();

                ReplicationProcesses.loseHost(shipper, primary.gateway(1), primary.engine());

                PollUntil.await(client::isLoggedOn, TIMEOUT, () -> "the client to log on to the standby; "
                        + standbyProcess.logText());
                final int sentBeforeStandby = flow.sent().size();
                PollUntil.await(() -> flow.sent().size() >= sentBeforeStandby + 200, TIMEOUT,
                        () -> "orders to flow to the standby; " + standbyProcess.logText());
                flow.stop();
                awaitAnswered(client, flow.sent(), standby);

                final List<Message> reports = assertEveryReportOnce(client, flow.sent(), seenBeforeKill);
                final String said = standbyProcess.logText();
                // The takeover used them: the same processes write the standby's journals, and no other was started.
                assertEquals(Set.of(enginePid, gatewayPid), children(standbyProcess), said);
                assertTrue(writer(Journals.engineJournal(standby.journals())).endsWith(" pid " + enginePid), said);
                assertTrue(writer(Journals.gatewayJournal(standby.journals(), 1)).endsWith(" pid " + gatewayPid), said);
                assertTrue(Pattern.compile("engine: recovered \\d+ inputs in \\d+ ms from \\S+ \\([1-9]\\d* of them"
                        + " followed before the promotion\\)").matcher(said).find(), said);
                // Its gateway's session store, too: read before the promotion, read on after it.
                assertTrue(Pattern.compile("gateway 1: its session store goes on from the state read ahead of the"
                        + " promotion \\(its journal read up to index [1-9]\\d*\\)").matcher(said).find(), said);
                for (final String step : List.of("detection took", "catch-up took", "fence took", "promotion took",
                        "start took")) {
                    assertTrue(said.contains(step), step + ": " + said);
                }
                System.out.printf("failover (acknowledged): killed after %d reports (seed %d); %d orders, %d reports in"
                        + " all, each once; the standby's steps:%n", seenBeforeKill, seed, flow.sent().size(),
                        reports.size());
                said.lines().filter(line -> line.contains(" took ")).forEach(System.out::println);

                assertEquals(0, standbyProcess.stop(40), said); // stops the engine and gateway it started
                assertTrue(standbyProcess.logText().contains("stopped"), standbyProcess.logText());
                ReplayAssertions.assertReplaysIdentically(standby.journals(),
                        EngineConfig.load(standby.root().resolve("config/engine.yaml")));
            } finally {
                primary.close();
                standbyProcess.close();
                shipper.close();
            }
        }
    }

    @Test
    void afterATakeoverTheOldPrimaryHostStandsByForTheNewPrimaryAndTakesOverAgain() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            final SluiceDeployment a = deployment("host-a").gatewayReplication("acknowledged");
            final SluiceDeployment b = deployment("host-b").gatewayReplication("acknowledged");
            final SluiceDeployment aAgain = deployment("host-a-again").gatewayReplication("acknowledged");
            final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper", "failback", a.journals(),
                    kafka.bootstrapServers());
            final JavaProcess standbyB = ReplicationProcesses.standby(dir, "standby-b", "failback", b.journals(),
                    kafka.bootstrapServers(), FAILOVER_AFTER_MILLIS, List.of(b.engineCommand(), b.gatewayCommand(1)));
            JavaProcess standbyA = null;
            try (QuickFixJClient client = new QuickFixJClient(List.of(a.endpoint(1), b.endpoint(1), aAgain.endpoint(1)),
                    CLIENT, SluiceDeployment.GATEWAY_COMP_ID, PASSWORD, dir.resolve("qfj"), false, Map.of())) {
                a.startGateway(1);
                a.launchEngine();
                client.logOn();
                final TakeoverTest.OrderFlow flow = new TakeoverTest.OrderFlow(client);
                flow.start();
                awaitReports(client, 200, a);
                PollUntil.await(() -> standbyB.logText().contains("the primary is alive"), TIMEOUT,
                        () -> "standby-b to see the primary; " + standbyB.logText());
                final int seenBeforeKill = executionReports(client).size();

                ReplicationProcesses.loseHost(shipper, a.gateway(1), a.engine());
                awaitFlowingTo(client, flow, standbyB, 1);

                // Host A comes back as the new primary's standby, its journals re-seeded from Kafka into a new root.
                final JavaProcess standingByOnA = ReplicationProcesses.standby(dir, "standby-a", "failback",
                        aAgain.journals(), kafka.bootstrapServers(), FAILOVER_AFTER_MILLIS,
                        List.of(aAgain.engineCommand(), aAgain.gatewayCommand(1)));
                standbyA = standingByOnA;
                PollUntil.await(() -> standingByOnA.logText().contains("the primary is alive (the shipper of standby"
                        + " standby-b"), TIMEOUT, () -> "standby-a to see standby-b's shipper; " + standingByOnA.logText()
                        + standbyB.logText());
                final int reportsOnB = executionReports(client).size();
                awaitReports(client, reportsOnB + 200, b);

                ReplicationProcesses.loseHost(standbyB); // the standby's JVM, its shipper, engine and gateway
                awaitFlowingTo(client, flow, standingByOnA, 2);
                flow.stop();
                awaitAnswered(client, flow.sent(), aAgain);

                final List<Message> reports = assertEveryReportOnce(client, flow.sent(), seenBeforeKill);
                assertTrue(standbyB.logText().contains("shipping the promoted root"), standbyB.logText());
                assertTrue(standingByOnA.logText().contains("start took"), standingByOnA.logText());
                System.out.printf("failing back: A -> B -> A; %d orders, %d reports in all, each once; standby-a's"
                        + " steps:%n", flow.sent().size(), reports.size());
                standingByOnA.logText().lines().filter(line -> line.contains(" took ")).forEach(System.out::println);
                assertEquals(0, standingByOnA.stop(40), standingByOnA.logText());
                ReplayAssertions.assertReplaysIdentically(aAgain.journals(),
                        EngineConfig.load(aAgain.root().resolve("config/engine.yaml")));
            } finally {
                a.close();
                standbyB.close();
                if (standbyA != null) {
                    standbyA.close();
                }
                shipper.close();
            }
        }
    }

    /** Waits until the client has logged on more than {@code logonsBefore} times and 200 more orders went out. */
    private static void awaitFlowingTo(final QuickFixJClient client, final TakeoverTest.OrderFlow flow,
                                       final JavaProcess standby, final int logonsBefore) {
        PollUntil.await(() -> client.logons() > logonsBefore && client.isLoggedOn(), TIMEOUT,
                () -> "the client to log on to the new primary; " + standby.logText());
        final int sent = flow.sent().size();
        PollUntil.await(() -> flow.sent().size() >= sent + 200, TIMEOUT, () -> "orders to flow; " + standby.logText());
    }

    @Test
    void ofTwoStandbysRacingExactlyOneTakesOver() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1)) {
            final SluiceDeployment primary = deployment("primary");
            final SluiceDeployment first = deployment("standby-a");
            final SluiceDeployment second = deployment("standby-b");
            final JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper", "race", primary.journals(),
                    kafka.bootstrapServers());
            final JavaProcess a = ReplicationProcesses.standby(dir, "standby-a", "race", first.journals(),
                    kafka.bootstrapServers(), FAILOVER_AFTER_MILLIS, List.of(first.engineCommand(),
                            first.gatewayCommand(1)));
            final JavaProcess b = ReplicationProcesses.standby(dir, "standby-b", "race", second.journals(),
                    kafka.bootstrapServers(), FAILOVER_AFTER_MILLIS, List.of(second.engineCommand(),
                            second.gatewayCommand(1)));
            try {
                primary.startGateway(1);
                primary.launchEngine();
                for (final JavaProcess standby : List.of(a, b)) {
                    PollUntil.await(() -> standby.logText().contains("the primary is alive"), TIMEOUT,
                            () -> "the standby to see the primary's heartbeats; " + standby.logText());
                }

                ReplicationProcesses.loseHost(shipper, primary.gateway(1), primary.engine());

                PollUntil.await(() -> said(a, b, "start took") && said(a, b, "stays a replica"), TIMEOUT,
                        () -> "one standby to take over and the other to stay a replica; " + a.logText() + b.logText());
                final String logs = "--- standby-a\n" + a.logText() + "\n--- standby-b\n" + b.logText();
                final boolean aWon = role(first).equals("promoted");
                assertEquals(aWon ? "replica" : "promoted", role(second), logs);
                final JavaProcess winner = aWon ? a : b;
                final JavaProcess loser = aWon ? b : a;
                assertTrue(winner.logText().contains("start took"), logs);
                assertTrue(!loser.logText().contains("promotion took"), logs);
                assertTrue(loser.logText().contains("standby " + winner.name()), logs);
                assertTrue(loser.isAlive(), loser.logText());
                System.out.printf("standbys racing: %s took over; %s said: %s%n", winner.name(), loser.name(),
                        loser.logText().lines().filter(line -> line.contains("stays a replica")).findFirst().orElse(""));
            } finally {
                primary.close();
                a.close();
                b.close();
                shipper.close();
            }
        }
    }

    /**
     * @return the pid of the child of {@code standby} that runs {@code main}, started to await the promotion (its
     * command line read whole from /proc: the JDK's view of it is cut short by the long class path)
     */
    private static long awaitingChild(final JavaProcess standby, final Class<?> main) {
        return ProcessHandle.of(standby.pid()).orElseThrow().children()
                .filter(child -> commandLine(child.pid()).containsAll(List.of(main.getName(), AwaitPromotion.OPTION)))
                .findFirst().orElseThrow(() -> new AssertionError("no child of the standby runs " + main.getName()
                        + " " + AwaitPromotion.OPTION + "; " + standby.logText())).pid();
    }

    private static List<String> commandLine(final long pid) {
        try {
            return List.of(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).split("\0"));
        } catch (final IOException gone) {
            return List.of();
        }
    }

    /** @return the pids of the processes {@code standby} started */
    private static Set<Long> children(final JavaProcess standby) {
        return ProcessHandle.of(standby.pid()).orElseThrow().children().map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    /** @return who holds the writer lock of {@code journal}: its holder and pid, as the holder wrote them */
    private static String writer(final Path journal) throws IOException {
        return Files.readString(journal.resolve(ProcessLock.JOURNAL_WRITER_FILE)).strip();
    }

    private static boolean said(final JavaProcess a, final JavaProcess b, final String text) {
        return a.logText().contains(text) || b.logText().contains(text);
    }

    private static String role(final SluiceDeployment deployment) throws IOException {
        final String identity = Files.readString(deployment.journals().resolve("replication/identity"));
        return identity.substring(identity.indexOf("role: ") + "role: ".length()).strip();
    }

    private SluiceDeployment deployment(final String name) throws IOException {
        return SluiceDeployment.prepare(dir.resolve(name), List.of(new SluiceDeployment.GatewaySpec(1,
                        FixTransport.TCP, List.of(SessionIdentity.ofSluiceClient(CLIENT, PASSWORD)))),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS);
    }
}
