package io.sluice.bench.fix;

import io.sluice.bench.quickfixj.QuickFixJProcess;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything the FIX benchmarks measure, started side by side for one run: a Sluice deployment with one
 * gateway per transport (e.g. gateway 1 TCP, gateway 2 UDS, one engine) and seeded sell liquidity, and the
 * QuickFIX/J baseline acceptor. Each is a separate child JVM; the load client is this JVM. Everything lives
 * in a temporary directory that {@link #close()} deletes.
 */
public final class FixBenchEnvironment implements AutoCloseable {
    /** The load client's SenderCompID on Sluice gateway n is this followed by n. */
    public static final String LOAD_COMP_ID = "LOAD";
    /** The liquidity seeder's session (on gateway 1). */
    public static final String SEEDER_COMP_ID = "SEEDER";
    private static final String PASSWORD = "bench";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Path root;
    private final boolean keepRoot;
    private final List<FixTarget> targets = new ArrayList<>();
    private SluiceDeployment sluice;
    private LiquiditySeeder seeder;
    private final List<BaselineProcess> baselines = new ArrayList<>();

    private FixBenchEnvironment(final Path root, final boolean keepRoot) {
        this.root = root;
        this.keepRoot = keepRoot;
    }

    /**
     * @param transports the Sluice transports to measure (TCP, UDS, both, or none for the baseline alone)
     * @param withQuickFixJ whether to start the QuickFIX/J baseline too
     * @param floor         the transports to start the echo floor ({@link FixEchoAcceptor}) over, maybe none
     * @param keepRoot      keep the temporary directory (journals, logs) after {@link #close()}, for the tail
     */
    public static FixBenchEnvironment start(final List<FixTransport> transports, final SluiceIdle idle,
                                            final boolean withQuickFixJ, final List<FixTransport> floor,
                                            final boolean keepRoot, final PrintStream progress)
            throws IOException, InterruptedException {
        final FixBenchEnvironment environment = new FixBenchEnvironment(Files.createTempDirectory("sluice-fix-bench"),
                keepRoot);
        try {
            environment.launch(transports, idle, withQuickFixJ, floor, progress);
            return environment;
        } catch (final IOException | RuntimeException | InterruptedException e) {
            environment.close();
            throw e;
        }
    }

    private void launch(final List<FixTransport> transports, final SluiceIdle idle, final boolean withQuickFixJ,
                        final List<FixTransport> floor, final PrintStream progress)
            throws IOException, InterruptedException {
        if (!transports.isEmpty()) {
            launchSluice(transports, idle, progress);
        }
        if (withQuickFixJ) {
            progress.println("starting the QuickFIX/J acceptor (child JVM; TCP only: QuickFIX/J has no Unix domain"
                    + " socket transport) ...");
            baselines.add(QuickFixJProcess.start(root.resolve("quickfixj.log"), START_TIMEOUT));
        }
        for (final FixTransport transport : floor) {
            progress.println("starting the echo floor over " + transport + " (child JVM: a blocking thread answering"
                    + " each order with two reports, no session layer, journal or engine) ...");
            baselines.add(FixEchoAcceptor.start(transport, root, START_TIMEOUT));
        }
        for (final BaselineProcess baseline : baselines) {
            targets.add(baseline.target());
        }
    }

    private void launchSluice(final List<FixTransport> transports, final SluiceIdle idle, final PrintStream progress)
            throws IOException, InterruptedException {
        final List<SluiceDeployment.GatewaySpec> gateways = new ArrayList<>();
        final SessionIdentity seed = SessionIdentity.ofSluiceClient(SEEDER_COMP_ID, PASSWORD);
        for (int i = 0; i < transports.size(); i++) {
            final int id = i + 1;
            final SessionIdentity load = SessionIdentity.ofSluiceClient(LOAD_COMP_ID + id, PASSWORD);
            gateways.add(new SluiceDeployment.GatewaySpec(id, transports.get(i),
                    id == 1 ? List.of(load, seed) : List.of(load)));
        }
        progress.printf("starting Sluice (engine + %d gateway(s), child JVMs, idle %s) under %s ...%n", gateways.size(),
                idle.label(), root);
        sluice = SluiceDeployment.start(root.resolve("sluice"), gateways, idle, List.of());
        seeder = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seed));
        seeder.start(START_TIMEOUT);
        for (final SluiceDeployment.GatewaySpec gateway : gateways) {
            targets.add(new FixTarget("Sluice " + gateway.transport(), sluice.endpoint(gateway.id()),
                    gateway.sessions().getFirst()));
        }
    }

    /** @return the targets in measuring order: Sluice per transport, then QuickFIX/J, then the echo floor. */
    public List<FixTarget> targets() {
        return targets;
    }

    /** @return what the seeder has seen go wrong, or null. */
    public String seederFailure() {
        return seeder == null ? null : seeder.failure();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            if (seeder != null) {
                seeder.close();
            }
            for (final BaselineProcess baseline : baselines) {
                baseline.close();
            }
            if (sluice != null) {
                sluice.close();
            }
        } finally {
            if (keepRoot) {
                System.out.println("kept " + root + " (per-hop latency: ./sluice tail --offline --root " + root
                        + "/sluice/journals)");
            } else {
                SluiceDeployment.deleteTree(root);
            }
        }
    }
}
