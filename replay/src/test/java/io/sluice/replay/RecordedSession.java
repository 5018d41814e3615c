package io.sluice.replay;

import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.process.JavaProcess;
import io.sluice.engine.EngineMain;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import net.openhft.chronicle.queue.ChronicleQueue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * A session recorded by real processes, as in production: three gateway processes
 * ({@link RecordingGatewayMain}, standing in for FIX gateways) write their journals while a real engine
 * process ({@link EngineMain}) consumes them live and writes its journal. Gateways 1 and 2 trade VOD.L with
 * each other; gateway 3 alone trades AZN.L. Gateway 1's command {@value #JUMBO_AT} is a jumbo order.
 * <p>
 * Recorded once per test JVM ({@link #shared()}); tests that damage journals work on a {@link #copyTo copy}.
 */
public final class RecordedSession {
    /** Commands per gateway, gateways 1, 2 and 3. */
    public static final int[] COMMANDS = {400, 300, 200};
    /** Gateway 1's event id of the jumbo order. */
    public static final long JUMBO_AT = 37;
    /** The recording's engine config (journalRoot is set per recording); %s is the journal root. */
    private static final String CONFIG = """
            !io.sluice.engine.config.EngineConfig {
              journalRoot: "%s",
              gatewayIds: [ 1, 2, 3 ],
              idleStrategy: BACK_OFF,
              maxOpenOrders: 10000,
              completedOrderMemory: 10000,
              maxPriceLevels: 64,
              instruments: [
                { symbol: VOD.L, tickSize: 0.01, lotSize: 10, priceLow: 50, priceHigh: 150, maxOrderQty: %d, maxNotional: 1000000 },
                { symbol: AZN.L, tickSize: 0.5, lotSize: 1, priceLow: 5000, priceHigh: 15000, maxOrderQty: 1000, maxNotional: 100000000 }
              ]
            }
            """;
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
        final Path logs = root.resolve("logs");
        try (JavaProcess engine = JavaProcess.start("engine", logs.resolve("engine.log"), List.of("-Xmx256m"),
                EngineMain.class, "--config", session.configFile().toString());
             JavaProcess gateway1 = gateway(root, 1, "VOD.L", JUMBO_AT);
             JavaProcess gateway2 = gateway(root, 2, "VOD.L", 0);
             JavaProcess gateway3 = gateway(root, 3, "AZN.L", 0)) {
            for (final JavaProcess gateway : List.of(gateway1, gateway2, gateway3)) {
                if (gateway.waitFor(60) != 0) {
                    throw new IllegalStateException(gateway.name() + " failed: " + gateway.logText());
                }
            }
            awaitConsumed(root, COMMANDS[0] + COMMANDS[1] + COMMANDS[2], engine);
        }
        return session;
    }

    private static JavaProcess gateway(final Path root, final int id, final String symbol, final long jumboAt)
            throws IOException {
        return JavaProcess.start("gateway-" + id, root.resolve("logs").resolve("gateway-" + id + ".log"),
                List.of("-Xmx128m"), RecordingGatewayMain.class, root.toString(), Integer.toString(id),
                Integer.toString(COMMANDS[id - 1]), symbol, "100", Long.toString(jumboAt));
    }

    /** Waits until the engine journal under {@code root} answers {@code inputs} inputs. */
    private static void awaitConsumed(final Path root, final long inputs, final JavaProcess engine) {
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
                    Thread.onSpinWait();
                }
            }
        }
    }

    private static void checkDeadline(final long deadline, final JavaProcess engine, final String what) {
        if (System.nanoTime() > deadline || !engine.isAlive()) {
            throw new IllegalStateException("timed out waiting for " + what + "; engine log: " + engine.logText());
        }
    }

    /** @return the recording's engine config text with {@code maxOrderQty} for VOD.L: to change one rule. */
    public static String configYaml(final Path journalRoot, final long vodMaxOrderQty) {
        return CONFIG.formatted(journalRoot.toString().replace("\\", "/"), vodMaxOrderQty);
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

    /** Copies the recorded journals and config to {@code target}, for tests that damage them. */
    public RecordedSession copyTo(final Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (final Path path : paths.toList()) {
                final Path copy = target.resolve(root.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(path, copy);
                }
            }
        }
        return new RecordedSession(target);
    }
}
