package io.sluice.kafka;

import io.sluice.runtime.process.JavaProcess;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Real Apache Kafka nodes (KRaft, broker and controller each) started as child processes through {@code ./sluice
 * kafka}'s main. They run {@link KafkaBrokerMain} on free loopback ports with their data under a directory; ready once
 * an AdminClient sees every broker, polled, never slept on. One node is a single-broker cluster; three form
 * a 3-voter quorum. For tests and benchmarks: the child runs on this JVM's class path, which must hold the broker.
 */
public final class KafkaCluster implements AutoCloseable {
    private static final long READY_SECONDS = 90;
    private static final String CLUSTER_ID = "c2x1aWNlLXRlc3QtY2x1cw";
    /** A node's JVM for tests: C1 only, so that short-lived brokers do not spend the machine's CPU compiling. */
    public static final List<String> TEST_JVM = List.of("-Xmx320m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    /**
     * A node's JVM for benchmarks: the full JIT, as a production broker runs; C1-only code costs the broker more CPU per
     * request, which on a shared 2-core host is taken from what the benchmark measures.
     */
    public static final List<String> BENCH_JVM = List.of("-Xmx512m", "-XX:+UseSerialGC");

    private final Path dir;
    private final int[] ports;
    private final int[] controllerPorts;
    private final String voters;
    private final JavaProcess[] nodes;
    private final List<String> jvm;
    /** Times the waits for the brokers: test and benchmark support, on the system's clock. */
    private final NanoClock clock = SystemNanoClock.INSTANCE;

    private KafkaCluster(final Path dir, final int size, final List<String> jvm) throws IOException {
        this.dir = dir;
        this.jvm = jvm;
        ports = new int[size];
        controllerPorts = new int[size];
        final int[] free = freePorts(2 * size);
        final StringBuilder quorum = new StringBuilder();
        for (int i = 0; i < size; i++) {
            ports[i] = free[2 * i];
            controllerPorts[i] = free[2 * i + 1];
            quorum.append(i == 0 ? "" : ",").append(i + 1).append("@127.0.0.1:").append(controllerPorts[i]);
        }
        voters = quorum.toString();
        nodes = new JavaProcess[size];
    }

    /** Starts {@code size} nodes with {@link #TEST_JVM} and waits until all brokers are up. */
    public static KafkaCluster start(final Path dir, final int size) throws Exception {
        return start(dir, size, TEST_JVM);
    }

    /** Starts {@code size} nodes, each a JVM with the flags {@code jvm}, and waits until all brokers are up. */
    public static KafkaCluster start(final Path dir, final int size, final List<String> jvm) throws Exception {
        final KafkaCluster cluster = new KafkaCluster(dir, size, jvm);
        for (int i = 0; i < size; i++) {
            cluster.launch(i);
        }
        cluster.awaitBrokers(size);
        return cluster;
    }

    private void launch(final int node) throws IOException {
        nodes[node] = JavaProcess.start("kafka-" + (node + 1), dir.resolve("kafka-" + (node + 1) + ".log"),
                jvm, KafkaBrokerMain.class,
                "--data", dir.resolve("kafka-" + (node + 1)).toString(), "--node-id", Integer.toString(node + 1),
                "--port", Integer.toString(ports[node]), "--controller-port", Integer.toString(controllerPorts[node]),
                "--voters", voters, "--cluster-id", CLUSTER_ID);
    }

    /** @return the bootstrap servers of every node */
    public String bootstrapServers() {
        final StringBuilder servers = new StringBuilder();
        for (int i = 0; i < ports.length; i++) {
            servers.append(i == 0 ? "" : ",").append("127.0.0.1:").append(ports[i]);
        }
        return servers.toString();
    }

    /** Kills node {@code node} (0-based) with SIGKILL. */
    public void kill9(final int node) throws InterruptedException {
        nodes[node].kill9();
    }

    /** Stops node {@code node} (0-based) with SIGTERM, a clean broker shutdown: @return its exit code */
    public int stop(final int node) throws InterruptedException {
        return nodes[node].stop(60);
    }

    /** Starts node {@code node} again on its data and waits until every broker is up. */
    public void restart(final int node) throws Exception {
        launch(node);
        awaitBrokers(ports.length);
    }

    /** Waits until an AdminClient sees {@code count} brokers. */
    public void awaitBrokers(final int count) throws Exception {
        final long deadline = clock.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
        try (Admin admin = admin()) {
            while (clock.nanoTime() < deadline) {
                for (final JavaProcess node : nodes) {
                    if (node != null && !node.isAlive()) {
                        throw new IllegalStateException(node.name() + " exited: " + node.logText());
                    }
                }
                try {
                    if (admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).size() >= count) {
                        return;
                    }
                } catch (final ExecutionException | TimeoutException notYet) {
                    // not up yet
                }
            }
        }
        throw new IllegalStateException("kafka brokers not up within " + READY_SECONDS + " s: " + logs());
    }

    /** @return the process id of node {@code node} (0-based), e.g. to read the CPU time it used */
    public long pid(final int node) {
        return nodes[node].pid();
    }

    public Admin admin() {
        final Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
        return Admin.create(properties);
    }

    public String logs() {
        final StringBuilder text = new StringBuilder();
        for (final JavaProcess node : nodes) {
            if (node != null) {
                final String log = node.logText();
                text.append("\n--- ").append(node.name()).append(" ---\n").append(log.substring(Math.max(0, log.length() - 4000)));
            }
        }
        return text.toString();
    }

    /**
     * @return {@code count} distinct free ports: all held open while they are picked (one socket closed before the next
     * opens can be given the same port again, and a broker cannot listen twice on one port)
     */
    private static int[] freePorts(final int count) throws IOException {
        final ServerSocket[] sockets = new ServerSocket[count];
        try {
            final int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (final ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        final List<JavaProcess> running = new ArrayList<>();
        for (final JavaProcess node : nodes) {
            if (node != null && node.isAlive()) {
                running.add(node);
            }
        }
        for (final JavaProcess node : running) {
            node.kill9(); // the test is over; nothing of the brokers' data is needed
        }
    }
}
