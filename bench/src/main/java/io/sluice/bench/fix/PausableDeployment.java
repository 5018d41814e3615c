package io.sluice.bench.fix;

import io.sluice.runtime.counters.CountersFile;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One arm of an A/B benchmark that needs whole deployments side by side: an engine and one TCP gateway (child JVMs)
 * with its seeded liquidity and one load session, whose processes can be stopped (SIGSTOP) while the other arm has
 * its turn and resumed (SIGCONT) for its own, so that each arm has the machine to itself and both stay warm.
 */
final class PausableDeployment implements AutoCloseable {
    private static final String PASSWORD = "bench";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final String label;
    private final SluiceDeployment sluice;
    private final LiquiditySeeder seeder;
    private final SessionIdentity load;
    private boolean running = true;

    private PausableDeployment(final String label, final SluiceDeployment sluice,
                final LiquiditySeeder seeder, final SessionIdentity load) {
        this.label = label;
        this.sluice = sluice;
        this.seeder = seeder;
        this.load = load;
    }

    /** @param settings more YAML keys of both the engine's and the gateway's configs, e.g. {@code counters: false} */
    static PausableDeployment start(final String label, final Path root, final String settings,
                                    final SluiceIdle idle) throws IOException, InterruptedException {
        final SessionIdentity load = SessionIdentity.ofSluiceClient(FixBenchEnvironment.LOAD_COMP_ID + "1", PASSWORD);
        final SessionIdentity seed = SessionIdentity.ofSluiceClient(FixBenchEnvironment.SEEDER_COMP_ID, PASSWORD);
        System.out.printf("starting %s (engine + 1 gateway, child JVMs, idle %s) under %s ...%n", label,
                idle.label(), root);
        final SluiceDeployment sluice = SluiceDeployment.prepare(root, List.of(new SluiceDeployment.GatewaySpec(1,
                        FixTransport.TCP, List.of(load, seed), Map.of(), settings)), idle,
                SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS);
        LiquiditySeeder seeder = null;
        try {
            sluice.engineSettings(settings);
            sluice.startGateway(1);
            if (!sluice.launchEngine().isAlive()) {
                throw new IllegalStateException(label + ": the engine stopped: " + sluice.logs(3_000));
            }
            seeder = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seed));
            seeder.start(START_TIMEOUT);
            return new PausableDeployment(label, sluice, seeder, load);
        } catch (final IOException | RuntimeException | InterruptedException e) {
            if (seeder != null) {
                seeder.close();
            }
            sluice.close();
            throw e;
        }
    }

    String label() {
        return label;
    }

    SluiceDeployment sluice() {
        return sluice;
    }

    String seederFailure() {
        return seeder.failure();
    }

    FixTarget target() {
        return new FixTarget(label, sluice.endpoint(1), load);
    }

    List<String> countersFiles() throws IOException {
        final Path dir = sluice.journals().resolve(CountersFile.DIRECTORY);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    /** Resumes (SIGCONT) or stops (SIGSTOP) the arm's engine and gateway, if not so already. */
    void running(final boolean run) {
        if (run == running) {
            return;
        }
        signal(run ? "-CONT" : "-STOP", sluice.engine().pid(), sluice.gateway(1).pid());
        running = run;
    }

    private static void signal(final String signal, final long... pids) {
        final List<String> command = new ArrayList<>(List.of("kill", signal));
        for (final long pid : pids) {
            command.add(Long.toString(pid));
        }
        try {
            final Process kill = new ProcessBuilder(command).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed");
            }
        } catch (final IOException e) {
            throw new IllegalStateException(String.join(" ", command) + " failed", e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        running(true);
        seeder.close();
        sluice.close();
    }
}
