package io.sluice.replication;

import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.config.ConfigFile;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.nio.file.Path;

/**
 * The config of {@code ./sluice replicate} (YAML, see {@code replicate-ship-example.yaml} and {@code
 * replicate-receive-example.yaml}). Whether this process ships a primary root's journals to Kafka or rebuilds them
 * under a replica root, the deployment id (part of every topic name), the root, the Kafka bootstrap servers, and for a
 * shipper the replication factor and {@code min.insync.replicas} of the topics it creates.
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
    /** How often the shipper commits its transaction unless configured: see {@link #transactionMillis()}. */
    public static final long DEFAULT_TRANSACTION_MILLIS = 10_000;
    /** The agent's shortest park when idle unless configured: see {@link #defaultIdle()}. */
    public static final long DEFAULT_MIN_PARK_NANOS = 10_000;
    /** The agent's longest park when idle unless configured: see {@link #defaultIdle()}. */
    public static final long DEFAULT_MAX_PARK_NANOS = 200_000;
    /** How long the shipper holds a frame open unless configured: see {@link #frameHoldMicros()}. */
    public static final long DEFAULT_FRAME_HOLD_MICROS = 100;
    /** How long it holds one while no gateway waits unless configured: see {@link #asynchronousFrameHoldMicros()}. */
    public static final long DEFAULT_ASYNCHRONOUS_FRAME_HOLD_MICROS = 5000;
    /** How often the shipper writes a heartbeat unless configured: see {@link #heartbeatMillis()}. */
    public static final long DEFAULT_HEARTBEAT_MILLIS = 250;
    /** How many bytes a receiver's fetch waits for unless configured: see {@link #fetchMinBytes()}. */
    public static final int DEFAULT_FETCH_MIN_BYTES = 16_384;
    /** How long a receiver's fetch waits for them at most unless configured: see {@link #fetchMaxWaitMillis()}. */
    public static final int DEFAULT_FETCH_MAX_WAIT_MILLIS = 2;
    /** How long the shipper's lease lasts unless configured: see {@link #leaseMillis()}. */
    public static final long DEFAULT_LEASE_MILLIS = 1500;

    private String mode;
    private String deployment;
    private String root;
    private String bootstrapServers = "127.0.0.1:9092";
    private int replicationFactor = 1;
    private int minInsyncReplicas = 1;
    /**
     * Null unless the file or a caller sets it: {@link #idle()} then gives {@link #defaultIdle()}. A non-null initial
     * value would not survive a file without {@code idle}: Chronicle Wire resets a nested object left out of a file to
     * its own type's defaults (IdleConfig's spinning backoff), not to this field's initial value.
     */
    private IdleConfig idle;
    private long lagReportMillis = 1000;
    private int lingerMillis = DEFAULT_LINGER_MILLIS;
    private long transactionMillis = DEFAULT_TRANSACTION_MILLIS;
    private long heartbeatMillis = DEFAULT_HEARTBEAT_MILLIS;
    private long leaseMillis = DEFAULT_LEASE_MILLIS;
    private long frameHoldMicros = DEFAULT_FRAME_HOLD_MICROS;
    private long asynchronousFrameHoldMicros = DEFAULT_ASYNCHRONOUS_FRAME_HOLD_MICROS;
    private int fetchMinBytes = DEFAULT_FETCH_MIN_BYTES;
    private int fetchMaxWaitMillis = DEFAULT_FETCH_MAX_WAIT_MILLIS;
    /** Who the shipper's heartbeats name; unset: {@code shipper pid <pid> on <host>}. */
    private String heartbeatHolder;

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
        LogTopic.checkDeployment(deployment);
        require(root != null && !root.isBlank(), "root is missing");
        require(bootstrapServers != null && !bootstrapServers.isBlank(), "bootstrapServers is missing");
        require(replicationFactor >= 1, "replicationFactor must be at least 1, got " + replicationFactor);
        require(minInsyncReplicas >= 1 && minInsyncReplicas <= replicationFactor,
                "minInsyncReplicas must be 1 to replicationFactor, got " + minInsyncReplicas);
        idle().validate();
        require(lagReportMillis >= 0, "lagReportMillis must not be negative (0: no lag lines)");
        require(lingerMillis >= 0 && lingerMillis <= 1000, "lingerMillis must be 0 to 1000, got " + lingerMillis);
        require(transactionMillis >= 1 && transactionMillis <= KafkaClients.TRANSACTION_TIMEOUT_MILLIS / 2,
                "transactionMillis must be 1 to " + KafkaClients.TRANSACTION_TIMEOUT_MILLIS / 2 + ", got "
                        + transactionMillis);
        require(frameHoldMicros >= 0 && frameHoldMicros <= 100_000, "frameHoldMicros must be 0 to 100000, got "
                + frameHoldMicros);
        require(asynchronousFrameHoldMicros >= 0 && asynchronousFrameHoldMicros <= 100_000,
                "asynchronousFrameHoldMicros must be 0 to 100000, got " + asynchronousFrameHoldMicros);
        require(fetchMinBytes >= 1 && fetchMinBytes <= 1 << 20, "fetchMinBytes must be 1 to 1048576, got "
                + fetchMinBytes);
        require(fetchMaxWaitMillis >= 0 && fetchMaxWaitMillis <= 500, "fetchMaxWaitMillis must be 0 to 500, got "
                + fetchMaxWaitMillis);
        require(heartbeatMillis >= 10 && heartbeatMillis <= 10_000, "heartbeatMillis must be 10 to 10000, got "
                + heartbeatMillis);
        require(leaseMillis >= 2 * heartbeatMillis && leaseMillis <= 600_000, "leaseMillis must be twice heartbeatMillis ("
                + 2 * heartbeatMillis + ") to 600000, got " + leaseMillis);
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

    /**
     * @return the shipper's and receiver's idle strategy unless configured: {@code backoff} with no spins or yields,
     * parks of {@value #DEFAULT_MIN_PARK_NANOS} ns doubling to {@value #DEFAULT_MAX_PARK_NANOS} ns. Replication
     * shares the host with the engine and the gateways; a replication agent that spins after each excerpt takes a
     * core from them for what it would gain in µs
     */
    public static IdleConfig defaultIdle() {
        return IdleConfig.parking(DEFAULT_MIN_PARK_NANOS, DEFAULT_MAX_PARK_NANOS);
    }

    /** @return the configured idle strategy, or {@link #defaultIdle()} if none is */
    public IdleConfig idle() {
        return idle != null ? idle : defaultIdle();
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
     * @return how long the shipper keeps a frame that is not full open for the excerpts that follow its first, µs:
     * an order's command, engine excerpt and sent reports follow each other within tens of µs, and one frame for them
     * is one produce request instead of several (the broker's and the shipper's cost is per request). 0 sends each
     * frame as soon as nothing more can be read; more adds up to that much to the lag and to acknowledged mode's
     * latency
     */
    public long frameHoldMicros() {
        return frameHoldMicros;
    }

    public ReplicationConfig frameHoldMicros(final long micros) {
        this.frameHoldMicros = micros;
        return this;
    }

    /**
     * @return the hold, µs, while no gateway of the root waits for Kafka's acknowledgements (every gateway asynchronous,
     * {@link io.sluice.runtime.counters.AcknowledgementWaiters}): nobody waits for a frame, so it gathers what a
     * stream writes in that time into one produce request and one fetch. The default, 5 ms, is Kafka's own producer
     * default {@code linger.ms}; it is what the replica's lag adds at most, and what a host's loss can lose beyond
     * Kafka's round trip in asynchronous mode
     */
    public long asynchronousFrameHoldMicros() {
        return asynchronousFrameHoldMicros;
    }

    public ReplicationConfig asynchronousFrameHoldMicros(final long micros) {
        this.asynchronousFrameHoldMicros = micros;
        return this;
    }

    /**
     * @return how many bytes of the log the broker gathers before it answers a receiver's fetch, unless
     * {@link #fetchMaxWaitMillis()} passes first: one fetch then carries several frames when the primary is busy, and
     * the broker and the receiver wake once for them (their cost is per request). 1 answers each fetch as soon as a
     * byte is there
     */
    public int fetchMinBytes() {
        return fetchMinBytes;
    }

    public ReplicationConfig fetchMinBytes(final int bytes) {
        this.fetchMinBytes = bytes;
        return this;
    }

    /**
     * @return how long the broker holds a receiver's fetch for {@link #fetchMinBytes()} at most, ms: it adds up to that
     * much to the replica's lag (never to the primary's latency, in either mode), and bounds the requests of a quiet
     * primary
     */
    public int fetchMaxWaitMillis() {
        return fetchMaxWaitMillis;
    }

    public ReplicationConfig fetchMaxWaitMillis(final int millis) {
        this.fetchMaxWaitMillis = millis;
        return this;
    }

    /**
     * @return how often the shipper commits its Kafka transaction, ms. Readers do not wait for commits (they read up to
     * the high watermark): the transaction is what fences a zombie shipper, and it is committed on this timer, whatever
     * the writers do, well within Kafka's transaction timeout. Each commit stops the shipper for one flush and one
     * round trip to the transaction coordinator; fewer commits, fewer such pauses
     */
    public long transactionMillis() {
        return transactionMillis;
    }

    public ReplicationConfig transactionMillis(final long millis) {
        this.transactionMillis = millis;
        return this;
    }

    /**
     * @return how often the shipper writes a heartbeat to the deployment's lease topic ({@link LeaseTopic}), ms: a
     * standby takes over after {@code failoverAfter} without one, so this must be well below that
     */
    public long heartbeatMillis() {
        return heartbeatMillis;
    }

    /**
     * @return the shipper's lease, ms: when Kafka has acknowledged none of its writes (heartbeats, frames) sent in the
     * last this many ms, or the shipper is gone, the engine process's lease watch tells the engine through the admin
     * journal to reject new orders until Kafka takes the shipper's writes again ({@link ShipperLease}). Shorter than a
     * standby's {@code failoverAfterMillis} (default 2000; the standby refuses a config where it is not), so that the
     * primary stops taking orders before a standby takes over
     */
    public long leaseMillis() {
        return leaseMillis;
    }

    public ReplicationConfig leaseMillis(final long millis) {
        this.leaseMillis = millis;
        return this;
    }

    /** @return who the shipper's heartbeats name, or null for {@code shipper pid <pid> on <host>} */
    public String heartbeatHolder() {
        return heartbeatHolder;
    }

    /** Names the shipper in its heartbeats (a standby's: the standby, so that it knows them after a restart). */
    public ReplicationConfig heartbeatHolder(final String holder) {
        this.heartbeatHolder = holder;
        return this;
    }

    public ReplicationConfig heartbeatMillis(final long millis) {
        this.heartbeatMillis = millis;
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
