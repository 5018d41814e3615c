package io.sluice.bench.fix;

import io.sluice.bench.quickfixj.QuickFixJProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceConfigs;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything the FIX benchmarks measure, started side by side for one run: a Sluice deployment with one
 * gateway per transport (e.g. gateway 1 TCP, gateway 2 UDS, one engine) and seeded sell liquidity, and the
 * QuickFIX/J baseline acceptor. Each is a separate child JVM; the load client is this JVM. Everything lives
 * in a temporary directory that {@link #close()} deletes.
 * <p>
 * With idle sockets (the {@code fix-idle-sockets} arm), every transport gets two gateways, identical but for
 * the silent connections this JVM opens to the second and holds for the whole run (connected, never logging
 * on), and the liquidity seeder a gateway of its own; the two are measured in the same run as "Sluice TCP"
 * and "Sluice TCP + 500 idle".
 * <p>
 * With the validation arm, the first transport gets a second gateway, identical but for its
 * {@code validation: { validateIncomingMessage: false }} (no data-dictionary checks of client messages), measured
 * in the same run as "Sluice TCP, no validation": what validation costs is its round trip beside "Sluice TCP".
 */
public final class FixBenchEnvironment implements AutoCloseable {
    /** The load client's SenderCompID on Sluice gateway n is this followed by n. */
    public static final String LOAD_COMP_ID = "LOAD";
    /** The liquidity seeder's session (on gateway 1). */
    public static final String SEEDER_COMP_ID = "SEEDER";
    private static final String PASSWORD = "bench";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** The gateway settings of the validation arm's gateway: the FIX 4.4 dictionary checks off. */
    private static final String NO_VALIDATION = "validation: { validateIncomingMessage: false }";

    private final Path root;
    private final boolean keepRoot;
    private final List<FixTarget> targets = new ArrayList<>();
    private SluiceDeployment sluice;
    private LiquiditySeeder seeder;
    private final List<BaselineProcess> baselines = new ArrayList<>();
    private final List<SocketChannel> idleSockets = new ArrayList<>();

    private FixBenchEnvironment(final Path root, final boolean keepRoot) {
        this.root = root;
        this.keepRoot = keepRoot;
    }

    /**
     * @param transports the Sluice transports to measure (TCP, UDS, both, or none for the baseline alone)
     * @param withQuickFixJ whether to start the QuickFIX/J baseline too
     * @param floor         the transports to start the echo floor ({@link FixEchoAcceptor}) over, maybe none
     * @param keepRoot      keep the temporary directory (journals, logs) after {@link #close()}, for the tail
     * @param idleSockets   0, or how many silent connections a second gateway per transport holds
     * @param control       with idleSockets: an A/A run, the second gateway set up alike but holding none, to show
     *                      how much the two arms differ by themselves
     * @param validationArm also a gateway over the first transport with validation off, to show what it costs
     */
    public static FixBenchEnvironment start(final List<FixTransport> transports, final SluiceIdle idle,
                                            final boolean withQuickFixJ, final List<FixTransport> floor,
                                            final boolean keepRoot, final int idleSockets, final boolean control,
                                            final boolean validationArm, final PrintStream progress)
            throws IOException, InterruptedException {
        final FixBenchEnvironment environment = new FixBenchEnvironment(Files.createTempDirectory("sluice-fix-bench"),
                keepRoot);
        try {
            environment.launch(transports, idle, withQuickFixJ, floor, idleSockets, control, validationArm, progress);
            return environment;
        } catch (final IOException | RuntimeException | InterruptedException e) {
            environment.close();
            throw e;
        }
    }

    private void launch(final List<FixTransport> transports, final SluiceIdle idle, final boolean withQuickFixJ,
                        final List<FixTransport> floor, final int idleSockets, final boolean control,
                        final boolean validationArm, final PrintStream progress)
            throws IOException, InterruptedException {
        if (!transports.isEmpty()) {
            launchSluice(transports, idle, idleSockets, control, validationArm, progress);
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

    private void launchSluice(final List<FixTransport> transports, final SluiceIdle idle, final int idleSockets,
                              final boolean control, final boolean validationArm, final PrintStream progress)
            throws IOException, InterruptedException {
        if (idleSockets > SluiceConfigs.MAX_SILENT_CONNECTIONS) {
            throw new IllegalArgumentException("at most " + SluiceConfigs.MAX_SILENT_CONNECTIONS + " idle sockets");
        }
        final List<SluiceDeployment.GatewaySpec> gateways = new ArrayList<>();
        final List<String> labels = new ArrayList<>();
        final SessionIdentity seed = SessionIdentity.ofSluiceClient(SEEDER_COMP_ID, PASSWORD);
        if (idleSockets > 0) {
            // The seeder gets a gateway of its own, so that the two arms' gateways differ in the idle sockets only.
            gateways.add(new SluiceDeployment.GatewaySpec(1, transports.getFirst(), List.of(seed)));
            labels.add(null);
        }
        for (final FixTransport transport : transports) {
            for (int arm = 0; arm < (idleSockets > 0 ? 2 : 1); arm++) {
                final int id = gateways.size() + 1;
                final SessionIdentity load = SessionIdentity.ofSluiceClient(LOAD_COMP_ID + id, PASSWORD);
                gateways.add(new SluiceDeployment.GatewaySpec(id, transport,
                        id == 1 ? List.of(load, seed) : List.of(load)));
                labels.add("Sluice " + transport + (arm == 1 ? " + " + (control ? 0 : idleSockets) + " idle" : ""));
            }
        }
        if (validationArm) {
            final int id = gateways.size() + 1;
            gateways.add(new SluiceDeployment.GatewaySpec(id, transports.getFirst(),
                    List.of(SessionIdentity.ofSluiceClient(LOAD_COMP_ID + id, PASSWORD)), Map.of(), NO_VALIDATION));
            labels.add("Sluice " + transports.getFirst() + ", no validation");
        }
        progress.printf("starting Sluice (engine + %d gateway(s), child JVMs, idle %s) under %s ...%n", gateways.size(),
                idle.label(), root);
        sluice = SluiceDeployment.start(root.resolve("sluice"), gateways, idle, List.of());
        seeder = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seed));
        seeder.start(START_TIMEOUT);
        for (int i = 0; i < gateways.size(); i++) {
            final SluiceDeployment.GatewaySpec gateway = gateways.get(i);
            if (labels.get(i) == null) {
                continue;
            }
            targets.add(new FixTarget(labels.get(i), sluice.endpoint(gateway.id()), gateway.sessions().getFirst()));
            if (labels.get(i).endsWith(" idle")) {
                holdIdleSockets(gateway.id(), control ? 0 : idleSockets, progress);
            }
        }
    }

    /**
     * Opens {@code count} connections to gateway {@code id} that never send a byte, and returns once the
     * gateway holds them all (its open file descriptors, read from /proc, grew by as many).
     */
    private void holdIdleSockets(final int id, final int count, final PrintStream progress)
            throws IOException, InterruptedException {
        final long pid = sluice.gateway(id).pid();
        final long before = openDescriptors(pid);
        for (int i = 0; i < count; i++) {
            idleSockets.add(sluice.endpoint(id).connect());
        }
        PollUntil.await(() -> openDescriptors(pid) >= before + count, START_TIMEOUT,
                () -> "gateway " + id + " to hold " + count + " idle sockets (it holds "
                        + (openDescriptors(pid) - before) + "); its log: " + sluice.gateway(id).logText());
        progress.printf("gateway %d holds %d idle sockets that never log on%n", id, count);
    }

    private static long openDescriptors(final long pid) {
        try (var descriptors = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return descriptors.count();
        } catch (final IOException e) {
            return -1;
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
            for (final SocketChannel socket : idleSockets) {
                socket.close();
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
