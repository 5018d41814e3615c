package io.sluice.replay;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineMain;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.gateway.GatewayMain;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.queue.ChronicleQueue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A session recorded by real processes, as in production. FIX clients ({@link TestFixClient}) send orders and cancels
 * through two real gateway processes ({@link GatewayMain}, over Unix domain sockets) while a real engine process
 * ({@link EngineMain}) consumes the gateway journals live and writes its journal. On gateway
 * 1, CLIENT1 and CLIENT2 trade VOD.L with each other; on gateway 2, CLIENT3 alone trades AZN.L. Gateway 1's
 * command {@value #JUMBO_AT} (CLIENT1's, sent first) is a jumbo order ({@link #JUMBO_QTY}); every
 * other quantity is at most 100, so a lower {@code maxOrderQty} in a replay's config changes exactly that
 * order's fate.
 * <p>
 * Recorded once per test JVM ({@link #shared()}); tests that damage journals work on a {@link #copyTo copy}.
 */
public final class RecordedSession {
    /** Commands per FIX client: CLIENT1 and CLIENT2 on gateway 1, CLIENT3 on gateway 2. */
    public static final int[] COMMANDS = {400, 300, 200};
    /** Gateway 1's event id of the jumbo order: CLIENT1's 37th, all of which come before CLIENT2's. */
    public static final long JUMBO_AT = 37;
    /** The quantity of the jumbo order. */
    public static final long JUMBO_QTY = 500;
    /** The recording's engine config (journalRoot is set per recording); %s is the journal root. */
    private static final String CONFIG = """
            !EngineConfig {
              journalRoot: "%s",
              gatewayIds: [ %s ],
              idle: { strategy: backoff },
              maxOpenOrders: 10000,
              completedOrderMemory: 10000,
              maxPriceLevels: 64,
              instruments: [
                { symbol: VOD.L, tickSize: 0.01, lotSize: 10, priceLow: 50, priceHigh: 150, maxOrderQty: %d, maxNotional: 1000000 },
                { symbol: AZN.L, tickSize: 0.5, lotSize: 1, priceLow: 5000, priceHigh: 15000, maxOrderQty: 1000, maxNotional: 100000000 }
              ]
            }
            """;
    /** How long to wait between two looks at a child process's log. */
    private static final long POLL_NANOS = 10_000_000L;
    private static RecordedSession shared;

    private final Path root;

    private RecordedSession(final Path root) {
        this.root = root;
    }

    /** @return the session recorded for this test JVM (recording it on first use); never modify it. */
    public static synchronized RecordedSession shared() throws Exception {
        if (shared == null) {
            final Path root = Files.createTempDirectory("sluice-recorded-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> ReplayAssertions.deleteTree(root)));
            shared = record(root);
        }
        return shared;
    }

    /** Records a session under {@code root} with real gateway and engine processes. */
    public static RecordedSession record(final Path root) throws Exception {
        final RecordedSession session = new RecordedSession(root);
        Files.writeString(session.configFile(), configYaml(root, 1000));
        try (JavaProcess gateway1 = gateway(root, 1, 1, 2);
             JavaProcess gateway2 = gateway(root, 2, 3)) {
            awaitListening(root, 1, gateway1);
            awaitListening(root, 2, gateway2);
            try (JavaProcess engine = engine(root, session.configFile());
                 TestFixClient client1 = client(root, 1, 1);
                 TestFixClient client2 = client(root, 1, 2);
                 TestFixClient client3 = client(root, 2, 3)) {
                sendFlow(client1, COMMANDS[0], 1, "VOD.L", JUMBO_AT);
                sendFlow(client2, COMMANDS[1], 2, "VOD.L", 0);
                sendFlow(client3, COMMANDS[2], 3, "AZN.L", 0);
                awaitConsumed(root, COMMANDS[0] + COMMANDS[1] + COMMANDS[2], engine, client1, client2, client3);
            }
        }
        return session;
    }

    /** Starts the engine process with {@code configFile}, logging to {@code root}/logs/engine.log. */
    static JavaProcess engine(final Path root, final Path configFile) throws IOException {
        return JavaProcess.start("engine", root.resolve("logs").resolve("engine.log"), List.of("-Xmx256m"),
                EngineMain.class, "--config", configFile.toString());
    }

    /** Starts gateway {@code id} on a Unix domain socket under {@code root}, with FIX sessions CLIENT{@code n} for each of {@code clients}. */
    static JavaProcess gateway(final Path root, final int id, final int... clients) throws IOException {
        final StringBuilder sessions = new StringBuilder();
        for (final int n : clients) {
            sessions.append(sessions.isEmpty() ? "" : ", ")
                    .append("!Session { senderCompId: CLIENT%d, targetCompId: SLUICE, password: secret%d }".formatted(n, n));
        }
        final Path config = Files.writeString(root.resolve("gateway-" + id + ".yaml"), """
                !GatewayConfig {
                  gatewayId: %d,
                  journalRoot: "%s",
                  listen: "unix:%s",
                  sessions: [ %s ]
                }
                """.formatted(id, root, socket(root, id), sessions));
        return JavaProcess.start("gateway-" + id, root.resolve("logs").resolve("gateway-" + id + ".log"),
                List.of("-Xmx256m"), GatewayMain.class, "--config", config.toString());
    }

    /**
     * Waits until gateway {@code id} says it listens: it prints so once its socket accepts connections (the
     * socket file alone appears at bind, before listen, when a connection is still refused).
     */
    static void awaitListening(final Path root, final int id, final JavaProcess gateway) {
        // Generous: JVMs starting together on two shared cores each compile their method readers and writers.
        final long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        final String listening = "gateway " + id + " listening on unix:";
        while (!gateway.logText().contains(listening)) {
            checkDeadline(deadline, gateway, "gateway " + id + " to listen");
            LockSupport.parkNanos(POLL_NANOS); // between reads of its log
        }
    }

    /** Connects CLIENT{@code n} to gateway {@code gatewayId} and logs on, waiting for the gateway's Logon. */
    static TestFixClient client(final Path root, final int gatewayId, final int n) throws IOException {
        final TestFixClient client = new TestFixClient(UnixDomainSocketAddress.of(socket(root, gatewayId)), "CLIENT" + n, 1);
        client.logon("secret" + n).expect("A");
        return client;
    }

    /**
     * Sends {@code orders} commands of a seeded flow in {@code symbol} (VOD.L or AZN.L): about four limit
     * orders, with quantities up to 100, to each cancel; order {@code jumboAt} (if not 0) is a limit order for
     * {@link #JUMBO_QTY}. What the gateway sends back is read and dropped as it arrives.
     */
    static void sendFlow(final TestFixClient client, final int orders, final long seed, final String symbol,
                         final long jumboAt) throws IOException {
        final SplittableRandom random = new SplittableRandom(seed);
        final int mid = symbol.startsWith("AZN") ? 10_000 : 100;
        for (int n = 1; n <= orders; n++) {
            final String clOrdId = "C" + n;
            if (n != jumboAt && n > 5 && random.nextInt(5) == 0) {
                final String orig = "C" + (n - 1 - random.nextInt(5));
                client.send(MsgTypes.ORDER_CANCEL_REQUEST, cancel -> cancel.textField(FixTags.ORIG_CL_ORD_ID, orig)
                        .textField(FixTags.CL_ORD_ID, clOrdId).textField(FixTags.SYMBOL, symbol).charField(FixTags.SIDE, '1')
                        .timestampField(FixTags.TRANSACT_TIME, System.currentTimeMillis()));
            } else {
                final char side = random.nextBoolean() ? '1' : '2';
                final String price = (mid - 2 + random.nextInt(5)) + "." + (random.nextBoolean() ? "00" : "50");
                final long qty = n == jumboAt ? JUMBO_QTY : 10L * (1 + random.nextInt(10));
                client.newOrder(clOrdId, symbol, side, qty, price);
            }
            client.skipArrived();
        }
    }

    private static Path socket(final Path root, final int id) {
        return root.resolve("gw" + id + ".sock");
    }

    /**
     * Waits until the engine journal under {@code root} answers {@code inputs} inputs, meanwhile reading and dropping
     * what the gateways send {@code clients}.
     */
    static void awaitConsumed(final Path root, final long inputs, final JavaProcess engine,
                              final TestFixClient... clients) {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        final Path dir = Journals.engineJournal(root);
        while (!Files.exists(dir.resolve("metadata.cq4t"))) {
            checkDeadline(deadline, engine, "the engine journal to appear");
            Thread.onSpinWait();
        }
        try (ChronicleQueue journal = Journals.openReadOnly(dir);
             ConsumptionOrder order = new ConsumptionOrder(journal)) {
            long consumed = 0;
            while (consumed < inputs) {
                if (order.next()) {
                    consumed++;
                } else {
                    checkDeadline(deadline, engine, "the engine to answer " + inputs + " inputs (answered " + consumed + ")");
                    skipArrived(clients);
                    Thread.onSpinWait();
                }
            }
        }
    }

    private static void skipArrived(final TestFixClient... clients) {
        try {
            for (final TestFixClient client : clients) {
                client.skipArrived();
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void checkDeadline(final long deadline, final JavaProcess process, final String what) {
        if (!process.isAlive()) {
            throw new IllegalStateException(process.name() + " exited while waiting for " + what + "; its log: " + process.logText());
        }
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("timed out waiting for " + what + "; " + process.name() + " log: " + process.logText()
                    + "\n" + process.name() + " threads:\n" + threadDump(process));
        }
    }

    /** @return the process's threads as {@code jcmd Thread.print} shows them, to tell where a stuck process is. */
    private static String threadDump(final JavaProcess process) {
        final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            final Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            final String text = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            dump.waitFor();
            return text;
        } catch (final IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    /** @return the recording's engine config text with {@code maxOrderQty} for VOD.L: to change one rule. */
    public static String configYaml(final Path journalRoot, final long vodMaxOrderQty) {
        return configYaml(journalRoot, "1, 2", vodMaxOrderQty);
    }

    /** @return the recording's engine config text with VOD.L's price band ending at {@code priceHigh}, not 150 */
    public static String configYamlWithVodPriceHigh(final Path journalRoot, final long priceHigh) {
        final String recording = configYaml(journalRoot, 1000);
        final String band = "priceLow: 50, priceHigh: 150";
        if (!recording.contains(band)) {
            throw new IllegalStateException("the recording's config no longer says '" + band + "' for VOD.L");
        }
        return recording.replace(band, "priceLow: 50, priceHigh: " + priceHigh);
    }

    /** @return the engine config text for the gateways {@code gatewayIds} (e.g. "1, 2"). */
    public static String configYaml(final Path journalRoot, final String gatewayIds, final long vodMaxOrderQty) {
        return CONFIG.formatted(journalRoot.toString().replace("\\", "/"), gatewayIds, vodMaxOrderQty);
    }

    /** @return the directory holding the recorded journals. */
    public Path root() {
        return root;
    }

    /** @return the engine config file the recording ran with. */
    public Path configFile() {
        return root.resolve("engine.yaml");
    }

    /** @return the engine config the recording ran with. */
    public EngineConfig config() {
        return EngineConfig.load(configFile());
    }

    /** @return the recording's config with a different VOD.L maxOrderQty. */
    public EngineConfig configWithVodMaxOrderQty(final long maxOrderQty) {
        return EngineConfig.parse(configYaml(root, maxOrderQty), "a changed copy of " + configFile());
    }

    /**
     * Copies the recorded journals and config to {@code target}, for tests that damage them; directories keep their
     * modes (the admin journal's is owner-only, which every reader of it checks).
     */
    public RecordedSession copyTo(final Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (final Path path : paths.toList()) {
                final Path copy = target.resolve(root.relativize(path).toString());
                if (path.equals(root)) {
                    Files.createDirectories(copy);
                } else if (Files.isDirectory(path)) {
                    Files.copy(path, copy, StandardCopyOption.COPY_ATTRIBUTES);
                } else {
                    Files.copy(path, copy);
                }
            }
        }
        return new RecordedSession(target);
    }
}
