package io.sluice.systemtests.script;

import io.sluice.engine.EngineMain;
import io.sluice.gateway.GatewayMain;
import io.sluice.marketdata.MarketDataMain;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.LoopbackPorts;
import io.sluice.tools.fix.SluiceConfigs;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One engine process and one gateway process on fresh journals. The gateway listens on a free loopback port with
 * the sessions it is given: the deployment that session-level scripts play against, each with a session of its own.
 */
public final class ScriptedDeployment implements AutoCloseable {
    /** The instruments a deployment with market data trades: scripts subscribe to the first. */
    public static final List<String> MARKET_DATA_SYMBOLS = List.of(SluiceDeployment.SYMBOL, "SLD");
    private static final Duration READY = Duration.ofSeconds(180);

    private final Path dir;
    private final FixEndpoint gateway;
    private final JavaProcess engineProcess;
    private final JavaProcess marketDataProcess;
    private final JavaProcess gatewayProcess;

    private ScriptedDeployment(final Path dir, final FixEndpoint gateway, final JavaProcess engineProcess,
                               final JavaProcess marketDataProcess, final JavaProcess gatewayProcess) {
        this.dir = dir;
        this.gateway = gateway;
        this.engineProcess = engineProcess;
        this.marketDataProcess = marketDataProcess;
        this.gatewayProcess = gatewayProcess;
    }

    /**
     * Starts both and waits until the engine has recovered and the gateway accepts.
     *
     * @param gatewaySettings more keys of the gateway's YAML, each line ending with a comma, or empty
     * @param sessions        the gateway's {@code !Session} entries, one a line, comma-separated
     */
    static ScriptedDeployment start(final Path dir, final String gatewaySettings, final String sessions)
            throws Exception {
        final Path journals = dir.resolve("journals");
        return start(dir, SluiceConfigs.engine(journals, List.of(1), SluiceDeployment.SYMBOL, SluiceIdle.BACKOFF,
                CpuPinning.NONE), null, gatewaySettings, sessions);
    }

    /**
     * As {@link #start(Path, String, String)} with {@code ./sluice marketdata} between engine and gateway: the engine
     * trades {@link #MARKET_DATA_SYMBOLS}, the market-data role derives their feed, and the gateway serves it over FIX
     * ({@code marketData} in its YAML, with {@code marketDataSettings} such as {@code slowSubscriberTimeout: 5s}).
     *
     * @param gatewaySettings more keys of the gateway's YAML, each ending with a comma, or empty
     */
    public static ScriptedDeployment startWithMarketData(final Path dir, final String marketDataSettings,
                                                         final String gatewaySettings, final String sessions)
            throws Exception {
        final Path journals = dir.resolve("journals");
        final String instruments = String.join(", ", MARKET_DATA_SYMBOLS);
        final StringBuilder engineInstruments = new StringBuilder();
        for (final String symbol : MARKET_DATA_SYMBOLS) {
            engineInstruments.append(engineInstruments.isEmpty() ? "" : ",\n").append("""
                    { symbol: %s, tickSize: 0.01, lotSize: 1, priceLow: 1, priceHigh: 1000, maxOrderQty: 10000000,\
                     maxNotional: 10000000000 }""".formatted(symbol));
        }
        final String engine = """
                !EngineConfig {
                  journalRoot: "%s",
                  gatewayIds: [ 1 ],
                  idle: { strategy: backoff },
                  instruments: [
                %s
                  ]
                }
                """.formatted(journals, engineInstruments);
        final String marketData = """
                !MarketDataConfig {
                  journalRoot: "%s",
                  instruments: [ %s ],
                  incremental: [ "127.0.0.1:9" ],
                  retransmit: "127.0.0.1:0",
                  idle: { strategy: backoff }
                }
                """.formatted(journals, instruments);
        return start(dir, engine, marketData, "marketData: { instruments: [ %s ], %s },%s"
                .formatted(instruments, marketDataSettings, gatewaySettings.isEmpty() ? "" : "\n  " + gatewaySettings),
                sessions);
    }

    private static ScriptedDeployment start(final Path dir, final String engineYaml, final String marketDataYaml,
                                            final String gatewaySettings, final String sessions) throws Exception {
        Files.createDirectories(dir);
        final Path journals = dir.resolve("journals");
        final FixEndpoint gateway = FixEndpoint.tcp("127.0.0.1", LoopbackPorts.free());
        final Path engineConfig = Files.writeString(dir.resolve("engine.yaml"), engineYaml);
        final Path gatewayConfig = Files.writeString(dir.resolve("gateway.yaml"), """
                !GatewayConfig {
                  gatewayId: 1,
                  journalRoot: "%s",
                  listen: "tcp://127.0.0.1:%d",
                  idle: backoff,%s
                  sessions: [
                %s
                  ]
                }
                """.formatted(journals, gateway.port(), gatewaySettings.isEmpty() ? "" : "\n  " + gatewaySettings,
                sessions));
        final JavaProcess engine = JavaProcess.start("engine", dir.resolve("engine.log"), List.of("-Xmx256m"),
                EngineMain.class, "--config", engineConfig.toString());
        JavaProcess marketData = null;
        try {
            PollUntil.await(() -> engine.logText().contains("engine: recovered") || !engine.isAlive(), READY,
                    () -> "the engine to recover; its log: " + engine.logText());
            if (marketDataYaml != null) {
                final Path marketDataConfig = Files.writeString(dir.resolve("marketdata.yaml"), marketDataYaml);
                marketData = JavaProcess.start("marketdata", dir.resolve("marketdata.log"), List.of("-Xmx256m"),
                        MarketDataMain.class, "--config", marketDataConfig.toString());
                final JavaProcess started = marketData;
                PollUntil.await(() -> started.logText().contains("marketdata: live") || !started.isAlive(), READY,
                        () -> "marketdata to go live; its log: " + started.logText());
                assertTrue(started.isAlive(), started::logText);
            }
        } catch (final Throwable failed) {
            engine.stop(10);
            if (marketData != null) {
                marketData.stop(10);
            }
            throw failed;
        }
        final JavaProcess gatewayProcess = JavaProcess.start("gateway", dir.resolve("gateway.log"),
                List.of("-Xmx256m"), GatewayMain.class, "--config", gatewayConfig.toString());
        final ScriptedDeployment deployment = new ScriptedDeployment(dir, gateway, engine, marketData,
                gatewayProcess);
        try {
            PollUntil.await(() -> !gatewayProcess.isAlive() || gateway.isAccepting(), READY,
                    () -> "the gateway to accept on " + gateway + "; its log: " + gatewayProcess.logText());
            assertTrue(engine.isAlive(), engine::logText);
            assertTrue(gatewayProcess.isAlive(), gatewayProcess::logText);
        } catch (final Throwable failed) {
            deployment.close();
            throw failed;
        }
        return deployment;
    }

    public FixEndpoint gateway() {
        return gateway;
    }

    /** @return where the gateway's log is, for a failure to point at */
    public Path gatewayLog() {
        return dir.resolve("gateway.log");
    }

    /** @return the deployment's journal root */
    public Path journals() {
        return dir.resolve("journals");
    }

    @Override
    public void close() throws Exception {
        gatewayProcess.stop(10);
        if (marketDataProcess != null) {
            marketDataProcess.stop(10);
        }
        engineProcess.stop(10);
    }
}
