package io.sluice.bench.replication;

import io.sluice.kafka.KafkaBrokerMain;
import io.sluice.kafka.KafkaCluster;
import io.sluice.runtime.process.JavaProcess;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two simulated hosts on this machine: two Linux network namespaces, {@code sluice-prim-<pid>} and
 * {@code sluice-repl-<pid>}, joined by a veth pair with one address at each end, and what a WAN does to the link
 * between them: {@code tc netem} delay and loss, a narrow link ({@code tc tbf}: a token-bucket rate limit whose queue
 * delays and then drops what exceeds it, as a congested WAN link does), a partition (the link set down at both ends)
 * and its healing. Made
 * with {@code ip} and {@code tc} as root; {@link #create} says why not where namespaces cannot be made, and
 * {@link #close} (also run by a shutdown hook, so a failing or interrupted run cleans up too) deletes both namespaces,
 * which deletes the veth pair with them. Namespaces left by a run that was killed with SIGKILL are deleted by the next
 * run's {@link #create}.
 */
final class NetnsLink implements AutoCloseable {
    static final String PRIMARY_ADDRESS = "10.231.15.1";
    static final String REPLICA_ADDRESS = "10.231.15.2";
    /** Where the broker {@link #startReplicaBroker} starts listens: {@code bootstrapServers} of every client. */
    static final String KAFKA_ADDRESS = REPLICA_ADDRESS + ":9092";
    private static final String PREFIX_PRIMARY = "sluice-prim-";
    private static final String PREFIX_REPLICA = "sluice-repl-";

    private final String primary;
    private final String replica;
    private final String primaryDevice;
    private final String replicaDevice;
    private final Thread cleanUpOnExit = new Thread(this::deleteNamespaces, "netns-clean-up");
    private boolean netem;
    private boolean tbf;

    private NetnsLink(final long id) {
        primary = PREFIX_PRIMARY + id;
        replica = PREFIX_REPLICA + id;
        primaryDevice = "slp" + (id % 1_000_000);
        replicaDevice = "slr" + (id % 1_000_000);
    }

    /** Why namespaces cannot be used here, or null when they can: the caller skips with this message. */
    static String unavailable() {
        try {
            final Result probe = run(List.of("ip", "netns", "list"));
            if (probe.exit != 0) {
                return "'ip netns list' failed (" + probe.output.strip() + ")";
            }
        } catch (final IOException e) {
            return "the 'ip' command cannot be run (" + e.getMessage() + "): install iproute2";
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return "creating network namespaces needs root (running as " + System.getProperty("user.name") + ")";
        }
        return null;
    }

    /**
     * Creates both namespaces and the link, addresses {@link #PRIMARY_ADDRESS} and {@link #REPLICA_ADDRESS} on a /24,
     * loopback up in each, and probes whether {@code tc netem} is there.
     *
     * @throws IllegalStateException with {@code ip}'s own message when a step fails
     */
    static NetnsLink create() throws IOException {
        deleteStale();
        final NetnsLink link = new NetnsLink(ProcessHandle.current().pid());
        Runtime.getRuntime().addShutdownHook(link.cleanUpOnExit);
        try {
            link.must("ip", "netns", "add", link.primary);
            link.must("ip", "netns", "add", link.replica);
            link.must("ip", "link", "add", link.primaryDevice, "netns", link.primary, "type", "veth", "peer", "name",
                    link.replicaDevice, "netns", link.replica);
            link.must("ip", "-n", link.primary, "addr", "add", PRIMARY_ADDRESS + "/24", "dev", link.primaryDevice);
            link.must("ip", "-n", link.replica, "addr", "add", REPLICA_ADDRESS + "/24", "dev", link.replicaDevice);
            for (final String namespace : List.of(link.primary, link.replica)) {
                link.must("ip", "-n", namespace, "link", "set", "lo", "up");
            }
            link.must("ip", "-n", link.primary, "link", "set", link.primaryDevice, "up");
            link.must("ip", "-n", link.replica, "link", "set", link.replicaDevice, "up");
            link.netem = link.kernelHas("netem", "delay", "0ms");
            link.tbf = link.kernelHas("tbf", "rate", "1gbit", "burst", "64kb", "latency", "10ms");
            return link;
        } catch (final IOException | RuntimeException e) {
            link.close();
            throw e;
        }
    }

    /** @return whether {@code tc} can set {@code qdisc} (with these arguments) on the link: it is set, then removed */
    private boolean kernelHas(final String qdisc, final String... arguments) throws IOException {
        final List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", primary, "tc", "qdisc", "add", "dev",
                primaryDevice, "root", qdisc));
        command.addAll(List.of(arguments));
        if (run(command).exit != 0) {
            return false;
        }
        must("ip", "netns", "exec", primary, "tc", "qdisc", "del", "dev", primaryDevice, "root");
        return true;
    }

    /** @return whether this kernel has {@code tc netem} (the sch_netem module): delay and loss need it */
    boolean hasNetem() {
        return netem;
    }

    /** @return whether this kernel has {@code tc tbf} (the sch_tbf module): the narrow link needs it */
    boolean hasTbf() {
        return tbf;
    }

    /** @return the command that runs a program in the primary host's namespace */
    List<String> inPrimary() {
        return List.of("ip", "netns", "exec", primary);
    }

    /** @return the command that runs a program in the replica host's namespace */
    List<String> inReplica() {
        return List.of("ip", "netns", "exec", replica);
    }

    /**
     * Starts a Kafka broker on the replica host at {@link #KAFKA_ADDRESS}, its data under {@code dir/kafka}, its log
     * {@code dir/logs/kafka.log}: the broker sits on the replica's side, so a primary's path to it crosses the link.
     */
    JavaProcess startReplicaBroker(final Path dir) throws IOException {
        return JavaProcess.start("kafka", dir.resolve("logs/kafka.log"), inReplica(), System.getProperty("java.class.path"),
                KafkaCluster.TEST_JVM, KafkaBrokerMain.class.getName(),
                "--data", dir.resolve("kafka").toString(), "--host", REPLICA_ADDRESS, "--port", "9092",
                "--controller-port", "9093");
    }

    /** Sets {@code tc netem} with these arguments (e.g. {@code delay 1ms 200us}) on both ends of the link. */
    void impair(final String... netemArguments) throws IOException {
        setRootQdisc("netem", netemArguments);
    }

    /**
     * Narrows the link: {@code tc tbf} with these arguments (e.g. {@code rate 8mbit burst 32kb latency 100ms}) on both
     * ends; {@link #clearImpairment} widens it again.
     */
    void narrow(final String... tbfArguments) throws IOException {
        setRootQdisc("tbf", tbfArguments);
    }

    private void setRootQdisc(final String qdisc, final String... arguments) throws IOException {
        for (final String[] end : List.of(new String[] {primary, primaryDevice}, new String[] {replica, replicaDevice})) {
            final List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", end[0], "tc", "qdisc", "replace",
                    "dev", end[1], "root", qdisc));
            command.addAll(List.of(arguments));
            must(command.toArray(String[]::new));
        }
    }

    /** Removes any {@link #impair} from both ends. */
    void clearImpairment() throws IOException {
        run(List.of("ip", "netns", "exec", primary, "tc", "qdisc", "del", "dev", primaryDevice, "root"));
        run(List.of("ip", "netns", "exec", replica, "tc", "qdisc", "del", "dev", replicaDevice, "root"));
    }

    /** Cuts the link: both ends down, so nothing passes either way (connections stay open and time out, as on a WAN). */
    void partition() throws IOException {
        must("ip", "-n", primary, "link", "set", primaryDevice, "down");
        must("ip", "-n", replica, "link", "set", replicaDevice, "down");
    }

    /** Ends a {@link #partition}: both ends up again (their addresses and routes come back with them). */
    void heal() throws IOException {
        must("ip", "-n", primary, "link", "set", primaryDevice, "up");
        must("ip", "-n", replica, "link", "set", replicaDevice, "up");
    }

    /** @return e.g. "sluice-prim-123 (10.231.15.1) <-veth-> sluice-repl-123 (10.231.15.2)" */
    String describe() {
        return primary + " (" + PRIMARY_ADDRESS + ", " + primaryDevice + ") <-veth-> " + replica + " (" + REPLICA_ADDRESS
                + ", " + replicaDevice + ")";
    }

    @Override
    public void close() {
        deleteNamespaces();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanUpOnExit);
        } catch (final IllegalStateException alreadyExiting) {
            // the hook is running or about to
        }
    }

    private void deleteNamespaces() {
        for (final String namespace : List.of(primary, replica)) {
            try {
                run(List.of("ip", "netns", "delete", namespace));
            } catch (final IOException e) {
                System.err.println("netns: cannot delete " + namespace + ": " + e.getMessage());
            }
        }
    }

    /** Deletes the namespaces of earlier runs whose process is gone (killed before it could clean up). */
    private static void deleteStale() throws IOException {
        for (final String line : run(List.of("ip", "netns", "list")).output.lines().toList()) {
            final String name = line.split(" ")[0];
            for (final String prefix : List.of(PREFIX_PRIMARY, PREFIX_REPLICA)) {
                if (name.startsWith(prefix) && name.substring(prefix.length()).matches("\\d+")
                        && ProcessHandle.of(Long.parseLong(name.substring(prefix.length()))).isEmpty()) {
                    run(List.of("ip", "netns", "delete", name));
                }
            }
        }
    }

    private void must(final String... command) throws IOException {
        final Result result = run(List.of(command));
        if (result.exit != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + result.exit + "): "
                    + result.output.strip());
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result run(final List<String> command) throws IOException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within 30 s");
            }
            return new Result(process.exitValue(), output);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running " + String.join(" ", command), e);
        }
    }
}
