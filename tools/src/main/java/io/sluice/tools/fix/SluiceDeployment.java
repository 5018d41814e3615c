package io.sluice.tools.fix;

import io.sluice.marketdata.MarketDataMain;
import io.sluice.runtime.journal.JournalSpace;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole Sluice deployment on this host, every part a real child JVM. One engine and the given gateways, each with a
 * YAML config written under {@code root/config}, journals under {@code root/journals}, logs under {@code root/logs}.
 * {@link #start} returns once every part is ready (polled: the engine has
 * recovered, each gateway accepts connections). Used by the demo, the FIX benchmarks and the end-to-end
 * tests, which may also kill a gateway with {@code kill -9} and start it again on the same journals.
 */
public final class SluiceDeployment implements AutoCloseable {
    /** The one instrument the demo and benchmarks trade. */
    public static final String SYMBOL = "SLC";
    /** The CompID every gateway answers as (the clients' TargetCompID). */
    public static final String GATEWAY_COMP_ID = "SLUICE";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    /**
     * One gateway of the deployment.
     *
     * @param id        the gateway id (its journal is {@code gateway-<id>})
     * @param transport TCP on a free loopback port, or a Unix domain socket under the root
     * @param sessions  the client sessions it accepts (SenderCompID, username, password)
     * @param sessionSettings more YAML keys of a session's entry by SenderCompID, e.g.
     *                        {@code "maxMessagesPerSecond: 100, throttleAction: reject"}; none for most
     * @param gatewaySettings more YAML keys of the gateway's own, e.g.
     *                        {@code "validation: { validateIncomingMessage: false }"}; empty for most
     */
    public record GatewaySpec(int id, FixTransport transport, List<SessionIdentity> sessions,
                              Map<String, String> sessionSettings, String gatewaySettings) {
        public GatewaySpec(final int id, final FixTransport transport, final List<SessionIdentity> sessions) {
            this(id, transport, sessions, Map.of());
        }

        public GatewaySpec(final int id, final FixTransport transport, final List<SessionIdentity> sessions,
                           final Map<String, String> sessionSettings) {
            this(id, transport, sessions, sessionSettings, "");
        }
    }

    /**
     * How the deployment's JVMs run. Their class path, extra JVM flags per role (a GC, an AOT cache), and the CPU the
     * engine pins its thread to ({@link CpuPinning#NONE}: none).
     */
    public record ProcessSettings(String classPath, List<String> engineJvm, List<String> gatewayJvm, int engineCpu) {
        /** @return this JVM's class path, no extra flags, no pinning. */
        public static ProcessSettings defaults() {
            return new ProcessSettings(System.getProperty("java.class.path"), List.of(), List.of(), CpuPinning.NONE);
        }
    }

    /**
     * How much disk each journal writer keeps reserved ahead of it, and the free space that draws a warning. They are
     * {@code journalReserveBytes} and {@code diskWarningBytes} in the engine's and gateways' configs.
     */
    public record JournalDisk(long engineReserveBytes, long gatewayReserveBytes, long warningBytes) {
        /** The engine's and gateways' own defaults. */
        public static final JournalDisk DEFAULTS = new JournalDisk(JournalSpace.DEFAULT_RESERVE_BYTES,
                JournalSpace.DEFAULT_RESERVE_BYTES, JournalSpace.DEFAULT_WARNING_BYTES);
    }

    private final Path root;
    private SluiceTls tls;
    private final ProcessSettings settings;
    private final SluiceIdle idle;
    private final JournalDisk disk;
    private final Map<Integer, GatewaySpec> specs = new LinkedHashMap<>();
    private final Map<Integer, FixEndpoint> endpoints = new LinkedHashMap<>();
    private final Map<Integer, JavaProcess> gateways = new LinkedHashMap<>();
    private final Thread killOnExit = new Thread(this::killAll, "sluice-deployment-kill-on-exit");
    private JavaProcess engine;
    private JavaProcess marketData;
    private String gatewayReplication = "none";
    private String engineSettings = "";

    private SluiceDeployment(final Path root, final ProcessSettings settings, final SluiceIdle idle,
                             final JournalDisk disk) {
        this.root = root;
        this.settings = settings;
        this.idle = idle;
        this.disk = disk;
    }

    /**
     * Writes the configs and starts the engine and every gateway, each in its own JVM.
     *
     * @param root an empty directory that will hold configs, journals and logs
     */
    public static SluiceDeployment start(final Path root, final List<GatewaySpec> gateways)
            throws IOException, InterruptedException {
        return start(root, gateways, SluiceIdle.BACKOFF, List.of());
    }

    /**
     * As {@link #start(Path, List)}, with the engine's and gateways' idle strategy and JVM flags for the gateway
     * processes only (e.g. a GC to measure).
     */
    public static SluiceDeployment start(final Path root, final List<GatewaySpec> gateways, final SluiceIdle idle,
                                         final List<String> gatewayJvm) throws IOException, InterruptedException {
        final ProcessSettings defaults = ProcessSettings.defaults();
        return start(root, gateways, idle, new ProcessSettings(defaults.classPath(), List.of(), gatewayJvm,
                CpuPinning.NONE));
    }

    /** As {@link #start(Path, List)}, with the idle strategy and how each JVM runs. */
    public static SluiceDeployment start(final Path root, final List<GatewaySpec> gateways, final SluiceIdle idle,
                                         final ProcessSettings settings) throws IOException, InterruptedException {
        return start(root, gateways, idle, settings, JournalDisk.DEFAULTS);
    }

    /** As {@link #start(Path, List, SluiceIdle, ProcessSettings)}, with the journals' disk reserves. */
    public static SluiceDeployment start(final Path root, final List<GatewaySpec> gateways, final SluiceIdle idle,
                                         final ProcessSettings settings, final JournalDisk disk)
            throws IOException, InterruptedException {
        return start(root, gateways, idle, settings, disk, null);
    }

    /**
     * Chooses the gateways' endpoints and starts nothing: the caller starts each part with {@link #launchEngine()}
     * and {@link #launchGateway(int)}, e.g. to see how it fails.
     */
    public static SluiceDeployment prepare(final Path root, final List<GatewaySpec> gateways, final SluiceIdle idle,
                                           final ProcessSettings settings, final JournalDisk disk) throws IOException {
        return prepare(root, gateways, idle, settings, disk, null);
    }

    /**
     * As {@link #start(Path, List, SluiceIdle, ProcessSettings, JournalDisk)}, the TLS gateways with the keys of
     * {@code tls} (e.g. a trust store for client certificates).
     */
    public static SluiceDeployment start(final Path root, final List<GatewaySpec> gateways, final SluiceIdle idle,
                                         final ProcessSettings settings, final JournalDisk disk, final SluiceTls tls)
            throws IOException, InterruptedException {
        final SluiceDeployment deployment = prepare(root, gateways, idle, settings, disk, tls);
        try {
            for (final GatewaySpec spec : gateways) {
                deployment.startGateway(spec.id());
            }
            deployment.launchEngine().requireAlive();
            return deployment;
        } catch (final IOException | RuntimeException e) {
            deployment.close();
            throw e;
        }
    }

    /** As {@link #prepare(Path, List, SluiceIdle, ProcessSettings, JournalDisk)}; {@code tls} null: keys made on first use. */
    public static SluiceDeployment prepare(final Path root, final List<GatewaySpec> gateways, final SluiceIdle idle,
                                           final ProcessSettings settings, final JournalDisk disk, final SluiceTls tls)
            throws IOException {
        final SluiceDeployment deployment = new SluiceDeployment(root, settings, idle, disk);
        deployment.tls = tls;
        Runtime.getRuntime().addShutdownHook(deployment.killOnExit);
        Files.createDirectories(root.resolve("config"));
        Files.createDirectories(deployment.journals());
        for (final GatewaySpec spec : gateways) {
            deployment.specs.put(spec.id(), spec);
            deployment.endpoints.put(spec.id(), switch (spec.transport()) {
                case TCP -> FixEndpoint.tcp("127.0.0.1", LoopbackPorts.free());
                case UDS -> FixEndpoint.uds(root.resolve("gateway-" + spec.id() + ".sock"));
                case TLS -> FixEndpoint.tls("127.0.0.1", LoopbackPorts.free(), deployment.tls().clientContext());
            });
        }
        return deployment;
    }

    /**
     * Starts the engine (again, after it stopped) and returns once it has recovered, or has exited.
     *
     * @return the engine's process: alive if it is processing
     */
    public JavaProcess launchEngine() throws IOException {
        final Path engineConfig = writeEngineConfig();
        final JavaProcess started = JavaProcess.start("engine", logs().resolve("engine.log"), settings.classPath(),
                settings.engineJvm(), SluiceRoles.engineMain(), "--config", engineConfig.toString());
        engine = started;
        PollUntil.await(() -> !started.isAlive() || SluiceRoles.engineReady(started.logText()), READY_TIMEOUT,
                () -> "the engine to recover; its log: " + started.logText());
        return started;
    }

    /** @return the command line that starts the engine on this deployment (its config written), for another process */
    public List<String> engineCommand() throws IOException {
        return JavaProcess.command(settings.classPath(), settings.engineJvm(), SluiceRoles.engineMain().getName(),
                "--config", writeEngineConfig().toString());
    }

    /** @return the command line that starts gateway {@code id} (its config written), for another process */
    public List<String> gatewayCommand(final int id) throws IOException {
        return JavaProcess.command(settings.classPath(), settings.gatewayJvm(), SluiceRoles.gatewayMain().getName(),
                "--config", writeGatewayConfig(id).toString());
    }

    private Path writeEngineConfig() throws IOException {
        final Path engineConfig = root.resolve("config/engine.yaml");
        Files.writeString(engineConfig, SluiceConfigs.engine(journals(), specs.keySet(), SYMBOL, idle,
                settings.engineCpu(), disk, engineSettings));
        return engineConfig;
    }

    private Path writeGatewayConfig(final int id) throws IOException {
        final GatewaySpec spec = specs.get(id);
        final Path config = root.resolve("config/gateway-" + id + ".yaml");
        Files.writeString(config, SluiceConfigs.gateway(journals(), spec, endpoints.get(id), GATEWAY_COMP_ID, idle, disk,
                spec.transport() == FixTransport.TLS ? tls() : null, gatewayReplication));
        return config;
    }

    /** Sets more YAML keys of the engine's config (e.g. {@code "counters: false"}) for its starts from now on. */
    public SluiceDeployment engineSettings(final String yamlKeys) {
        this.engineSettings = yamlKeys;
        return this;
    }

    /**
     * Sets the {@code replication} option ({@code none}, the default, or {@code acknowledged}) of the gateways started
     * from now on.
     */
    public SluiceDeployment gatewayReplication(final String mode) {
        this.gatewayReplication = mode;
        return this;
    }

    /**
     * Starts {@code ./sluice marketdata} on the deployment's journals, deriving the feed of {@link #SYMBOL} (its UDP
     * packets to the discard port, retransmission on a free port), and returns once it is live. Start it after the
     * engine and before a gateway that serves market data ({@code marketData} in its settings).
     */
    public JavaProcess launchMarketData() throws IOException {
        final Path config = Files.writeString(root.resolve("config/marketdata.yaml"), """
                !MarketDataConfig {
                  journalRoot: "%s",
                  instruments: [ %s ],
                  incremental: [ "127.0.0.1:9" ],
                  retransmit: "127.0.0.1:0",
                  idle: { strategy: %s }
                }
                """.formatted(journals(), SYMBOL, idle.gatewayIdle().strategy()));
        final JavaProcess started = JavaProcess.start("marketdata", logs().resolve("marketdata.log"),
                settings.classPath(), List.of(), MarketDataMain.class, "--config", config.toString());
        marketData = started;
        PollUntil.await(() -> !started.isAlive() || started.logText().contains("marketdata: live"), READY_TIMEOUT,
                () -> "marketdata to go live; its log: " + started.logText());
        started.requireAlive();
        return started;
    }

    /** Starts gateway {@code id} (again, after a kill) and returns once it accepts connections. */
    public void startGateway(final int id) throws IOException {
        launchGateway(id).requireAlive();
    }

    /**
     * Starts gateway {@code id} and returns once it accepts connections, or has exited.
     *
     * @return the gateway's process: alive if it accepts connections
     */
    public JavaProcess launchGateway(final int id) throws IOException {
        final FixEndpoint endpoint = endpoints.get(id);
        final Path config = writeGatewayConfig(id);
        final JavaProcess gateway = JavaProcess.start("gateway-" + id, logs().resolve("gateway-" + id + ".log"),
                settings.classPath(), settings.gatewayJvm(), SluiceRoles.gatewayMain(), "--config", config.toString());
        gateways.put(id, gateway);
        PollUntil.await(() -> !gateway.isAlive() || endpoint.isAccepting(), READY_TIMEOUT,
                () -> "gateway " + id + " to accept on " + endpoint + "; its log: " + gateway.logText());
        return gateway;
    }

    /** Kills gateway {@code id} with SIGKILL, as a crash would. */
    public void killGateway(final int id) throws InterruptedException {
        gateways.get(id).kill9();
    }

    /** @return where clients of gateway {@code id} connect. */
    public FixEndpoint endpoint(final int id) {
        return endpoints.get(id);
    }

    public JavaProcess engine() {
        return engine;
    }

    public JavaProcess gateway(final int id) {
        return gateways.get(id);
    }

    /** @return the run's TLS keys, made under {@code <root>/tls} on first use. */
    public SluiceTls tls() throws IOException {
        if (tls == null) {
            tls = SluiceTls.create(root.resolve("tls"));
        }
        return tls;
    }

    public Path root() {
        return root;
    }

    /** @return every child's log, for failure messages. */
    public String logs(final int maxCharsEach) {
        final StringBuilder text = new StringBuilder();
        final List<JavaProcess> all = new ArrayList<>(gateways.values());
        if (marketData != null) {
            all.addFirst(marketData);
        }
        if (engine != null) {
            all.addFirst(engine);
        }
        for (final JavaProcess process : all) {
            final String log = process.logText();
            text.append("--- ").append(process.name()).append(" (").append(process.log()).append(")\n")
                    .append(log, Math.max(0, log.length() - maxCharsEach), log.length()).append('\n');
        }
        return text.toString();
    }

    /** @return the journal root of this deployment: the directory a {@code ./sluice tail --root} follows */
    public Path journals() {
        return root.resolve("journals");
    }

    private Path logs() {
        return root.resolve("logs");
    }

    /** Stops the gateways, marketdata, then the engine (SIGTERM, then SIGKILL after a grace period). */
    @Override
    public void close() throws InterruptedException {
        for (final JavaProcess gateway : gateways.values()) {
            gateway.stop(STOP_TIMEOUT.toSeconds());
        }
        if (marketData != null) {
            marketData.stop(STOP_TIMEOUT.toSeconds());
        }
        if (engine != null) {
            engine.stop(STOP_TIMEOUT.toSeconds());
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (final IllegalStateException alreadyExiting) {
            // the hook is running or about to: it finds the processes gone
        }
    }

    /** If this JVM exits first (Ctrl-C, SIGTERM), no child may outlive it. */
    private void killAll() {
        for (final JavaProcess gateway : gateways.values()) {
            kill(gateway);
        }
        if (marketData != null) {
            kill(marketData);
        }
        if (engine != null) {
            kill(engine);
        }
    }

    private static void kill(final JavaProcess process) {
        try {
            process.kill9();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Deletes {@code dir} and everything below it (the deployment's temporary root). */
    public static void deleteTree(final Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
