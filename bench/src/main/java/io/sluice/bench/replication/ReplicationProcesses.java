package io.sluice.bench.replication;

import io.sluice.contracts.journal.Journals;
import io.sluice.replication.JournalName;
import io.sluice.replication.PromoteMain;
import io.sluice.replication.ReplicateMain;
import io.sluice.replication.ReplicationConfig;
import io.sluice.replication.ReplicationTopics;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.impl.RollingChronicleQueue;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

/**
 * The replication roles as real child processes, as {@code ./sluice replicate} and {@code ./sluice promote} run them (a
 * shipper, a receiver, a promotion), for the end-to-end tests and benchmarks, and what they compare: each journal's
 * excerpt count under a root, and each topic's end offset in Kafka.
 */
public final class ReplicationProcesses {
    private ReplicationProcesses() {
    }

    public static JavaProcess ship(final Path dir, final String name, final String deployment, final Path root,
                            final String servers) throws IOException {
        return replicate(dir, name, "ship", deployment, root, servers, ReplicationConfig.DEFAULT_LINGER_MILLIS);
    }

    /** As {@link #ship(Path, String, String, Path, String)}, with the producer's {@code linger.ms} given. */
    public static JavaProcess ship(final Path dir, final String name, final String deployment, final Path root,
                                   final String servers, final int lingerMillis) throws IOException {
        return replicate(dir, name, "ship", deployment, root, servers, lingerMillis);
    }

    public static JavaProcess receive(final Path dir, final String name, final String deployment, final Path root,
                               final String servers) throws IOException {
        return replicate(dir, name, "receive", deployment, root, servers, ReplicationConfig.DEFAULT_LINGER_MILLIS);
    }

    /** Starts {@code ./sluice promote --root root --bootstrap-servers servers}. */
    public static JavaProcess promote(final Path dir, final Path root, final String servers) throws IOException {
        return JavaProcess.start("promote", dir.resolve("promote.log"), List.of("-Xmx256m", "-XX:+UseSerialGC"),
                PromoteMain.class, "--root", root.toString(), "--bootstrap-servers", servers);
    }

    private static JavaProcess replicate(final Path dir, final String name, final String mode, final String deployment,
                                         final Path root, final String servers, final int lingerMillis) throws IOException {
        final Path config = dir.resolve(name + ".yaml");
        Files.writeString(config, "!io.sluice.replication.ReplicationConfig {\n"
                + "  mode: " + mode + ",\n"
                + "  deployment: " + deployment + ",\n"
                + "  root: " + root + ",\n"
                + "  bootstrapServers: \"" + servers + "\",\n"
                + "  replicationFactor: 1,\n"
                + "  minInsyncReplicas: 1,\n"
                + "  idle: { strategy: backoff },\n"
                + "  lagReportMillis: 1000,\n"
                + "  lingerMillis: " + lingerMillis + "\n"
                + "}\n");
        return JavaProcess.start(name, dir.resolve(name + ".log"), List.of("-Xmx256m", "-XX:+UseSerialGC"),
                ReplicateMain.class, "--config", config.toString());
    }

    /** @return each journal's excerpt count under {@code root}, by journal name */
    public static Map<String, Long> excerptCounts(final Path root) throws IOException {
        final Map<String, Long> counts = new TreeMap<>();
        try (Stream<Path> children = Files.list(root)) {
            for (final Path dir : children.filter(Files::isDirectory)
                    .filter(dir -> JournalName.parse(dir.getFileName().toString()) != null).toList()) {
                try (ChronicleQueue journal = Journals.openReadOnly(dir)) {
                    final long last = journal.lastIndex();
                    counts.put(dir.getFileName().toString(), last < 0 ? 0
                            : ((RollingChronicleQueue) journal).countExcerpts(journal.firstIndex(), last) + 1);
                }
            }
        }
        return counts;
    }

    /** @return the end offset (records held) of every topic of {@code deployment}, by journal name */
    public static Map<String, Long> kafkaEnds(final Admin admin, final String deployment)
            throws ExecutionException, InterruptedException {
        final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (final String topic : admin.listTopics().names().get()) {
            if (ReplicationTopics.journalOf(deployment, topic) != null) {
                latest.put(new TopicPartition(topic, 0), OffsetSpec.latest());
            }
        }
        final Map<String, Long> ends = new TreeMap<>();
        admin.listOffsets(latest).all().get().forEach((partition, info) ->
                ends.put(ReplicationTopics.journalOf(deployment, partition.topic()).name(), info.offset()));
        return ends;
    }
}
