package io.sluice.bench.replication;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The processes of a simulated primary host: an engine, its gateways and a shipper towards Kafka.
 * {@link PrimaryHost} and {@link SplitBrainPrimary} start them in the primary's network namespace. A shutdown hook
 * stops the shipper, then the deployment, so SIGTERM of the host's JVM stops them all.
 */
final class PrimaryProcesses {
    private final SluiceDeployment sluice;
    private final JavaProcess shipper;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private PrimaryProcesses(final SluiceDeployment sluice, final JavaProcess shipper) {
        this.sluice = sluice;
        this.shipper = shipper;
    }

    /** Starts the deployment under {@code root} (backoff idle) and its shipper to {@code kafka}, and prints their pids. */
    static PrimaryProcesses start(final Path root, final List<SluiceDeployment.GatewaySpec> gateways, final String kafka,
                                  final String deployment) throws IOException, InterruptedException {
        final SluiceDeployment sluice = SluiceDeployment.start(root, gateways, SluiceIdle.BACKOFF, List.of());
        final PrimaryProcesses host = new PrimaryProcesses(sluice, ReplicationProcess.start("shipper", List.of(), root,
                "ship", sluice.journals(), kafka, deployment));
        Runtime.getRuntime().addShutdownHook(new Thread(host::stop, "primary-stop"));
        System.out.println("primary: engine pid " + sluice.engine().pid() + ", gateway pid " + sluice.gateway(1).pid()
                + ", shipper pid " + host.shipper.pid() + " to " + kafka + "; journals under " + sluice.journals());
        return host;
    }

    /** @return the engine and gateways */
    SluiceDeployment sluice() {
        return sluice;
    }

    /** Blocks until SIGTERM has stopped every process: the shipper keeps shipping meanwhile. */
    void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    private void stop() {
        try {
            shipper.stop(10);
            sluice.close();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stopped.countDown();
        }
    }
}
