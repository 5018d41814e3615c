package io.sluice.replication;

import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.config.ConfigFile;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The config of {@code ./sluice standby} (YAML, see {@code standby-example.yaml}). The deployment it stands by for, its
 * replica root, Kafka, its own name (in its claim), how long the primary may be silent before it takes over, the lease
 * it keeps once it is the primary, and the commands that start the engine and the gateways (each a command line, split
 * at spaces), with the standby's own configs and listen addresses. The standby runs them when it starts, each with
 * {@code --await-promotion} appended: they wait for the promoted root ({@link StandbyProcesses}).
 */
public final class StandbyConfig extends SelfDescribingMarshallable {
    /** How long the primary may be silent unless configured: see {@link #failoverAfterMillis()}. */
    public static final long DEFAULT_FAILOVER_AFTER_MILLIS = 2000;

    private String deployment;
    private String name;
    private String root;
    private String bootstrapServers = "127.0.0.1:9092";
    private long failoverAfterMillis = DEFAULT_FAILOVER_AFTER_MILLIS;
    private long leaseMillis = ReplicationConfig.DEFAULT_LEASE_MILLIS;
    private IdleConfig idle = new IdleConfig();
    private long lagReportMillis = 1000;
    private List<String> start = new ArrayList<>();

    /**
     * Reads and validates a config file.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static StandbyConfig load(final Path file) {
        return ConfigFile.load(file, StandbyConfig.class, "standby config", StandbyConfig::validate);
    }

    /** @throws IllegalArgumentException saying what is wrong; @return this */
    public StandbyConfig validate() {
        LogTopic.checkDeployment(deployment);
        require(name != null && !name.isBlank() && name.chars().allMatch(c -> c > ' ' && c < 127),
                "name is missing (printable US-ASCII, no spaces: it names this standby in its claim)");
        require(root != null && !root.isBlank(), "root is missing");
        require(bootstrapServers != null && !bootstrapServers.isBlank(), "bootstrapServers is missing");
        require(failoverAfterMillis >= 100 && failoverAfterMillis <= 600_000,
                "failoverAfterMillis must be 100 to 600000, got " + failoverAfterMillis);
        require(leaseMillis > 0, "leaseMillis must be positive (the lease of the primary this standby becomes), got "
                + leaseMillis);
        require(failoverAfterMillis > leaseMillis, "failoverAfterMillis (" + failoverAfterMillis + ") must be longer"
                + " than leaseMillis (" + leaseMillis + "): a standby must not take over before the primary it fences"
                + " has stopped taking orders by its lease (the deployment's leaseMillis, the same on every host)");
        require(idle != null, "idle is missing");
        idle.validate();
        require(lagReportMillis >= 0, "lagReportMillis must not be negative (0: no lag lines)");
        require(start != null && !start.isEmpty() && start.stream().noneMatch(String::isBlank),
                "start must list the commands that start the engine and the gateways (each run with --await-promotion)");
        shipper(name).validate();
        return this;
    }

    private static void require(final boolean condition, final String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** @return the receiver's config: the same deployment, root, Kafka and idle strategy */
    public ReplicationConfig receiver() {
        return new ReplicationConfig().mode(ReplicationConfig.Mode.RECEIVE).deployment(deployment).root(root())
                .bootstrapServers(bootstrapServers).idle(idle).lagReportMillis(lagReportMillis);
    }

    /**
     * @return the config of the shipper that ships the root once it is promoted: the same deployment, root, Kafka and
     * lease, its heartbeats naming {@code heartbeatHolder}
     */
    public ReplicationConfig shipper(final String heartbeatHolder) {
        return new ReplicationConfig().mode(ReplicationConfig.Mode.SHIP).deployment(deployment).root(root())
                .bootstrapServers(bootstrapServers).idle(idle).lagReportMillis(lagReportMillis)
                .heartbeatHolder(heartbeatHolder).leaseMillis(leaseMillis);
    }

    public String deployment() {
        return deployment;
    }

    public StandbyConfig deployment(final String deployment) {
        this.deployment = deployment;
        return this;
    }

    public String name() {
        return name;
    }

    public StandbyConfig name(final String name) {
        this.name = name;
        return this;
    }

    public Path root() {
        return Path.of(root);
    }

    public StandbyConfig root(final Path root) {
        this.root = root.toString();
        return this;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public StandbyConfig bootstrapServers(final String servers) {
        this.bootstrapServers = servers;
        return this;
    }

    /**
     * @return how long the lease topic must be silent (no heartbeat of the primary's shipper arrived, while Kafka
     * answered) before this standby takes over, ms
     */
    public long failoverAfterMillis() {
        return failoverAfterMillis;
    }

    public StandbyConfig failoverAfterMillis(final long millis) {
        this.failoverAfterMillis = millis;
        return this;
    }

    /**
     * @return the lease of the primary this standby becomes, ms: the deployment's {@code leaseMillis}, as its primaries'
     * shippers have it ({@link ReplicationConfig#leaseMillis()}). Shorter than {@link #failoverAfterMillis()}, so that a
     * primary cut off from Kafka stops taking orders before a standby takes over from it
     */
    public long leaseMillis() {
        return leaseMillis;
    }

    public StandbyConfig leaseMillis(final long millis) {
        this.leaseMillis = millis;
        return this;
    }

    public IdleConfig idle() {
        return idle;
    }

    public StandbyConfig idle(final IdleConfig idle) {
        this.idle = idle;
        return this;
    }

    public StandbyConfig lagReportMillis(final long millis) {
        this.lagReportMillis = millis;
        return this;
    }

    /** @return each command that starts a process serving on the promoted root, as its words */
    public List<List<String>> start() {
        final List<List<String>> commands = new ArrayList<>();
        for (final String command : start) {
            commands.add(Arrays.asList(command.strip().split("\\s+")));
        }
        return commands;
    }

    public StandbyConfig start(final List<String> commands) {
        this.start = new ArrayList<>(commands);
        return this;
    }
}
