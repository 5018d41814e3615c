package io.sluice.kafka;

import io.sluice.runtime.agent.SigtermHook;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice kafka --data DIR}: one Apache Kafka node in KRaft mode (broker and controller in one process). It
 * runs from the Maven artifacts with nothing but a JDK. It writes the node's {@code server.properties} under the data
 * directory from its options, formats the storage there on first use ({@code kafka.tools.StorageTool format}, with the
 * cluster id), and then runs the broker ({@code kafka.Kafka}) until SIGTERM (exit code 0 once the broker has shut down,
 * {@link SigtermHook}); the data stays in {@code DIR/logs} for the next start. One node alone is a single-broker
 * cluster; three started with the same {@code --cluster-id} and
 * {@code --voters} (every node's {@code id@host:controllerPort}) are a real 3-broker cluster with a 3-voter controller
 * quorum (a static quorum, {@code controller.quorum.voters}). Any other broker property is set with
 * {@code --set key=value}.
 * <p>
 * A module of its own, so that the broker's Scala jars are never on a shipper's or receiver's class path.
 */
@Command(name = "kafka", mixinStandardHelpOptions = true,
        description = "An Apache Kafka node in KRaft mode (broker + controller), storage formatted on first use.")
public final class KafkaBrokerMain implements Callable<Integer> {
    /** The file under the data directory that says the storage is formatted (Kafka's own, under log.dirs). */
    static final String META_PROPERTIES = "meta.properties";

    @Option(names = "--data", required = true, paramLabel = "DIR", description = "where the node keeps its data (log.dirs is DIR/logs)")
    private Path data;

    @Option(names = "--node-id", defaultValue = "1", description = "node.id, unique in the cluster (default ${DEFAULT-VALUE})")
    private int nodeId;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "address to listen on and advertise (default ${DEFAULT-VALUE})")
    private String host;

    @Option(names = "--port", defaultValue = "9092", description = "client (broker) port (default ${DEFAULT-VALUE})")
    private int port;

    @Option(names = "--controller-port", defaultValue = "9093", description = "controller quorum port (default ${DEFAULT-VALUE})")
    private int controllerPort;

    @Option(names = "--voters", paramLabel = "ID@HOST:PORT,...",
            description = "every controller of the cluster, e.g. 1@h1:9093,2@h2:9093,3@h3:9093 (default: this node alone)")
    private String voters;

    @Option(names = "--cluster-id", paramLabel = "ID",
            description = "the cluster id the storage is formatted with; the same on every node of a cluster "
                    + "(default: a fixed id for a single node; required with --voters)")
    private String clusterId;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "any other broker property (repeatable)")
    private List<String> extra = new ArrayList<>();

    /** The cluster id of a single node started without {@code --cluster-id}: a base64 UUID, as Kafka wants. */
    static final String SINGLE_NODE_CLUSTER_ID = "c2x1aWNlLWthZmthLTAwMQ";

    public static void main(final String[] args) {
        // SIGTERM: System.exit(0), whose shutdown hooks include the broker's own (a clean broker shutdown), where the
        // JVM's default would exit 143.
        SigtermHook.handleSignals();
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        final CommandLine line = new CommandLine(new KafkaBrokerMain());
        final int code = line.execute(args);
        if (code != 0 || line.getParseResult().isUsageHelpRequested() || line.getParseResult().isVersionHelpRequested()) {
            System.exit(code);
        }
        // kafka.Kafka.main returned: the broker has shut down.
    }

    @Override
    public Integer call() throws IOException {
        if (voters != null && clusterId == null) {
            System.err.println("kafka: --voters names a cluster of several nodes: give them all the same --cluster-id "
                    + "(any 22-character base64 UUID, e.g. " + randomClusterId() + ")");
            return 2;
        }
        final String quorum = voters != null ? voters : nodeId + "@" + host + ":" + controllerPort;
        final int nodes = quorum.split(",").length;
        final Path logs = data.toAbsolutePath().resolve("logs");
        Files.createDirectories(logs);
        final Map<String, String> properties = new LinkedHashMap<>();
        properties.put("process.roles", "broker,controller");
        properties.put("node.id", Integer.toString(nodeId));
        properties.put("controller.quorum.voters", quorum);
        properties.put("listeners", "PLAINTEXT://" + host + ":" + port + ",CONTROLLER://" + host + ":" + controllerPort);
        properties.put("advertised.listeners", "PLAINTEXT://" + host + ":" + port);
        properties.put("controller.listener.names", "CONTROLLER");
        properties.put("inter.broker.listener.name", "PLAINTEXT");
        properties.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        properties.put("log.dirs", logs.toString());
        // Sluice creates its topics itself, with their replication factor and retention: never by accident.
        properties.put("auto.create.topics.enable", "false");
        final String internalReplicas = Integer.toString(Math.min(3, nodes));
        properties.put("offsets.topic.replication.factor", internalReplicas);
        properties.put("transaction.state.log.replication.factor", internalReplicas);
        // The shipper commits in transactions: their state log must accept writes on a 1-broker cluster (min.isr 1) and
        // survive a broker's loss on a 3-broker one (replication factor 3, min.isr 2, as the shipper's topics).
        properties.put("transaction.state.log.min.isr", nodes >= 3 ? "2" : "1");
        properties.put("share.coordinator.state.topic.replication.factor", internalReplicas);
        properties.put("share.coordinator.state.topic.min.isr", "1");
        properties.put("group.initial.rebalance.delay.ms", "0");
        // A transaction's first record that reaches a partition while the coordinator still writes the previous
        // transaction's markers is retried by the broker after this backoff (Kafka's default 20 ms): every report of a
        // gateway in acknowledged replication that fell in such a transaction waited 20 ms or more (the p90-p99 of
        // bench replication-fix). The markers take well under a millisecond here: retry after 1 ms.
        properties.put("add.partitions.to.txn.retry.backoff.ms", "1");
        for (final String setting : extra) {
            final int eq = setting.indexOf('=');
            if (eq <= 0) {
                System.err.println("kafka: --set takes KEY=VALUE, got '" + setting + "'");
                return 2;
            }
            properties.put(setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
        }
        final Path serverProperties = data.toAbsolutePath().resolve("server.properties");
        final StringBuilder text = new StringBuilder("# Written by ./sluice kafka at every start, from its options.\n");
        properties.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        Files.writeString(serverProperties, text, StandardCharsets.UTF_8);

        if (!Files.exists(logs.resolve(META_PROPERTIES))) {
            final String id = clusterId != null ? clusterId : SINGLE_NODE_CLUSTER_ID;
            final int formatted = kafka.tools.StorageTool.execute(
                    new String[]{"format", "-t", id, "-c", serverProperties.toString()}, new PrintStream(System.out, true));
            if (formatted != 0) {
                System.err.println("kafka: formatting the storage in " + logs + " failed (code " + formatted + ")");
                return 1;
            }
            System.out.println("kafka: formatted " + logs + " for cluster " + id + " (node " + nodeId + ")");
        }
        System.out.println("kafka: node " + nodeId + " starting on " + host + ":" + port + " (controller port "
                + controllerPort + ", voters " + quorum + "), data " + logs);
        kafka.Kafka.main(new String[]{serverProperties.toString()});
        return 0;
    }

    /** @return a fresh cluster id in Kafka's form: a UUID, base64url without padding. */
    static String randomClusterId() {
        final UUID uuid = UUID.randomUUID();
        final ByteBuffer bytes = ByteBuffer.allocate(16);
        bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }
}
