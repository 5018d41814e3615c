package io.sluice.replication;

import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.journal.JournalDiskFullException;
import io.sluice.runtime.process.CpuPinning;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice replicate --config FILE}: ships a primary root's journals to Kafka or rebuilds them under a replica
 * root. Shipping is {@code mode: ship}, a {@link Shipper}; rebuilding {@code mode: receive}, a {@link Receiver}; either
 * runs on an agent thread ({@link AgentThread}) until SIGTERM ({@link SigtermHook}). Exit codes, each with a message on
 * stderr:
 * 0 stopped by SIGTERM; {@value #EXIT_FAILED} an unforeseen failure; {@value #EXIT_BAD_CONFIG} a missing or invalid
 * config; {@value #EXIT_REFUSED} refused ({@link ReplicationRefusedException}: another shipper or receiver on the root,
 * a journal another process writes, a root of another deployment, a gap, a mismatch, a broker that lost records; the
 * message names the journal, the index and why); {@value #EXIT_DISK_FULL}
 * a receiver's journal disk full, before writing (a restart with space resumes); {@value #EXIT_FENCED} a shipper fenced
 * by a newer shipper of its deployment ({@link ShipperFencedException}). A supervisor should not restart on
 * {@value #EXIT_REFUSED} (the same refusal would follow) nor on {@value #EXIT_FENCED} (it would fence the newer one).
 */
@Command(name = "replicate", mixinStandardHelpOptions = true,
        description = "Replicates every journal of a deployment through Kafka: mode ship (primary) or receive (replica).")
public final class ReplicateMain implements Callable<Integer> {
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_BAD_CONFIG = 2;
    public static final int EXIT_REFUSED = 3;
    public static final int EXIT_DISK_FULL = 4;
    public static final int EXIT_FENCED = 5;

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "replication config, YAML (see replicate-ship-example.yaml, replicate-receive-example.yaml)")
    private Path configFile;

    public static void main(final String[] args) {
        // Kafka's client warns at every reconnect attempt; the shipper and receiver print the link's state once per
        // change instead (KafkaLink).
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", "error");
        SigtermHook.handleSignals();
        System.exit(new CommandLine(new ReplicateMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        final ReplicationConfig config;
        try {
            config = ReplicationConfig.load(configFile);
        } catch (final RuntimeException e) {
            System.err.println("replicate: " + e.getMessage());
            return EXIT_BAD_CONFIG;
        }
        return run(config);
    }

    /** Runs the shipper or receiver {@code config} asks for until SIGTERM or a failure: @return the exit code */
    public static int run(final ReplicationConfig config) throws InterruptedException {
        final NanoClock nanoClock = SystemNanoClock.INSTANCE;
        final EpochClock epochClock = SystemEpochClock.INSTANCE;
        final AgentThread thread = config.mode() == ReplicationConfig.Mode.SHIP
                ? Shipper.start(config, nanoClock, epochClock)
                : AgentThread.start(new Receiver(config, nanoClock, epochClock), config.idle().newStrategy(),
                        CpuPinning.NONE, AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install(thread.roleName(), nanoClock, thread);
        thread.awaitClosed();
        hook.close();
        return exitCode(thread.roleName(), thread.failure());
    }

    /** @return the exit code of a replication agent that stopped by {@code failure} (null: none), having printed it */
    static int exitCode(final String role, final Throwable failure) {
        if (failure == null) {
            return 0;
        }
        if (failure instanceof JournalDiskFullException) {
            System.err.println(failure.getMessage());
            return EXIT_DISK_FULL;
        }
        if (failure instanceof ShipperFencedException) {
            System.err.println(failure.getMessage());
            return EXIT_FENCED;
        }
        if (failure instanceof ReplicationRefusedException) {
            System.err.println(failure.getMessage());
            return EXIT_REFUSED;
        }
        System.err.println(role + ": stopped by an unforeseen failure:");
        failure.printStackTrace();
        return EXIT_FAILED;
    }
}
