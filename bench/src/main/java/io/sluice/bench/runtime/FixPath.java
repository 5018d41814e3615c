package io.sluice.bench.runtime;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The full FIX path the runtime benchmarks measure: a {@link SluiceDeployment} of one engine and one TCP
 * gateway, each a child JVM started with the settings under test, sell liquidity seeded through its own
 * session, and one logged-on load session (in this JVM) whose buys fill against it. Everything lives under
 * {@code root}, which {@link #close()} deletes.
 */
final class FixPath implements AutoCloseable {
    private static final String PASSWORD = "bench";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final SessionIdentity LOAD = SessionIdentity.ofSluiceClient("LOAD1", PASSWORD);
    private static final SessionIdentity SEEDER = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);

    private final Path root;
    private SluiceDeployment deployment;
    private JavaProcess coldClient;
    private LiquiditySeeder seeder;
    private FixClientSession load;

    private FixPath(final Path root) {
        this.root = root;
    }

    /**
     * Launches the engine and gateway at the same time, as an operator starting both would, and returns once the
     * load session is logged on and liquidity rests.
     */
    static FixPath start(final Path root, final SluiceDeployment.ProcessSettings settings)
            throws IOException, InterruptedException {
        return start(root, settings, false);
    }

    /**
     * As {@link #start(Path, SluiceDeployment.ProcessSettings)}; with {@code coldClient}, a {@link ColdClient} is
     * launched in its own JVM at the same moment as the engine and gateway, on a session of its own.
     */
    static FixPath start(final Path root, final SluiceDeployment.ProcessSettings settings, final boolean coldClient)
            throws IOException, InterruptedException {
        final FixPath path = new FixPath(root);
        FutureTask<JavaProcess> gateway = null;
        try {
            path.deployment = SluiceDeployment.prepare(root, List.of(new SluiceDeployment.GatewaySpec(1, FixTransport.TCP,
                    coldClient ? List.of(LOAD, SEEDER, ColdClient.identity()) : List.of(LOAD, SEEDER))),
                    SluiceIdle.BACKOFF, settings, SluiceDeployment.JournalDisk.DEFAULTS);
            if (coldClient) {
                path.coldClient = ColdClient.launch(root.resolve("logs/cold-client.log"), settings.classPath(),
                        path.deployment.endpoint(1));
            }
            gateway = new FutureTask<>(() -> path.deployment.launchGateway(1));
            Thread.ofPlatform().name("gateway-launch").start(gateway);
            path.deployment.launchEngine().requireAlive();
            try {
                gateway.get().requireAlive();
            } catch (final ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
            path.seeder = StandardOrders.seeder(new FixClientSession(path.deployment.endpoint(1), SEEDER));
            path.seeder.start(START_TIMEOUT);
            path.load = new FixClientSession(path.deployment.endpoint(1), LOAD);
            path.load.logon(START_TIMEOUT);
            return path;
        } catch (final IOException | RuntimeException | InterruptedException e) {
            awaitQuietly(gateway); // so that close() stops a gateway launched meanwhile
            final String logs = path.deployment == null ? "" : "\n" + path.deployment.logs(2_000);
            path.close();
            throw new IOException("the FIX path did not start: " + e.getMessage() + logs, e);
        }
    }

    private static void awaitQuietly(final FutureTask<JavaProcess> launch) throws InterruptedException {
        if (launch != null) {
            try {
                launch.get();
            } catch (final ExecutionException ignored) {
                // the launch failed: nothing to stop
            }
        }
    }

    /** @return the logged-on load session (one thread at a time). */
    FixClientSession load() {
        return load;
    }

    SluiceDeployment deployment() {
        return deployment;
    }

    /** @return the client launched with the engine and gateway, if asked for */
    JavaProcess coldClient() {
        return coldClient;
    }

    /**
     * Logs the load session out and stops the gateway and the engine, giving each up to {@code grace} to exit by
     * itself (a JVM writing its AOT cache at exit needs seconds).
     */
    void stop(final Duration grace) throws IOException, InterruptedException {
        if (load != null) {
            load.logout();
        }
        if (seeder != null) {
            seeder.close();
        }
        if (deployment != null) {
            deployment.gateway(1).stop(grace.toSeconds());
            deployment.engine().stop(grace.toSeconds());
        }
    }

    /** @return the engine's and gateway's logs, each cut to its last {@code maxCharsEach} characters. */
    String logs(final int maxCharsEach) {
        return deployment == null ? "" : deployment.logs(maxCharsEach);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            if (coldClient != null) {
                coldClient.close();
            }
            if (load != null) {
                load.close();
            }
            if (seeder != null) {
                seeder.close();
            }
            if (deployment != null) {
                deployment.close();
            }
        } finally {
            SluiceDeployment.deleteTree(root);
        }
    }
}
