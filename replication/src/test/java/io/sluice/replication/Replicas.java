package io.sluice.replication;

import io.sluice.runtime.process.AwaitPromotion;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Shippers, receivers and journal flows as real child processes, and polling for what the tests wait on. */
final class Replicas {
    private Replicas() {
    }

    /** Writes a {@code ./sluice replicate} config and starts the process on it. */
    static JavaProcess start(final Path dir, final String name, final String mode, final String deployment, final Path root,
                             final String servers, final int replicationFactor, final int minInsync) throws IOException {
        return start(dir, name, mode, deployment, root, servers, replicationFactor, minInsync, List.of());
    }

    /** As {@link #start(Path, String, String, String, Path, String, int, int)}, run by {@code launcher} (e.g. nice). */
    static JavaProcess start(final Path dir, final String name, final String mode, final String deployment, final Path root,
                             final String servers, final int replicationFactor, final int minInsync,
                             final List<String> launcher) throws IOException {
        return start(dir, name, mode, deployment, root, servers, replicationFactor, minInsync, launcher, "");
    }

    /** As {@link #start(Path, String, String, String, Path, String, int, int, List)}, with more config lines. */
    static JavaProcess start(final Path dir, final String name, final String mode, final String deployment, final Path root,
                             final String servers, final int replicationFactor, final int minInsync,
                             final List<String> launcher, final String moreConfig) throws IOException {
        final Path config = dir.resolve(name + ".yaml");
        Files.writeString(config, "!ReplicationConfig {\n"
                + "  mode: " + mode + ",\n"
                + "  deployment: " + deployment + ",\n"
                + "  root: " + root + ",\n"
                + "  bootstrapServers: \"" + servers + "\",\n"
                + "  replicationFactor: " + replicationFactor + ",\n"
                + "  minInsyncReplicas: " + minInsync + ",\n"
                + "  idle: { strategy: sleep-ms, sleepPeriodMs: 1 },\n"
                + moreConfig
                + "  lagReportMillis: 1000\n"
                + "}\n");
        return JavaProcess.start(name, dir.resolve(name + ".log"), launcher, System.getProperty("java.class.path"),
                List.of("-Xmx256m", "-XX:+UseSerialGC"), ReplicateMain.class.getName(), "--config", config.toString());
    }

    static JavaProcess ship(final Path dir, final String name, final String deployment, final Path root, final String servers)
            throws IOException {
        return start(dir, name, "ship", deployment, root, servers, 1, 1);
    }

    /**
     * A shipper that holds a frame open up to {@code awaitedMicros} for the excerpts that follow its first while a
     * gateway waits for acknowledgements, {@code asynchronousMicros} while none does.
     */
    static JavaProcess ship(final Path dir, final String name, final String deployment, final Path root, final String servers,
                            final long awaitedMicros, final long asynchronousMicros) throws IOException {
        return start(dir, name, "ship", deployment, root, servers, 1, 1, List.of(),
                "  frameHoldMicros: " + awaitedMicros + ",\n  asynchronousFrameHoldMicros: " + asynchronousMicros + ",\n");
    }

    static JavaProcess receive(final Path dir, final String name, final String deployment, final Path root,
                               final String servers) throws IOException {
        return start(dir, name, "receive", deployment, root, servers, 1, 1);
    }

    /**
     * Starts {@code ./sluice standby} for {@code deployment} into {@code root}, taking over after 2 s of silence, with a
     * stand-in for the engine and gateways: a shell script that, as they do, follows the standby's words until
     * {@link AwaitPromotion.Word#PROMOTED} and then runs until the standby stops it.
     */
    static JavaProcess standby(final Path dir, final String name, final String deployment, final Path root,
                               final String servers) throws IOException {
        return standby(dir, name, deployment, root, servers, """
                while read word; do
                    case "$word" in
                        PROMOTED) exec sleep 3600 ;;
                        STANDING_BY|TAKING_OVER) ;;
                        *) echo "stand-in: got '$word'" >&2; exit 2 ;;
                    esac
                done
                """);
    }

    /** As {@link #standby(Path, String, String, Path, String)}, its stand-in the shell script {@code standIn}. */
    static JavaProcess standby(final Path dir, final String name, final String deployment, final Path root,
                               final String servers, final String standInScript) throws IOException {
        final Path standIn = Files.writeString(dir.resolve(name + "-stand-in.sh"), standInScript);
        final Path config = dir.resolve(name + ".yaml");
        Files.writeString(config, "!StandbyConfig {\n"
                + "  deployment: " + deployment + ",\n"
                + "  name: " + name + ",\n"
                + "  root: " + root + ",\n"
                + "  bootstrapServers: \"" + servers + "\",\n"
                + "  failoverAfterMillis: 2000,\n"
                + "  idle: backoff,\n"
                + "  lagReportMillis: 1000,\n"
                + "  start: [ \"sh " + standIn + "\" ]\n"
                + "}\n");
        return JavaProcess.start(name, dir.resolve(name + ".log"), List.of("-Xmx256m", "-XX:+UseSerialGC"),
                StandbyMain.class, "--config", config.toString());
    }

    /** Prints the steps a standby took over in, with their times. */
    static void printSteps(final JavaProcess standby) {
        standby.logText().lines().filter(line -> line.contains(" took ") || line.contains("promote:")).forEach(System.out::println);
    }

    /** Starts a {@link JournalFlow} writing {@code events} events at {@code rate} a second under {@code root}. */
    static JavaProcess flow(final Path dir, final Path root, final int events, final int rate) throws IOException {
        return JavaProcess.start("flow", dir.resolve("flow.log"), List.of("-Xmx256m", "-XX:+UseSerialGC"),
                JournalFlow.class, root.toString(), Integer.toString(events), Integer.toString(rate));
    }

    /** The file that ends a {@link #flowUntilStopped flow} started in {@code dir}. */
    static Path stopFile(final Path dir) {
        return dir.resolve("flow.stop");
    }

    /** Starts a {@link JournalFlow} writing at {@code rate} a second until {@link #stop(Path)} (or 200,000 events). */
    static JavaProcess flowUntilStopped(final Path dir, final Path root, final int rate) throws IOException {
        return JavaProcess.start("flow", dir.resolve("flow.log"), List.of("-Xmx256m", "-XX:+UseSerialGC"),
                JournalFlow.class, root.toString(), "200000", Integer.toString(rate), stopFile(dir).toString());
    }

    /** Ends the flow started in {@code dir} and waits for it to exit. */
    static void stop(final Path dir, final JavaProcess flow) throws Exception {
        Files.writeString(stopFile(dir), "stop");
        if (flow.waitFor(60) != 0) {
            throw new AssertionError("the flow failed: " + flow.logText());
        }
    }

    /** Waits until {@code root} holds {@code more} excerpts more than now: the flow goes on. */
    static void awaitGrowth(final Path root, final int more, final JavaProcess... watched) {
        final int now = total(root);
        await("the journals under " + root + " grew by " + more, 60, () -> total(root) >= now + more, watched);
    }

    /**
     * Polls {@code condition} ({@link PollUntil}) until it holds, for at most {@code seconds}; fails at once if a watched
     * process (other than the flow, which ends by itself) exits, and on timeout with {@code what} and their logs.
     */
    static void await(final String what, final long seconds, final BooleanSupplier condition, final JavaProcess... watched) {
        try {
            PollUntil.await(() -> {
                for (final JavaProcess process : watched) {
                    if (!process.isAlive() && !process.name().equals("flow")) {
                        throw new AssertionError(what + ": " + process.name() + " exited: " + process.logText());
                    }
                }
                return condition.getAsBoolean();
            }, Duration.ofSeconds(seconds), () -> what);
        } catch (final IllegalStateException timedOut) {
            final StringBuilder logs = new StringBuilder();
            for (final JavaProcess process : watched) {
                final String log = process.logText();
                logs.append("\n--- ").append(process.name()).append(" ---\n").append(log.substring(Math.max(0, log.length() - 3000)));
            }
            throw new AssertionError(timedOut.getMessage() + logs);
        }
    }

    /** @return true if every journal under {@code primary} has as many excerpts under {@code replica} (and some) */
    static boolean caughtUp(final Path primary, final Path replica) {
        try {
            final Map<String, Integer> expected = Excerpts.counts(primary);
            return !expected.isEmpty() && expected.equals(Excerpts.counts(replica));
        } catch (final IOException | IllegalStateException notReadableYet) {
            return false; // e.g. a replica journal created but not written yet cannot be opened read-only
        }
    }

    /**
     * Asserts that the log of {@code deployment}, read as every Sluice reader reads it (up to the high watermark,
     * {@link KafkaClients#consumer}), holds each excerpt of each journal once, in the journal's order, and every cause
     * before its effects ({@link CausalGate}, applied to the log as it is): so any prefix of it is a state the primary
     * passed through.
     */
    static void assertLogHoldsEachExcerptOnceCausesFirst(final String servers, final String deployment, final Path primary)
            throws Exception {
        final Map<String, List<Long>> indexes = new TreeMap<>();
        final CausalGate gate = new CausalGate();
        final ExcerptCall call = new ExcerptCall();
        final LogFrameReader frame = new LogFrameReader();
        final List<String> causesAfterEffects = new ArrayList<>();
        for (final ConsumerRecord<byte[], byte[]> record : log(servers, deployment)) {
            if (frame.wrap(record.value()) != LogFrame.Kind.EXCERPTS) {
                continue;
            }
            while (frame.next()) {
                final JournalName journal = JournalName.parse(frame.name());
                final boolean readable = call.read(new UnsafeBuffer(frame.value(), frame.excerptOffset(),
                        frame.excerptLength()), frame.excerptLength());
                if ((readable || !journal.holdsCalls()) && !gate.mayShip(journal, call)) {
                    causesAfterEffects.add(journal + " " + frame.index() + " at offset " + record.offset()
                            + " before " + gate.waitingFor(journal, call));
                }
                gate.shipped(journal, readable ? call : null, frame.index());
                indexes.computeIfAbsent(journal.name(), name -> new ArrayList<>()).add(frame.index());
            }
        }
        assertEquals(List.of(), causesAfterEffects, "effects before their causes in the log");
        for (final var journal : Excerpts.journals(primary).entrySet()) {
            assertEquals(Excerpts.of(journal.getValue()).indexes(), indexes.get(journal.getKey()),
                    journal.getKey() + ": one excerpt per index in the log, in order");
        }
    }

    /** @return every record of the log of {@code deployment} up to its end now, read as a receiver reads it */
    static List<ConsumerRecord<byte[], byte[]>> log(final String servers, final String deployment) {
        final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                KafkaClients.consumer(servers, "test-reader"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            final TopicPartition partition = new TopicPartition(LogTopic.of(deployment), 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            final long end = consumer.endOffsets(List.of(partition)).get(partition);
            await("reading " + partition, 60, () -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return consumer.position(partition) >= end;
            });
        }
        return records;
    }

    /** @return the total number of excerpts under {@code root} */
    static int total(final Path root) {
        try {
            return Excerpts.counts(root).values().stream().mapToInt(Integer::intValue).sum();
        } catch (final IOException | IllegalStateException notReadableYet) {
            return 0; // e.g. a replica journal created but not written yet cannot be opened read-only
        }
    }
}
