package io.sluice.replication;

import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.config.ConfigFile;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.nio.file.Path;

/**
 * The config of {@code ./sluice replicate} (YAML, see {@code replicate-ship-example.yaml} and
 * {@code replicate-receive-example.yaml}): whether this process ships a primary root's journals to Kafka or rebuilds
 * them under a replica root, the deployment id (part of every topic name), the root, the Kafka bootstrap servers, and
 * for a shipper the replication factor and {@code min.insync.replicas} of the topics it creates.
 */
public final class ReplicationConfig extends SelfDescribingMarshallable {
    /** Which direction this process replicates. */
    public enum Mode {
        /** Tails every journal under the root and publishes it to Kafka. */
        SHIP,
        /** Consumes the deployment's topics and rebuilds the journals under the root. */
        RECEIVE
    }

    /** The shipper's producer {@code linger.ms} unless configured: see {@link #lingerMillis()}. */
    public static final int DEFAULT_LINGER_MILLIS = 0;
    /** How long the shipper may keep a transaction open for the effects of its causes unless configured. */
    public static final long DEFAULT_COMMIT_WAIT_MICROS = 500;

    private String mode;
    private String deployment;
    private String root;
    private String bootstrapServers = "127.0.0.1:9092";
    private int replicationFactor = 1;
    private int minInsyncReplicas = 1;
    private IdleConfig idle = new IdleConfig();
    private long lagReportMillis = 1000;
    private int lingerMillis = DEFAULT_LINGER_MILLIS;
    private long transactionMicros;
    private long commitWaitMicros = DEFAULT_COMMIT_WAIT_MICROS;

    /**
     * Reads and validates a config file.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static ReplicationConfig load(final Path file) {
        return ConfigFile.load(file, ReplicationConfig.class, "replication config", ReplicationConfig::validate);
    }

    /** @throws IllegalArgumentException saying what is wrong; @return this */
    public ReplicationConfig validate() {
        require(mode != null && (mode.equals("ship") || mode.equals("receive")), "mode must be ship or receive, got " + mode);
        ReplicationTopics.checkDeployment(deployment);
        require(root != null && !root.isBlank(), "root is missing");
        require(bootstrapServers != null && !bootstrapServers.isBlank(), "bootstrapServers is missing");
        require(replicationFactor >= 1, "replicationFactor must be at least 1, got " + replicationFactor);
        require(minInsyncReplicas >= 1 && minInsyncReplicas <= replicationFactor,
                "minInsyncReplicas must be 1 to replicationFactor, got " + minInsyncReplicas);
        require(idle != null, "idle is missing");
        idle.validate();
        require(lagReportMillis >= 0, "lagReportMillis must not be negative (0: no lag lines)");
        require(lingerMillis >= 0 && lingerMillis <= 1000, "lingerMillis must be 0 to 1000, got " + lingerMillis);
        require(transactionMicros >= 0 && transactionMicros <= 10_000_000,
                "transactionMicros must be 0 to 10000000 (10 s), got " + transactionMicros);
        require(commitWaitMicros >= 0 && commitWaitMicros <= 1_000_000,
                "commitWaitMicros must be 0 to 1000000 (1 s), got " + commitWaitMicros);
        return this;
    }

    private static void require(final boolean condition, final String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    public Mode mode() {
        return "ship".equals(mode) ? Mode.SHIP : Mode.RECEIVE;
    }

    public ReplicationConfig mode(final Mode mode) {
        this.mode = mode.name().toLowerCase();
        return this;
    }

    public String deployment() {
        return deployment;
    }

    public ReplicationConfig deployment(final String deployment) {
        this.deployment = deployment;
        return this;
    }

    public Path root() {
        return Path.of(root);
    }

    public ReplicationConfig root(final Path root) {
        this.root = root.toString();
        return this;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public ReplicationConfig bootstrapServers(final String servers) {
        this.bootstrapServers = servers;
        return this;
    }

    public int replicationFactor() {
        return replicationFactor;
    }

    public ReplicationConfig replicationFactor(final int factor) {
        this.replicationFactor = factor;
        return this;
    }

    public int minInsyncReplicas() {
        return minInsyncReplicas;
    }

    public ReplicationConfig minInsyncReplicas(final int replicas) {
        this.minInsyncReplicas = replicas;
        return this;
    }

    public IdleConfig idle() {
        return idle;
    }

    public ReplicationConfig idle(final IdleConfig idle) {
        this.idle = idle;
        return this;
    }

    /**
     * @return the shipper's producer {@code linger.ms}: how long Kafka's producer may wait to fill a batch before it
     * sends it. 0 sends at once (records still share a batch while earlier requests are in flight); more sends fewer,
     * fuller requests, which costs the broker, the shipper and the receiver less CPU per record, for up to that much
     * more lag and acknowledged-mode latency
     */
    public int lingerMillis() {
        return lingerMillis;
    }

    public ReplicationConfig lingerMillis(final int millis) {
        this.lingerMillis = millis;
        return this;
    }

    /**
     * @return how long the shipper's Kafka transaction may collect excerpts before it is committed, µs. 0 (the default)
     * commits as soon as a round of the shipper's agent has shipped all there was (group commit: a trickle commits at
     * once, a backlog in few large transactions): the least lag and acknowledged-mode latency. More commits less often (fewer commit round trips and markers, less CPU per excerpt), for up to that
     * much more lag: readers ({@code read_committed}) and gateways in acknowledged mode see an excerpt once committed
     */
    public long transactionMicros() {
        return transactionMicros;
    }

    public ReplicationConfig transactionMicros(final long micros) {
        this.transactionMicros = micros;
        return this;
    }

    /**
     * @return with {@link #transactionMicros()} 0, how long the shipper may keep its open transaction for the effects of
     * the causes it holds, µs from its first excerpt: a command whose engine excerpt, or an engine excerpt whose
     * {@code sent} record, it has not read yet. Those effects then share their cause's commit, so a gateway in acknowledged
     * mode waits for one commit per report rather than one per causal step. 0 commits as soon as a round has caught up
     */
    public long commitWaitMicros() {
        return commitWaitMicros;
    }

    public ReplicationConfig commitWaitMicros(final long micros) {
        this.commitWaitMicros = micros;
        return this;
    }

    public long lagReportMillis() {
        return lagReportMillis;
    }

    public ReplicationConfig lagReportMillis(final long millis) {
        this.lagReportMillis = millis;
        return this;
    }
}
