package io.sluice.bench.replication;

import io.sluice.bench.BenchArguments;
import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.journal.ExcerptCount;
import io.sluice.contracts.journal.Journals;
import io.sluice.replication.JournalSetComparison;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.queue.ChronicleQueue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * {@code ./sluice bench replication-netns}: replication across two simulated hosts. The primary (engine, gateway,
 * FIX load, shipper: {@link PrimaryHost}) and the replica (Kafka broker, receiver) run in two Linux network namespaces
 * joined by a veth pair ({@link NetnsLink}); the link is then impaired in phases: none (baseline), {@code tc netem}
 * delay, netem loss, a narrow link ({@code tc tbf}: rate-limited, its queue delaying and then dropping the excess), a
 * partition (the link down at both ends), and healed. The broker sits on the replica's side, so
 * the shipper's path crosses the link: an excerpt counts as off the primary host only once it is there, and the
 * partition cuts the primary off from its off-host copy, as losing the WAN would.
 * <p>
 * Every 200 ms it counts the excerpts of every journal in both roots (read-only, from this process, outside both
 * namespaces): the replication lag is the difference, in records, end to end (the receiver's own lag line counts only
 * what Kafka holds). It reports the lag per phase, the backlog when the partition heals, the catch-up time (from the
 * heal until the lag is back to the baseline's largest), of which the reconnection (the Kafka clients' back-off: no
 * record moves), and the catch-up rate once reconnected (records/s reaching the replica, against the offered
 * records/s; target: at least 5x), and at the end whether both roots are identical excerpt by excerpt. Skips, with the reason, where
 * namespaces cannot be made; where this kernel has no {@code netem} the delay and loss phases are skipped, said so
 * (and the narrow phase where it has no {@code tbf}).
 * <p>
 * Options: {@link MultiHostReplicationOptions} ({@code --help} lists them).
 */
public final class MultiHostReplicationBench {
    static final String DEPLOYMENT = "netns";
    private static final long SAMPLE_NANOS = 200_000_000L;
    private static final long FLOW_TIMEOUT_SECONDS = 180;
    private static final long FINAL_TIMEOUT_SECONDS = 300;

    private MultiHostReplicationBench() {
    }

    /** The figures of one run. */
    record Outcome(boolean identical, long backlogAtHeal, double catchUpRatio, String summary) {
    }

    public static void main(final String[] args) throws Exception {
        final MultiHostPlan plan = BenchArguments.parse(new MultiHostReplicationOptions(), args).plan();
        final String unavailable = NetnsLink.unavailable();
        if (unavailable != null) {
            // Exit 0 and no JSON: "bench all" on a host without root goes on with the next scenario.
            System.out.println("replication-netns: SKIPPED: network namespaces cannot be created here: " + unavailable);
            System.exit(0);
        }
        final Path dir = Files.createTempDirectory("sluice-bench-netns");
        final Outcome outcome;
        try {
            outcome = run(dir, plan, true);
        } finally {
            delete(dir); // before System.exit, which would skip a finally around it
        }
        System.exit(outcome.identical() ? 0 : 1);
    }

    /**
     * One run under {@code dir}: namespaces, processes, phases, figures; everything stopped and the namespaces deleted
     * before it returns, also on failure.
     *
     * @param writeJson whether to write the JSON result (the benchmark) or not (the short test)
     */
    static Outcome run(final Path dir, final MultiHostPlan plan, final boolean writeJson) throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        Files.createDirectories(replica);
        final List<JavaProcess> processes = new ArrayList<>();
        try (NetnsLink link = NetnsLink.create()) {
            System.out.println("replication-netns: " + link.describe() + "; broker and receiver on the replica side");
            if (!link.hasNetem()) {
                System.out.println("replication-netns: tc netem is not available in this kernel (tc: \"Specified qdisc"
                        + " kind is unknown\", no sch_netem module): the delay and loss phases are skipped; the partition"
                        + " is both ends of the link set down");
            }
            if (!link.hasTbf()) {
                System.out.println("replication-netns: tc tbf is not available in this kernel: the narrow-link phase is"
                        + " skipped");
            }
            final String kafka = NetnsLink.KAFKA_ADDRESS;
            try {
                processes.add(link.startReplicaBroker(dir));
                processes.add(ReplicationProcess.start("receiver", link.inReplica(), dir, "receive", replica, kafka, DEPLOYMENT));
                final JavaProcess primaryHost = JavaProcess.start("primary", dir.resolve("logs/primary.log"),
                        link.inPrimary(), System.getProperty("java.class.path"), List.of(), PrimaryHost.class.getName(),
                        "--root", primary.toString(), "--kafka", kafka, "--deployment", DEPLOYMENT,
                        "--rate", Long.toString(plan.rate()));
                processes.add(primaryHost);
                return measure(link, plan, primary, replica, processes, primaryHost, writeJson);
            } finally {
                for (final JavaProcess process : processes.reversed()) {
                    process.stop(20);
                }
            }
        }
    }

    private static Outcome measure(final NetnsLink link, final MultiHostPlan plan, final Path primaryHostRoot, final Path replica,
                                   final List<JavaProcess> processes, final JavaProcess primaryHost,
                                   final boolean writeJson) throws Exception {
        final Path primary = primaryHostRoot.resolve("journals");
        try (JournalCounts primaryCounts = new JournalCounts(primary); JournalCounts replicaCounts = new JournalCounts(replica)) {
            // Phases start once the replica is steady: the load running, and the replica holding at least what the
            // primary held a second before (the backlog of the broker's start is drained).
            final long flowDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FLOW_TIMEOUT_SECONDS);
            long primaryASecondAgo = Long.MAX_VALUE;
            long nextSecond = System.nanoTime();
            while (true) {
                check(processes, flowDeadline, "the load to start and the replica to catch up with it; replica "
                        + replicaCounts.total() + " records, primary " + primaryCounts.total());
                final boolean loaded = primaryHost.logText().contains("primary: load started");
                if (loaded && replicaCounts.total() > 0 && replicaCounts.total() >= primaryASecondAgo) {
                    break;
                }
                if (System.nanoTime() - nextSecond >= 0) {
                    nextSecond += 1_000_000_000L;
                    primaryASecondAgo = loaded ? primaryCounts.total() : Long.MAX_VALUE;
                }
                LockSupport.parkNanos(SAMPLE_NANOS);
            }
            System.out.println("replication-netns: replication flowing, less than a second behind; phases start");
            final List<Phase> phases = new ArrayList<>();
            phases.add(new Phase("baseline", plan.baseline(), () -> { }));
            if (link.hasNetem()) {
                phases.add(new Phase("delay " + plan.delaySpec(), plan.delay(), () -> link.impair(("delay " + plan.delaySpec()).split(" "))));
                phases.add(new Phase("loss " + plan.lossSpec(), plan.loss(), () -> link.impair(("loss " + plan.lossSpec()).split(" "))));
            }
            if (link.hasTbf() && plan.narrow() > 0) {
                final String[] narrowing = plan.narrowSpec().split(" "); // "rate 8mbit ...": named by the rate
                phases.add(new Phase("narrow " + narrowing[1], plan.narrow(), () -> {
                    link.clearImpairment();
                    link.narrow(narrowing);
                }));
            }
            phases.add(new Phase("partition", plan.partition(), () -> {
                link.clearImpairment();
                link.partition();
            }));
            phases.add(new Phase("healed", plan.after(), link::heal));
            final long start = System.nanoTime();
            for (final Phase phase : phases) {
                phase.begin.run();
                System.out.printf(Locale.ROOT, "replication-netns: %5.1f s  %s for %d s%n", (System.nanoTime() - start) / 1e9,
                        phase.name, phase.seconds);
                final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(phase.seconds);
                long nextPrint = System.nanoTime() + 1_000_000_000L;
                while (System.nanoTime() < end) {
                    check(processes, Long.MAX_VALUE, phase.name);
                    final long r = replicaCounts.total(); // first: the primary, counted after, holds at least as much
                    final long p = primaryCounts.total();
                    phase.samples.add(new Sample(System.nanoTime(), p, r));
                    if (System.nanoTime() >= nextPrint) {
                        nextPrint += 1_000_000_000L;
                        System.out.printf(Locale.ROOT, "  %5.0f s  %-16s primary %,10d  replica %,10d  lag %,8d records%n",
                                (System.nanoTime() - start) / 1e9, phase.name, p, r, p - r);
                    }
                    LockSupport.parkNanos(SAMPLE_NANOS);
                }
            }
            Files.writeString(primaryHostRoot.resolve(PrimaryHost.STOP_FILE), "the phases are over\n");
            final long finalDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FINAL_TIMEOUT_SECONDS);
            while (!primaryHost.logText().contains("primary: load finished")) {
                check(processes, finalDeadline, "the primary's load to finish");
                LockSupport.parkNanos(SAMPLE_NANOS);
            }
            JournalSetComparison comparison = JournalSetComparison.of(primary, replica);
            while (!comparison.identical() && System.nanoTime() < finalDeadline) {
                check(processes, finalDeadline, "the replica to catch up");
                LockSupport.parkNanos(1_000_000_000L);
                comparison = JournalSetComparison.of(primary, replica);
            }
            return report(plan, phases, comparison, primaryHost, writeJson);
        }
    }

    private static Outcome report(final MultiHostPlan plan, final List<Phase> phases, final JournalSetComparison comparison,
                                  final JavaProcess primaryHost, final boolean writeJson) throws IOException {
        final Phase baseline = phases.getFirst();
        final double offered = baseline.primaryRate();
        final Phase partition = phases.stream().filter(p -> p.name.equals("partition")).findFirst().orElseThrow();
        final Phase healed = phases.getLast();
        final long baselineMaxLag = Math.max(baseline.maxLag(), 1);
        final Sample heal = partition.samples.getLast();
        Sample resumed = null; // the last sample before the replica grew again: the reconnection is over
        Sample caughtUp = null;
        Sample previous = heal;
        for (final Sample sample : healed.samples) {
            if (resumed == null && sample.replica > heal.replica) {
                resumed = previous;
            }
            if (sample.lag() <= baselineMaxLag) {
                caughtUp = sample;
                break;
            }
            previous = sample;
        }
        final double catchUpSeconds = caughtUp == null ? Double.NaN : (caughtUp.nanos - heal.nanos) / 1e9;
        final double reconnectSeconds = resumed == null ? Double.NaN : (resumed.nanos - heal.nanos) / 1e9;
        final double catchUpRate = caughtUp == null || resumed == null ? Double.NaN
                : (caughtUp.replica - resumed.replica) / Math.max((caughtUp.nanos - resumed.nanos) / 1e9, 1e-3);
        final double ratio = catchUpRate / offered;
        final String loadLine = primaryHost.logText().lines().filter(l -> l.startsWith("primary: load finished")).findFirst().orElse("");

        System.out.println();
        System.out.println("Replication across two network namespaces (primary: engine, gateway, FIX load, shipper;"
                + " replica: Kafka broker, receiver), " + plan.rate() + " orders/s offered");
        System.out.printf(Locale.ROOT, "%-18s %8s %14s %12s %12s %14s%n", "phase", "seconds", "primary rec/s",
                "lag mean", "lag max", "replica rec/s");
        final BenchResult result = BenchResult.of("replication-netns")
                .put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                .put("ordersPerSecondOffered", plan.rate());
        final Map<String, Object> rows = new LinkedHashMap<>();
        for (final Phase phase : phases) {
            System.out.printf(Locale.ROOT, "%-18s %8d %,14.0f %,12.0f %,12d %,14.0f%n", phase.name, phase.seconds,
                    phase.primaryRate(), phase.meanLag(), phase.maxLag(), phase.replicaRate());
            rows.put(phase.name, Map.of("seconds", phase.seconds, "primaryRecordsPerSecond", phase.primaryRate(),
                    "lagMeanRecords", phase.meanLag(), "lagMaxRecords", phase.maxLag(),
                    "replicaRecordsPerSecond", phase.replicaRate()));
        }
        final String summary = String.format(Locale.ROOT, "backlog when the partition healed: %,d records; caught up"
                        + " (lag <= the baseline's max, %,d) %s, of which %.1f s reconnecting (no record moved);"
                        + " catch-up rate after reconnecting %,.0f records/s = %.1fx the offered %,.0f records/s"
                        + " (target: at least 5x; sampled every 200 ms)",
                heal.lag(), baselineMaxLag, caughtUp == null ? "NOT within " + healed.seconds + " s"
                        : String.format(Locale.ROOT, "%.1f s after healing", catchUpSeconds), reconnectSeconds,
                catchUpRate, ratio, offered);
        System.out.println(summary);
        System.out.println(loadLine);
        System.out.println("primary and replica journals " + comparison.describe() + " (excerpt by excerpt)");
        result.put("phases", rows)
                .put("backlogAtHealRecords", heal.lag())
                .put("catchUpSeconds", catchUpSeconds)
                .put("reconnectSeconds", reconnectSeconds)
                .put("catchUpRecordsPerSecond", catchUpRate)
                .put("offeredRecordsPerSecond", offered)
                .put("catchUpRatio", ratio)
                .put("identical", comparison.identical())
                .put("comparison", comparison.describe());
        if (writeJson) {
            System.out.println("results: " + result.write(BenchResult.resultsDir()));
        }
        return new Outcome(comparison.identical(), heal.lag(), ratio, summary);
    }

    private static void check(final List<JavaProcess> processes, final long deadline, final String what) {
        for (final JavaProcess process : processes) {
            if (!process.isAlive()) {
                throw new IllegalStateException(process.name() + " exited while waiting for " + what + "; its log ("
                        + process.log() + "):\n" + tail(process.logText()));
            }
        }
        if (System.nanoTime() > deadline) {
            final StringBuilder logs = new StringBuilder();
            processes.forEach(p -> logs.append("\n--- ").append(p.name()).append('\n').append(tail(p.logText())));
            throw new IllegalStateException("timed out waiting for " + what + logs);
        }
    }

    private static String tail(final String log) {
        return log.substring(Math.max(0, log.length() - 3_000));
    }

    private static void delete(final Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** An action that starts a phase (impairs or heals the link). */
    @FunctionalInterface
    private interface PhaseStart {
        void run() throws IOException;
    }

    /** A counted moment: the excerpts in every journal of the primary and of the replica. */
    private record Sample(long nanos, long primary, long replica) {
        long lag() {
            return primary - replica;
        }
    }

    /** One phase of the link: its samples. */
    private static final class Phase {
        final String name;
        final long seconds;
        final PhaseStart begin;
        final List<Sample> samples = new ArrayList<>();

        Phase(final String name, final long seconds, final PhaseStart begin) {
            this.name = name;
            this.seconds = seconds;
            this.begin = begin;
        }

        double primaryRate() {
            return rate(samples.getFirst().primary, samples.getLast().primary);
        }

        double replicaRate() {
            return rate(samples.getFirst().replica, samples.getLast().replica);
        }

        private double rate(final long first, final long last) {
            final double seconds = (samples.getLast().nanos - samples.getFirst().nanos) / 1e9;
            return seconds <= 0 ? 0 : (last - first) / seconds;
        }

        double meanLag() {
            return samples.stream().mapToLong(Sample::lag).average().orElse(0);
        }

        long maxLag() {
            return samples.stream().mapToLong(Sample::lag).max().orElse(0);
        }
    }

    /**
     * The excerpt count of every journal under a root, each journal opened read-only once it exists; a journal that
     * cannot be counted at an instant ({@link ExcerptCount#UNKNOWN}: a cycle file being created) keeps its last count.
     */
    private static final class JournalCounts implements AutoCloseable {
        private final Path root;
        private final Map<String, ChronicleQueue> open = new LinkedHashMap<>();
        private final Map<String, Long> counted = new HashMap<>();

        JournalCounts(final Path root) {
            this.root = root;
        }

        long total() throws IOException {
            if (Files.isDirectory(root)) {
                try (Stream<Path> entries = Files.list(root)) {
                    for (final Path dir : entries.toList()) {
                        final String name = dir.getFileName().toString();
                        if (!open.containsKey(name) && Files.exists(dir.resolve("metadata.cq4t"))
                                && (name.equals(Journals.ENGINE) || name.startsWith(Journals.GATEWAY_PREFIX))) {
                            try {
                                open.put(name, Journals.openReadOnly(dir));
                            } catch (final IllegalStateException notReadableYet) {
                                // just created, its table store not complete yet: counted from the next sample on
                            }
                        }
                    }
                }
            }
            long total = 0;
            for (final Map.Entry<String, ChronicleQueue> journal : open.entrySet()) {
                final long count = ExcerptCount.of(journal.getValue());
                if (count != ExcerptCount.UNKNOWN) {
                    counted.put(journal.getKey(), count);
                }
                total += counted.getOrDefault(journal.getKey(), 0L);
            }
            return total;
        }

        @Override
        public void close() {
            open.values().forEach(ChronicleQueue::close);
        }
    }
}
