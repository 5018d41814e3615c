package io.sluice.gateway;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.runtime.journal.JournalDiskFullException;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.gateway.transport.ListenAddress;
import org.agrona.concurrent.SystemEpochClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The {@code gateway} role: {@code ./sluice gateway --config gateway.yaml}. Runs one gateway on the main
 * thread until SIGTERM or Ctrl-C, then closes the listener and the journals. Exits 2 with the problems
 * listed if the configuration is invalid, {@value #EXIT_CORRUPT_JOURNAL} with where the damage is if one of its
 * journals is damaged (checked at start and on every read), {@value #EXIT_DISK_FULL} with a message naming the
 * journal and the free space when its disk is full (at start, or once the reserve is used up). SIGTERM is answered in every state: the
 * shutdown hook waits at most {@value #STOP_GRACE_SECONDS} s for the I/O thread to close the journals.
 */
@Command(name = "gateway", mixinStandardHelpOptions = true,
        description = "A Sluice FIX 4.4 gateway over TCP or a Unix domain socket.")
public final class GatewayMain implements Callable<Integer> {
    /** Exit code when a journal is damaged (at start or while running): the message names file, excerpt and offset. */
    public static final int EXIT_CORRUPT_JOURNAL = 3;
    /** Exit code when no disk space can be had for a journal. */
    public static final int EXIT_DISK_FULL = 4;
    private static final long STOP_GRACE_SECONDS = 5;

    @Option(names = {"-c", "--config"}, required = true, description = "YAML configuration (see gateway-example.yaml)")
    private Path config;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new GatewayMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final GatewayConfig gatewayConfig;
        try {
            gatewayConfig = GatewayConfig.load(config);
        } catch (final IllegalArgumentException | java.io.IOException e) {
            System.err.println("gateway: cannot use " + config + ": " + e.getMessage());
            return 2;
        }
        final CountDownLatch stopped = new CountDownLatch(1);
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread shutdown = new Thread(() -> {
            running.set(false);
            try {
                if (!stopped.await(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) {
                    System.err.println("gateway " + gatewayConfig.gatewayId() + ": not stopped after "
                            + STOP_GRACE_SECONDS + " s, exiting anyway");
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gateway-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        try {
            return runGateway(gatewayConfig, running);
        } catch (final JournalDiskFullException e) {
            System.err.println("gateway " + gatewayConfig.gatewayId() + ": " + e.getMessage());
            return EXIT_DISK_FULL;
        } catch (final CorruptJournalException e) {
            System.err.println("gateway " + gatewayConfig.gatewayId() + ": stopped on a damaged journal: " + e.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        } finally {
            // Counted down on every way out, so that a shutdown hook started by System.exit never waits for it.
            stopped.countDown();
        }
    }

    private static int runGateway(final GatewayConfig gatewayConfig, final AtomicBoolean running) {
        final Gateway started;
        try {
            started = new Gateway(gatewayConfig, SystemEpochClock.INSTANCE);
        } catch (final CorruptJournalException e) {
            System.err.println("gateway " + gatewayConfig.gatewayId() + ": cannot start on a damaged journal: " + e.getMessage());
            return EXIT_CORRUPT_JOURNAL;
        } catch (final java.io.UncheckedIOException | IllegalArgumentException e) {
            System.err.println("gateway " + gatewayConfig.gatewayId() + ": cannot start: " + e.getMessage());
            return 1;
        }
        try (Gateway gateway = started) {
            System.out.println("gateway " + gatewayConfig.gatewayId() + " listening on "
                    + ListenAddress.format(gateway.localAddress()) + ", journals under "
                    + gatewayConfig.journalRoot().toAbsolutePath() + ", sessions "
                    + gatewayConfig.sessions().stream().map(SessionConfig::senderCompId).collect(Collectors.joining(", ")));
            try (CpuPinning pinning = CpuPinning.pinCurrentThread(gatewayConfig.pinCpu(), "I/O thread")) {
                if (gatewayConfig.pinCpu() != CpuPinning.NONE) {
                    System.out.println("gateway " + gatewayConfig.gatewayId() + ": " + pinning.outcome());
                }
                System.out.flush();
                gateway.run(running::get);
            }
        }
        System.out.println("gateway " + gatewayConfig.gatewayId() + " stopped");
        return 0;
    }
}
