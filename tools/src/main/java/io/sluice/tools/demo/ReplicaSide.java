package io.sluice.tools.demo;

import io.sluice.kafka.KafkaBrokerMain;
import io.sluice.kafka.KafkaCluster;
import io.sluice.replay.ReplayMain;
import io.sluice.replication.JournalSetComparison;
import io.sluice.replication.ReplicateMain;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.LoopbackPorts;
import io.sluice.tools.fix.SluiceConfigs;
import io.sluice.tools.fix.SluiceDeployment;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code ./sluice demo --replicate} runs beside the deployment, each a child JVM as its own role would run it: a
 * single Kafka broker ({@code ./sluice kafka}, data under the demo's root), a shipper on the demo's journals and a
 * receiver into a second root ({@code ./sluice replicate}), and a shadow engine following that replica root
 * ({@code ./sluice replay --follow}). The replica lag and the shadow's running count are read from the receiver's and
 * the shadow's own status lines (no second computation of either); at the end the replica is compared with the
 * primary excerpt by excerpt ({@link JournalSetComparison}) and the shadow stopped for its verdict.
 */
final class ReplicaSide implements AutoCloseable {
    private static final String DEPLOYMENT = "demo";
    private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    /**
     * The shadow's idle: parks only, 10 µs doubling to 1 ms. It follows a replica the receiver writes once per shipped
     * frame (up to 5 ms of flow), and the engine's default back-off (spins, yields, parks up to 100 µs) woke it some
     * 9,000 times a second between frames, each a context switch taken from the primary's processes on this host.
     */
    private static final IdleConfig SHADOW_IDLE = IdleConfig.parking(10_000, 1_000_000);
    /** How long the shadow's last status line must stay "0 behind and nothing compared" before it counts as settled. */
    private static final long SETTLED_NANOS = 2_500_000_000L;
    /** The log's part of the receiver's lag line: {@code log 0 behind} ({@code ?} while unknown). */
    private static final Pattern LOG_LAG = Pattern.compile("\\| log (\\d+|\\?) behind");
    /** A journal's part of the receiver's lag line: {@code engine, last 125 µs old}. */
    private static final Pattern JOURNAL_AGE = Pattern.compile("\\| \\S+, last (-?\\d+) µs old");
    private static final long COMPARISON_PERIOD_NANOS = 500_000_000L;
    /** The receiver's lag line while Kafka does not answer: {@code | kafka unreachable since 21:50:27 UTC (12 s)}. */
    private static final Pattern KAFKA_UNREACHABLE = Pattern.compile("\\| (kafka unreachable since [^|]+?) \\|");
    private static final Pattern REPORTS_COMPARED = Pattern.compile("([\\d,]+) reports compared, identical so far");
    /** The shadow's exit code (ReplayMain) for a divergence; a stop by SIGTERM, every report identical, exits 0. */
    private static final int SHADOW_DIVERGED = 3;

    private final Path replica;
    private final NanoClock clock;
    private final List<JavaProcess> processes = new ArrayList<>();
    private final Thread killOnExit = new Thread(this::killAll, "demo-replica-kill-on-exit");
    private JavaProcess kafka;
    private JavaProcess shipper;
    private JavaProcess receiver;
    private JavaProcess shadow;

    /** How the replica and the shadow ended. */
    record Verdict(JournalSetComparison replica, String shadow, boolean shadowIdentical) {
        boolean passed() {
            return replica.identical() && shadowIdentical;
        }
    }

    private ReplicaSide(final Path replica, final NanoClock clock) {
        this.replica = replica;
        this.clock = clock;
    }

    /**
     * Starts the broker (and waits for its port), the receiver, the shipper and the shadow engine.
     *
     * @param dir        the demo's root: configs, logs, the broker's data, the replica root and the shadow's output
     *                   go under it
     * @param deployment the running deployment, whose journals are shipped and whose engine config the shadow copies
     * @param clock      the demo's: times the waits
     */
    static ReplicaSide start(final Path dir, final SluiceDeployment deployment, final NanoClock clock)
            throws IOException, InterruptedException {
        final ReplicaSide side = new ReplicaSide(dir.resolve("replica"), clock);
        Runtime.getRuntime().addShutdownHook(side.killOnExit);
        try {
            side.launch(dir, deployment);
            return side;
        } catch (final IOException | RuntimeException e) {
            side.close();
            throw e;
        }
    }

    private void launch(final Path dir, final SluiceDeployment deployment) throws IOException {
        final Path config = dir.resolve("config");
        final Path logs = dir.resolve("logs");
        final int port = LoopbackPorts.free();
        // The benchmarks' broker, with the full JIT as a production broker runs: C1-only code costs it more CPU per
        // request, taken from the primary's processes on a small host.
        kafka = track(JavaProcess.start("kafka", logs.resolve("kafka.log"), KafkaCluster.BENCH_JVM, KafkaBrokerMain.class,
                "--data", dir.resolve("kafka").toString(), "--port", Integer.toString(port),
                "--controller-port", Integer.toString(LoopbackPorts.free())));
        final FixEndpoint brokerPort = FixEndpoint.tcp("127.0.0.1", port);
        PollUntil.await(() -> !kafka.isAlive() || brokerPort.isAccepting(), BROKER_TIMEOUT,
                () -> "the Kafka broker to accept on port " + port + "; its log: " + kafka.logText(), clock);
        kafka.requireAlive();
        final String servers = "127.0.0.1:" + port;
        Files.createDirectories(replica);
        receiver = track(replicate("receiver", "receive", replica, servers, config, logs));
        shipper = track(replicate("shipper", "ship", deployment.journals(), servers, config, logs));
        final Path shadowConfig = config.resolve("shadow-engine.yaml");
        // The primary's engine config, parking when idle: the shadow shares the host with everything else.
        Files.writeString(shadowConfig, SluiceConfigs.engine(replica, List.of(1, 2), SluiceDeployment.SYMBOL,
                SHADOW_IDLE, CpuPinning.NONE, SluiceDeployment.JournalDisk.DEFAULTS, ""));
        shadow = track(JavaProcess.start("shadow", logs.resolve("shadow.log"), List.of(),
                ReplayMain.class, "--follow", replica.toString(), "--config", shadowConfig.toString(),
                "--out", dir.resolve("shadow").toString(), "--quiet"));
    }

    private static JavaProcess replicate(final String name, final String mode, final Path root, final String servers,
                                         final Path config, final Path logs)
            throws IOException {
        final Path file = config.resolve(name + ".yaml");
        Files.writeString(file, """
                !ReplicationConfig {
                  mode: %s,
                  deployment: %s,
                  root: "%s",
                  bootstrapServers: "%s",
                  lagReportMillis: 1000
                }
                """.formatted(mode, DEPLOYMENT, root, servers));
        return JavaProcess.start(name, logs.resolve(name + ".log"), List.of(),
                ReplicateMain.class, "--config", file.toString());
    }

    private JavaProcess track(final JavaProcess process) {
        processes.add(process);
        return process;
    }

    /** @return the pids, one line each, for the demo's start */
    String describe() {
        return String.format(Locale.ROOT, "  kafka     pid %d (one broker, KRaft)%n  shipper   pid %d%n  receiver  pid %d"
                        + " into %s%n  shadow    pid %d (replay --follow on the replica)",
                kafka.pid(), shipper.pid(), receiver.pid(), replica, shadow.pid());
    }

    /**
     * @return the replica's lag (records behind the log's end, and the age of the newest
     * record it wrote, the youngest over the journals: an idle journal's last record ages without any lag) and the
     * shadow's count, from their latest status lines
     */
    String status() {
        final StringBuilder text = new StringBuilder("replica ");
        final String lag = lastLine(receiver, "receiver: lag");
        if (!receiver.isAlive()) {
            text.append("receiver EXITED");
        } else if (lag == null) {
            text.append("starting");
        } else {
            long behind = 0;
            long ageMicros = Long.MAX_VALUE;
            boolean known = false;
            final Matcher log = LOG_LAG.matcher(lag);
            if (log.find() && !"?".equals(log.group(1))) {
                known = true;
                behind = Long.parseLong(log.group(1));
            }
            final Matcher journal = JOURNAL_AGE.matcher(lag);
            while (journal.find()) {
                ageMicros = Math.min(ageMicros, Long.parseLong(journal.group(1)));
            }
            final Matcher unreachable = KAFKA_UNREACHABLE.matcher(lag);
            if (unreachable.find()) {
                text.append(unreachable.group(1));
            } else {
                text.append(String.format(Locale.ROOT, "%,d%s behind", behind, known ? "" : "+?"));
            }
            text.append(ageMicros != Long.MAX_VALUE ? String.format(Locale.ROOT, ", %,d µs", ageMicros) : "");
        }
        text.append(" | shadow ");
        final String count = lastLine(shadow, "shadow:");
        if (!shadow.isAlive()) {
            text.append(shadowExit() == SHADOW_DIVERGED ? "DIVERGED (see the summary)" : "EXITED");
        } else if (count == null || !REPORTS_COMPARED.matcher(count).find()) {
            text.append("waiting for the replica's journals");
        } else {
            final Matcher reports = REPORTS_COMPARED.matcher(count);
            reports.find();
            text.append("identical so far, ").append(reports.group(1)).append(" reports");
        }
        return text.toString();
    }

    /**
     * Waits until replication flows end to end: the receiver reports its lag and the shadow has compared a report (the
     * seeded orders'), so that the per-second lines show the replica from the load's first second.
     */
    void awaitFlowing(final Duration timeout) {
        PollUntil.await(() -> {
            shipper.requireAlive();
            receiver.requireAlive();
            shadow.requireAlive();
            final String status = lastLine(shadow, "shadow:");
            return lastLine(receiver, "receiver: lag") != null && status != null
                    && REPORTS_COMPARED.matcher(status).find();
        }, timeout, () -> "replication to flow (the seeded orders to reach the replica and the shadow); the receiver's"
                + " last line: " + lastLine(receiver, "receiver:") + "; the shadow's: " + lastLine(shadow, "shadow:"), clock);
    }

    /**
     * Waits until the replica holds every excerpt of the primary and the shadow has followed it all, then stops the
     * shadow and reads its verdict.
     */
    Verdict finish(final Path primary, final Duration timeout) throws InterruptedException {
        final JournalSetComparison[] last = {JournalSetComparison.of(primary, replica)};
        final long[] nextComparison = {clock.nanoTime()};
        try {
            PollUntil.await(() -> {
                if (last[0].identical() || !shipper.isAlive() || !receiver.isAlive()) {
                    return true;
                }
                if (clock.nanoTime() - nextComparison[0] >= 0) { // reads every journal: at most twice a second
                    nextComparison[0] = clock.nanoTime() + COMPARISON_PERIOD_NANOS;
                    last[0] = JournalSetComparison.of(primary, replica);
                }
                return last[0].identical();
            }, timeout, () -> "the replica to catch up: " + last[0].describe(), clock);
        } catch (final IllegalStateException timedOut) {
            return new Verdict(last[0], stopShadow(), false);
        }
        if (!last[0].identical()) {
            return new Verdict(last[0], stopShadow(), false);
        }
        final long caughtUp = clock.nanoTime();
        final long[] settledSince = {0};
        try {
            PollUntil.await(() -> {
                final String status = lastLine(shadow, "shadow:");
                final boolean settled = status != null && status.contains("; 0 inputs behind the engine journal")
                        && !status.contains("after the primary");
                settledSince[0] = settled ? (settledSince[0] == 0 ? clock.nanoTime() : settledSince[0]) : 0;
                return !shadow.isAlive() || settled && clock.nanoTime() - Math.max(settledSince[0], caughtUp) > SETTLED_NANOS;
            }, timeout, () -> "the shadow to follow the whole replica; its last line: " + lastLine(shadow, "shadow:"),
                    clock);
        } catch (final IllegalStateException timedOut) {
            return new Verdict(last[0], stopShadow() + " (it had not followed the whole replica)", false);
        }
        final String verdict = stopShadow();
        final int exit = shadowExit();
        return new Verdict(last[0], verdict, exit == 0 && verdict.startsWith("identical"));
    }

    /** Stops the shadow (SIGTERM, its graceful stop) and @return its verdict line: identical, N reports, or why not */
    private String stopShadow() throws InterruptedException {
        if (shadow.isAlive()) {
            shadow.stop(STOP_TIMEOUT.toSeconds());
        }
        final String log = shadow.logText();
        for (final String line : log.lines().toList().reversed()) {
            if (line.startsWith("identical, ")) {
                return line;
            }
        }
        final int exit = shadowExit();
        return (exit == SHADOW_DIVERGED ? "DIVERGED" : "stopped with exit code " + exit) + "; its log ("
                + shadow.log() + ") ends with:\n" + log.substring(Math.max(0, log.length() - 3_000));
    }

    private int shadowExit() {
        try {
            return shadow.waitFor(1);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** @return the replication children's logs, for a failure message */
    String logs(final int maxCharsEach) {
        final StringBuilder text = new StringBuilder();
        for (final JavaProcess process : processes) {
            final String log = process.logText();
            text.append("--- ").append(process.name()).append(" (").append(process.log()).append(")\n")
                    .append(log, Math.max(0, log.length() - maxCharsEach), log.length()).append('\n');
        }
        return text.toString();
    }

    private static String lastLine(final JavaProcess process, final String prefix) {
        final List<String> lines = process.logText().lines().toList();
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith(prefix)) {
                return lines.get(i);
            }
        }
        return null;
    }

    /** Stops the shadow, the shipper, the receiver, then the broker (SIGTERM, SIGKILL after a grace period). */
    @Override
    public void close() throws InterruptedException {
        for (final JavaProcess process : processes.reversed()) {
            if (process.isAlive()) {
                process.stop(STOP_TIMEOUT.toSeconds());
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (final IllegalStateException alreadyExiting) {
            // the hook is running or about to: it finds the processes gone
        }
    }

    /** If the demo's JVM exits first (Ctrl-C), no child may outlive it. */
    private void killAll() {
        for (final JavaProcess process : processes) {
            try {
                process.kill9();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
