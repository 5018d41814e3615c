package io.sluice.bench.replication;

import io.sluice.contracts.journal.ExcerptCount;
import io.sluice.contracts.journal.Journals;
import io.sluice.replication.JournalName;
import io.sluice.replication.LogRecords;
import io.sluice.replication.PromoteMain;
import io.sluice.replication.ReplicateMain;
import io.sluice.replication.ReplicationConfig;
import io.sluice.replication.StandbyMain;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The replication roles as real child processes, as {@code ./sluice replicate} and {@code ./sluice promote} run them. A
 * shipper, a receiver, a promotion, for the end-to-end tests and benchmarks, and what they compare: each journal's
 * excerpt count under a root, and each topic's end offset in Kafka.
 */
public final class ReplicationProcesses {
    private ReplicationProcesses() {
    }

    /**
     * What a benchmark may vary in a shipper: the producer's {@code linger.ms}, its {@code transactionMillis}, its
     * agent's idle strategy (YAML, e.g. {@code backoff} or {@code { strategy: sleep-ms, sleepPeriodMs: 1 }}) and how
     * long it holds a frame open ({@code frameHoldMicros}); and a test its lease ({@code leaseMillis}).
     */
    public record ShipperTuning(int lingerMillis, long transactionMillis, String idle, long frameHoldMicros,
                                long leaseMillis) {
        /** The idle value that leaves the config's default ({@link ReplicationConfig#defaultIdle()}). */
        public static final String DEFAULT_IDLE = "default";
        /** The shipper as {@code ./sluice replicate} runs it by default. */
        public static final ShipperTuning DEFAULTS = new ShipperTuning(ReplicationConfig.DEFAULT_LINGER_MILLIS,
                ReplicationConfig.DEFAULT_TRANSACTION_MILLIS, DEFAULT_IDLE, ReplicationConfig.DEFAULT_FRAME_HOLD_MICROS,
                ReplicationConfig.DEFAULT_LEASE_MILLIS);

        /** @return these settings with the lease {@code millis} */
        public ShipperTuning lease(final long millis) {
            return new ShipperTuning(lingerMillis, transactionMillis, idle, frameHoldMicros, millis);
        }
    }

    /** Starts a shipper of {@code root} to {@code servers} as {@code ./sluice replicate} runs one by default. */
    public static JavaProcess ship(final Path dir, final String name, final String deployment, final Path root,
                                   final String servers) throws IOException {
        return ship(dir, name, deployment, root, servers, ShipperTuning.DEFAULTS);
    }

    /** As {@link #ship(Path, String, String, Path, String)}, tuned. */
    public static JavaProcess ship(final Path dir, final String name, final String deployment, final Path root,
                                   final String servers, final ShipperTuning tuning) throws IOException {
        return replicate(dir, name, "ship", deployment, root, servers, tuning, List.of());
    }

    /** As {@link #ship(Path, String, String, Path, String)}, the JVM run by {@code launcher} (e.g. nice -n 19). */
    public static JavaProcess ship(final Path dir, final String name, final String deployment, final Path root,
                                   final String servers, final List<String> launcher) throws IOException {
        return replicate(dir, name, "ship", deployment, root, servers, ShipperTuning.DEFAULTS, launcher);
    }

    public static JavaProcess receive(final Path dir, final String name, final String deployment, final Path root,
                                      final String servers) throws IOException {
        return replicate(dir, name, "receive", deployment, root, servers, ShipperTuning.DEFAULTS, List.of());
    }

    /** Starts {@code ./sluice promote --root root --bootstrap-servers servers}. */
    public static JavaProcess promote(final Path dir, final Path root, final String servers) throws IOException {
        return JavaProcess.start("promote", dir.resolve("promote.log"), List.of("-Xmx256m", "-XX:+UseSerialGC"),
                PromoteMain.class, "--root", root.toString(), "--bootstrap-servers", servers);
    }

    /**
     * Starts {@code ./sluice standby} for {@code deployment} into {@code root}, named {@code name}, taking over after
     * {@code failoverAfterMillis} of the primary's silence and then running {@code start}, each a command line.
     */
    public static JavaProcess standby(final Path dir, final String name, final String deployment, final Path root,
                                      final String servers, final long failoverAfterMillis,
                                      final List<List<String>> start) throws IOException {
        return standby(dir, name, deployment, root, servers, failoverAfterMillis, start, List.of());
    }

    /** As {@link #standby(Path, String, String, Path, String, long, List)}, run by {@code launcher} (a namespace). */
    public static JavaProcess standby(final Path dir, final String name, final String deployment, final Path root,
                                      final String servers, final long failoverAfterMillis,
                                      final List<List<String>> start, final List<String> launcher) throws IOException {
        final Path config = dir.resolve(name + ".yaml");
        final StringBuilder commands = new StringBuilder();
        for (final List<String> command : start) {
            commands.append(commands.isEmpty() ? "" : ",\n").append("    \"").append(String.join(" ", command))
                    .append('"');
        }
        Files.writeString(config, "!StandbyConfig {\n"
                + "  deployment: " + deployment + ",\n"
                + "  name: " + name + ",\n"
                + "  root: " + root + ",\n"
                + "  bootstrapServers: \"" + servers + "\",\n"
                + "  failoverAfterMillis: " + failoverAfterMillis + ",\n"
                + "  idle: backoff,\n"
                + "  lagReportMillis: 1000,\n"
                + "  start: [\n" + commands + "\n  ]\n"
                + "}\n");
        return JavaProcess.start(name, dir.resolve(name + ".log"), launcher, System.getProperty("java.class.path"),
                List.of("-Xmx256m", "-XX:+UseSerialGC"), StandbyMain.class.getName(), "--config", config.toString());
    }

    private static JavaProcess replicate(final Path dir, final String name, final String mode, final String deployment,
                                         final Path root, final String servers, final ShipperTuning tuning,
                                         final List<String> launcher) throws IOException {
        final Path config = dir.resolve(name + ".yaml");
        Files.writeString(config, "!ReplicationConfig {\n"
                + "  mode: " + mode + ",\n"
                + "  deployment: " + deployment + ",\n"
                + "  root: " + root + ",\n"
                + "  bootstrapServers: \"" + servers + "\",\n"
                + "  replicationFactor: 1,\n"
                + "  minInsyncReplicas: 1,\n"
                + (tuning.idle().equals(ShipperTuning.DEFAULT_IDLE) ? "" : "  idle: " + tuning.idle() + ",\n")
                + "  lagReportMillis: 1000,\n"
                + "  lingerMillis: " + tuning.lingerMillis() + ",\n"
                + "  transactionMillis: " + tuning.transactionMillis() + ",\n"
                + "  frameHoldMicros: " + tuning.frameHoldMicros() + ",\n"
                + "  leaseMillis: " + tuning.leaseMillis() + "\n"
                + "}\n");
        return JavaProcess.start(name, dir.resolve(name + ".log"), launcher, System.getProperty("java.class.path"),
                List.of("-Xmx256m", "-XX:+UseSerialGC"), ReplicateMain.class.getName(), "--config", config.toString());
    }

    /** @return each journal's excerpt count under {@code root}, by journal name */
    public static Map<String, Long> excerptCounts(final Path root) throws IOException {
        final Map<String, Long> counts = new TreeMap<>();
        try (Stream<Path> children = Files.list(root)) {
            for (final Path dir : children.filter(Files::isDirectory)
                    .filter(dir -> JournalName.parse(dir.getFileName().toString()) != null).toList()) {
                try (ChronicleQueue journal = Journals.openReadOnly(dir)) {
                    counts.put(dir.getFileName().toString(), ExcerptCount.of(journal));
                }
            }
        }
        return counts;
    }

    /** @return the index of each journal's last excerpt in the log of {@code deployment}, by journal name (-1: a journal shipped with none yet) */
    public static Map<String, Long> kafkaLastIndexes(final String servers, final String deployment) {
        return LogRecords.lastIndexes(servers, deployment, Duration.ofSeconds(10), SystemNanoClock.INSTANCE);
    }

    /** @return each journal's last index under {@code root} (-1 for an empty one), by journal name */
    public static Map<String, Long> lastIndexes(final Path root) throws IOException {
        final Map<String, Long> last = new TreeMap<>();
        try (Stream<Path> children = Files.list(root)) {
            for (final Path dir : children.filter(Files::isDirectory)
                    .filter(dir -> JournalName.parse(dir.getFileName().toString()) != null).toList()) {
                try (ChronicleQueue journal = Journals.openReadOnly(dir)) {
                    last.put(dir.getFileName().toString(), Math.max(-1, journal.lastIndex()));
                }
            }
        }
        return last;
    }

    /**
     * The loss of the primary host: SIGKILL to every process and the processes they started (a standby's engine and
     * gateways) at once (microseconds apart, none waiting for another to die, so none gets to write, send or ship
     * anything after the others stopped), then waits for them to be gone.
     */
    public static void loseHost(final JavaProcess... processes) throws InterruptedException {
        final List<ProcessHandle> children = new ArrayList<>();
        for (final JavaProcess process : processes) {
            ProcessHandle.of(process.pid()).ifPresent(handle -> handle.descendants().forEach(children::add));
        }
        for (final JavaProcess process : processes) {
            ProcessHandle.of(process.pid()).ifPresent(ProcessHandle::destroyForcibly);
        }
        children.forEach(ProcessHandle::destroyForcibly);
        for (final JavaProcess process : processes) {
            process.kill9();
        }
    }
}
