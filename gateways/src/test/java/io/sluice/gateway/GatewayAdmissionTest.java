package io.sluice.gateway;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.sluice.contracts.EventFixtures.id;
import static io.sluice.gateway.JournalProbe.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Admission control of a gateway running as a real child process, attacked over real sockets: a flood of
 * connections that send two bytes and go, and 500 sockets that never log on, leave its resident memory and
 * its CPU use bounded (read from {@code /proc}) while a trading session keeps getting its orders acked;
 * connections over the per-address and per-gateway limits are closed at once; an attacker holding every pre-logon
 * buffer from several source addresses (127.0.0.2, .3, .4), idle or reopening what is closed, cannot keep a client
 * from 127.0.0.1 from logging on (the oldest waiting connection of the address holding most makes way, with a log
 * line naming it), and one address never holds more than its share; password guessing meets the failed-logon
 * throttle, the right password included, until the back-off ends, and never locks the CompID's owner out from
 * another address.
 */
class GatewayAdmissionTest {
    private static final Pattern LISTENING = Pattern.compile("listening on tcp://[^:]+:(\\d+)");
    private static final Pattern LIMIT_REFUSALS = Pattern.compile(
            "(\\d+) over maxConnections 5, (\\d+) over maxConnectionsPerAddress 3");
    private static final InetAddress OWNER = loopback(1);
    /** Eight pre-logon buffers, three per address at most, and no logon timeout to clear them within a test. */
    private static final String PRE_LOGON_POOL_OF_8 = """
              maxConnections: 64,
              maxConnectionsPerAddress: 32,
              preLogonBuffers: 8,
              preLogonBuffersPerAddress: 3,
              logonTimeoutMillis: 600000,""";
    private static final long CLOCK_TICKS_PER_SECOND = 100;

    @TempDir
    Path dir;
    private final List<SocketChannel> held = new ArrayList<>();
    private JavaProcess gateway;

    @AfterEach
    void tearDown() throws Exception {
        for (final SocketChannel channel : held) {
            channel.close();
        }
        if (gateway != null) {
            gateway.stop(10);
        }
    }

    @Test
    void connectionAndIdleSocketFloodsLeaveMemoryAndCpuBoundedWhileASessionKeepsTrading() throws Exception {
        final Path root = dir.resolve("journals");
        final SocketAddress address = start(root, "tcp://127.0.0.1:0", """
                  maxConnections: 1024,
                  maxConnectionsPerAddress: 1024,
                  preLogonBuffers: 600,
                  preLogonBuffersPerAddress: 600,
                  logonTimeoutMillis: 600000,""");
        int orders = 0;
        try (ChronicleQueue engineJournal = Journals.open(Journals.engineJournal(root));
             TestFixClient trader = new TestFixClient(address, "CLIENT1", 1)) {
            final EngineToGateway engine = engineJournal.methodWriter(EngineToGateway.class);
            trader.logon("secret1");
            trader.expect("A");
            for (; orders < 200; orders++) {
                roundTrip(trader, engine, orders);
            }
            final long rssBefore = residentKb();

            for (int cycle = 0; cycle < 4_000; cycle++) {
                try (SocketChannel attacker = SocketChannel.open(address)) {
                    attacker.write(ByteBuffer.wrap(new byte[] {'8', '='}));
                }
                if (cycle % 200 == 0) {
                    roundTrip(trader, engine, orders++);
                }
            }
            final long rssAfterFlood = residentKb();
            System.out.printf("gateway VmRSS before the connection flood %d kB, after 4000 cycles %d kB%n",
                    rssBefore, rssAfterFlood);
            assertTrue(rssAfterFlood - rssBefore < 64 * 1024,
                    "4000 connect/send/close cycles grew the gateway by " + (rssAfterFlood - rssBefore) + " kB");

            final double cpuWithoutIdleSockets = cpuCoresWhileTrading(trader, engine, orders);
            orders += 300;
            final long descriptors = openDescriptors();
            for (int i = 0; i < 500; i++) {
                held.add(SocketChannel.open(address));
            }
            await("the gateway holds the 500 idle sockets", () -> openDescriptors() >= descriptors + 500);
            final double cpuWithIdleSockets = cpuCoresWhileTrading(trader, engine, orders);
            orders += 300;
            final long rssWithIdleSockets = residentKb();
            System.out.printf("gateway CPU while trading: %.3f cores without idle sockets, %.3f cores with 500;"
                    + " VmRSS with 500 idle sockets %d kB%n", cpuWithoutIdleSockets, cpuWithIdleSockets,
                    rssWithIdleSockets);
            assertTrue(cpuWithIdleSockets < 0.5 && cpuWithIdleSockets - cpuWithoutIdleSockets < 0.25,
                    "with 500 idle sockets the gateway used " + cpuWithIdleSockets + " cores, without "
                            + cpuWithoutIdleSockets);
            assertTrue(rssWithIdleSockets - rssBefore < 64 * 1024,
                    "500 idle sockets grew the gateway by " + (rssWithIdleSockets - rssBefore) + " kB");
            final int sent = orders;
            await("every order is a command in the gateway journal",
                    () -> JournalProbe.commands(root, 1).size() == sent);
        }
    }

    @Test
    void connectionsOverTheLimitPerAddressAndPerGatewayAreClosedAtOnce() throws Exception {
        final SocketAddress address = start(dir.resolve("journals"), "tcp://127.0.0.1:0", """
                  maxConnections: 5,
                  maxConnectionsPerAddress: 3,""");
        final InetAddress first = InetAddress.getByName("127.0.0.1");
        final InetAddress second = InetAddress.getByName("127.0.0.2");
        final List<TestFixClient> admitted = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                admitted.add(new TestFixClient(address, first, "CLIENT1", "SLUICE", 1));
            }
            try (TestFixClient overAddressLimit = new TestFixClient(address, first, "CLIENT1", "SLUICE", 1)) {
                overAddressLimit.expectClosed();
            }
            for (int i = 0; i < 2; i++) {
                admitted.add(new TestFixClient(address, second, "CLIENT1", "SLUICE", 1));
            }
            try (TestFixClient overGatewayLimit = new TestFixClient(address, second, "CLIENT1", "SLUICE", 1)) {
                overGatewayLimit.expectClosed();
            }
            for (final TestFixClient client : admitted) {
                client.send(MsgTypes.HEARTBEAT, heartbeat -> { });
                assertEquals("First message must be a Logon (35=A)", client.expect("5").get(FixTags.TEXT),
                        "a connection within the limits is served");
            }
            await("both refusals are logged",
                    () -> count(LIMIT_REFUSALS, gateway.logText(), 1) + count(LIMIT_REFUSALS, gateway.logText(), 2) == 2);
            assertEquals(1, count(LIMIT_REFUSALS, gateway.logText(), 1), "over maxConnections: " + gateway.logText());
            assertEquals(1, count(LIMIT_REFUSALS, gateway.logText(), 2), "over maxConnectionsPerAddress: " + gateway.logText());
        } finally {
            for (final TestFixClient client : admitted) {
                client.close();
            }
        }
        try (TestFixClient trader = new TestFixClient(address, first, "CLIENT1", "SLUICE", 1)) {
            trader.logon("secret1");
            trader.expect("A");
        }
    }

    @Test
    void anAttackerHoldingEveryPreLogonBufferFromSeveralAddressesCannotKeepAClientFromLoggingOn() throws Exception {
        final SocketAddress address = start(dir.resolve("journals"), "tcp://127.0.0.1:0", PRE_LOGON_POOL_OF_8);
        final List<TestFixClient> attack = new ArrayList<>();
        try {
            for (final int[] sockets : new int[][] {{2, 3}, {3, 3}, {4, 2}}) {
                for (int i = 0; i < sockets[1]; i++) {
                    attack.add(new TestFixClient(address, loopback(sockets[0]), "CLIENT1", "SLUICE", 1));
                }
            }
            // The eight sockets are in the gateway's accept queue before the client's, and hold every buffer.
            try (TestFixClient client = new TestFixClient(address, OWNER, "CLIENT1", "SLUICE", 1)) {
                client.logon("secret1");
                client.expect("A");
            }
            final TestFixClient oldestOfTheFirstAddressHoldingMost = attack.getFirst();
            oldestOfTheFirstAddressHoldingMost.expectClosed();
            for (final TestFixClient other : attack.subList(1, attack.size())) {
                assertTrue(other.isOpen(), "only one connection made way for the client");
            }
            final String evictedFrom = logged(oldestOfTheFirstAddressHoldingMost.localAddress());
            await("the eviction is logged", () -> gateway.logText().contains(
                    "closed 1 connections waiting for their Logon"));
            assertTrue(gateway.logText().contains("first from " + evictedFrom + ", last from " + evictedFrom),
                    gateway::logText);
        } finally {
            for (final TestFixClient socket : attack) {
                socket.close();
            }
        }
    }

    @Test
    void anAttackerReopeningWhatIsClosedFromSeveralAddressesCannotKeepAClientFromLoggingOn() throws Exception {
        final SocketAddress address = start(dir.resolve("journals"), "tcp://127.0.0.1:0", PRE_LOGON_POOL_OF_8);
        try (ReopeningAttack attack = new ReopeningAttack(address, List.of(loopback(2), loopback(3), loopback(4)), 3)) {
            // Nine sockets for eight buffers: the gateway keeps closing one, the attack keeps reopening it.
            await("the attack has had a connection closed and reopened it", () -> attack.reopened() > 0);
            try (TestFixClient client = new TestFixClient(address, OWNER, "CLIENT1", "SLUICE", 1)) {
                client.logon("secret1");
                client.expect("A");
                final long reopenedAtLogon = attack.reopened();
                await("the attack goes on", () -> attack.reopened() > reopenedAtLogon + 100);
                client.expectNothingElse();
            }
            assertNull(attack.failure(), "the attack itself failed");
            System.out.println("connections closed by the gateway and reopened by the attack: " + attack.reopened());
        }
    }

    @Test
    void oneAddressHoldsAtMostItsShareOfThePreLogonBuffers() throws Exception {
        final SocketAddress address = start(dir.resolve("journals"), "tcp://127.0.0.1:0", PRE_LOGON_POOL_OF_8);
        final List<TestFixClient> fromOneAddress = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                fromOneAddress.add(new TestFixClient(address, loopback(2), "CLIENT1", "SLUICE", 1));
            }
            fromOneAddress.getFirst().expectClosed();
            final String evictedFrom = logged(fromOneAddress.getFirst().localAddress());
            for (final TestFixClient newer : fromOneAddress.subList(1, 4)) {
                newer.send(MsgTypes.HEARTBEAT, heartbeat -> { });
                assertEquals("First message must be a Logon (35=A)", newer.expect("5").get(FixTags.TEXT),
                        "the three newest are served");
            }
            await("the eviction is logged", () -> gateway.logText().contains("first from " + evictedFrom));
            assertTrue(gateway.logText().contains("its address holding preLogonBuffersPerAddress 3"), gateway::logText);
        } finally {
            for (final TestFixClient client : fromOneAddress) {
                client.close();
            }
        }
    }

    @Test
    void overAUnixDomainSocketOnlyTheGatewayLimitApplies() throws Exception {
        final Path socket = dir.resolve("gw.sock");
        final SocketAddress address = start(dir.resolve("journals"), "unix:" + socket, """
                  maxConnections: 4,
                  maxConnectionsPerAddress: 1,""");
        final List<TestFixClient> admitted = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                admitted.add(new TestFixClient(address, "CLIENT1", 1));
            }
            try (TestFixClient overGatewayLimit = new TestFixClient(address, "CLIENT1", 1)) {
                overGatewayLimit.expectClosed();
            }
            for (final TestFixClient client : admitted) {
                client.send(MsgTypes.HEARTBEAT, heartbeat -> { });
                assertEquals("First message must be a Logon (35=A)", client.expect("5").get(FixTags.TEXT));
            }
        } finally {
            for (final TestFixClient client : admitted) {
                client.close();
            }
        }
    }

    @Test
    void passwordGuessingMeetsTheThrottleAndTheRightPasswordWorksAgainAfterTheBackOff() throws Exception {
        final SocketAddress address = start(dir.resolve("journals"), "tcp://127.0.0.1:0",
                threeFailuresThenBlocked(2_000));
        for (int i = 0; i < 30; i++) {
            assertEquals(FixAcceptor.LOGON_REJECTED, logonText(address, "CLIENT1", "guess" + i));
        }
        // A wrong guess either renews the block (if the last one had ended) or meets it: blocked either way.
        assertEquals(FixAcceptor.LOGON_REJECTED, logonText(address, "CLIENT1", "one-more-guess"));
        assertEquals(FixAcceptor.LOGON_REJECTED, logonText(address, "CLIENT1", "secret1"),
                "the right password is refused while the CompID is blocked");
        assertEquals(FixAcceptor.LOGON_REJECTED, logonText(address, "NOBODY", "secret1"),
                "an unknown CompID reads the same");
        int refusedWhileBlocked = 0;
        final long deadline = System.currentTimeMillis() + 30_000;
        String answer;
        while (!(answer = logonText(address, "CLIENT1", "secret1")).isEmpty()) {
            assertEquals(FixAcceptor.LOGON_REJECTED, answer);
            refusedWhileBlocked++;
            assertTrue(System.currentTimeMillis() < deadline, "the back-off never ended");
        }
        System.out.println("logons refused while blocked, before the back-off ended: " + refusedWhileBlocked);
        final String log = gateway.logText();
        assertTrue(log.contains("refused (SenderCompID 'CLIENT1'): wrong TargetCompID (56), Username (553) or Password (554)"), log);
        assertTrue(log.contains("refused (SenderCompID 'CLIENT1'): blocked after repeated failed logons"), log);
        assertTrue(log.contains("more blocked logons since the last such line)"),
                "blocked logons are logged at most once a second, counting the others: " + log);
    }

    @Test
    void failedLogonsFromOneAddressNeverKeepTheCompIdsOwnerOutFromAnother() throws Exception {
        final SocketAddress address = start(dir.resolve("journals"), "tcp://127.0.0.1:0",
                threeFailuresThenBlocked(60_000));
        final InetAddress attacker = loopback(2);
        for (int i = 0; i < 10; i++) {
            assertEquals(FixAcceptor.LOGON_REJECTED, logonText(address, attacker, "CLIENT1", "guess" + i));
        }
        assertEquals(FixAcceptor.LOGON_REJECTED, logonText(address, attacker, "CLIENT1", "secret1"),
                "the guessing address is blocked, the right password included");
        assertEquals(FixAcceptor.LOGON_REJECTED, logonText(address, attacker, "NOBODY", "secret1"),
                "for every CompID, in the same words");
        assertEquals("", logonText(address, OWNER, "CLIENT1", "secret1"), "the owner logs on at once from its address");
        final String log = gateway.logText();
        assertTrue(log.contains("connection from tcp://127.0.0.2:"), log);
        assertTrue(log.contains("refused (SenderCompID 'CLIENT1'): blocked after repeated failed logons from this address"),
                log);
    }

    /** @return the throttle's keys: three failed logons allowed, then blocked for {@code millis}, never longer */
    private static String threeFailuresThenBlocked(final long millis) {
        return """
                  logonFailuresAllowed: 3,
                  logonBackoffMillis: %d,
                  logonBackoffMaxMillis: %<d,""".formatted(millis);
    }

    /** @return 127.0.0.{@code last}: a source address of its own for a client socket bound to it */
    private static InetAddress loopback(final int last) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
        } catch (final UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** @return how the gateway's log names a client's address */
    private static String logged(final InetSocketAddress client) {
        return "tcp://" + client.getAddress().getHostAddress() + ":" + client.getPort();
    }

    /** @return the sum of {@code group} over every match of {@code pattern} (refusals are logged once per burst) */
    private static int count(final Pattern pattern, final String log, final int group) {
        final Matcher line = pattern.matcher(log);
        int total = 0;
        while (line.find()) {
            total += Integer.parseInt(line.group(group));
        }
        return total;
    }

    /** @return the Text of the Logout answering a Logon with {@code password}, or "" if the Logon succeeded. */
    private static String logonText(final SocketAddress address, final String sender, final String password)
            throws IOException {
        return logonText(address, null, sender, password);
    }

    /** As {@link #logonText(SocketAddress, String, String)}, connecting from {@code from} (null: any address). */
    private static String logonText(final SocketAddress address, final InetAddress from, final String sender,
                                    final String password) throws IOException {
        try (TestFixClient client = new TestFixClient(address, from, sender, "SLUICE", 1)) {
            client.logon(password);
            final var answer = client.receive();
            if ("A".equals(answer.msgType())) {
                return "";
            }
            assertEquals("5", answer.msgType(), answer::toString);
            client.expectClosed();
            return answer.get(FixTags.TEXT);
        }
    }

    private SocketAddress start(final Path root, final String listen, final String limits) throws Exception {
        final Path config = dir.resolve("gateway.yaml");
        Files.writeString(config, """
                !GatewayConfig {
                  gatewayId: 1,
                  journalRoot: "%s",
                  listen: "%s",
                  idle: backoff,
                %s
                  sessions: [ !Session { senderCompId: CLIENT1, targetCompId: SLUICE, password: secret1 } ]
                }
                """.formatted(root, listen, limits));
        gateway = GatewayProcess.startListening(dir, "gateway", config);
        if (listen.startsWith("unix:")) {
            return UnixDomainSocketAddress.of(listen.substring("unix:".length()));
        }
        final Matcher port = LISTENING.matcher(gateway.logText());
        assertTrue(port.find(), gateway::logText);
        return new InetSocketAddress("127.0.0.1", Integer.parseInt(port.group(1)));
    }

    private static void roundTrip(final TestFixClient trader, final EngineToGateway engine, final int order)
            throws IOException {
        trader.newOrder("ORD-" + order, "VOD.L", '1', 100, "101.25");
        final ExecutionReport report = EventFixtures.executionReport();
        report.execId(order).gatewayId(1).session(id("CLIENT1"));
        engine.executionReport(report);
        assertEquals(Integer.toString(order), trader.expect("8").get(FixTags.EXEC_ID));
    }

    /**
     * 300 order round trips, one every 10 ms at most, so that they span at least three seconds; @return the
     * gateway's CPU time over that window, in cores.
     */
    private double cpuCoresWhileTrading(final TestFixClient trader, final EngineToGateway engine, final int from)
            throws Exception {
        final long cpuBefore = cpuTicks();
        final long start = System.nanoTime();
        for (int i = 0; i < 300; i++) {
            roundTrip(trader, engine, from + i);
            final long pace = start + (i + 1) * 10_000_000L;
            // Pacing the load over a measuring window, not waiting for anything to happen.
            for (long left = pace - System.nanoTime(); left > 0; left = pace - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        return (cpuTicks() - cpuBefore) / (double) CLOCK_TICKS_PER_SECOND / seconds;
    }

    /** @return utime + stime of the gateway process, in clock ticks (/proc/pid/stat fields 14 and 15). */
    private long cpuTicks() throws IOException {
        final String stat = Files.readString(Path.of("/proc/" + gateway.pid() + "/stat"));
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** @return the gateway process's resident set (VmRSS of /proc/pid/status), in kB. */
    private long residentKb() throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc/" + gateway.pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new AssertionError("no VmRSS in /proc/" + gateway.pid() + "/status");
    }

    private long openDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + gateway.pid() + "/fd"))) {
            return fds.count();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
