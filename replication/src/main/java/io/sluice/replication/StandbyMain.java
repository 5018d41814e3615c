package io.sluice.replication;

import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.process.CpuPinning;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice standby --config FILE}: a {@link Standby} on an agent thread until SIGTERM, which also stops the
 * engine and gateways it started after a takeover. Exit codes as {@code ./sluice replicate}'s ({@link ReplicateMain}):
 * 0 stopped by SIGTERM, {@value ReplicateMain#EXIT_BAD_CONFIG} a bad config, {@value ReplicateMain#EXIT_REFUSED} its
 * receiver or its promotion refused, {@value ReplicateMain#EXIT_DISK_FULL} disk full, {@value ReplicateMain#EXIT_FENCED}
 * the shipper of its promoted root fenced by a newer primary, {@value ReplicateMain#EXIT_FAILED} an unforeseen failure.
 */
@Command(name = "standby", mixinStandardHelpOptions = true,
        description = "Receives a deployment's journals and takes the deployment over when its primary falls silent.")
public final class StandbyMain implements Callable<Integer> {
    /** How long SIGTERM waits for the standby and the processes it started to stop. */
    static final long GRACE_SECONDS = 20;

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "standby config, YAML (see standby-example.yaml)")
    private Path configFile;

    public static void main(final String[] args) {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", "error");
        SigtermHook.handleSignals();
        System.exit(new CommandLine(new StandbyMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        final StandbyConfig config;
        try {
            config = StandbyConfig.load(configFile);
        } catch (final RuntimeException e) {
            System.err.println("standby: " + e.getMessage());
            return ReplicateMain.EXIT_BAD_CONFIG;
        }
        final NanoClock nanoClock = SystemNanoClock.INSTANCE;
        final Standby standby = new Standby(config, nanoClock, SystemEpochClock.INSTANCE);
        final AgentThread thread = AgentThread.start(standby, config.idle().newStrategy(), CpuPinning.NONE,
                AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install(standby.roleName(), GRACE_SECONDS, nanoClock, thread);
        thread.awaitClosed();
        hook.close();
        return ReplicateMain.exitCode(standby.roleName(), thread.failure());
    }
}
