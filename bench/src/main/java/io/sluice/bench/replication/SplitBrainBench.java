package io.sluice.bench.replication;

import io.sluice.bench.BenchArguments;
import io.sluice.bench.report.BenchResult;
import io.sluice.engine.config.EngineConfig;
import io.sluice.replay.ReplayAssertions;
import io.sluice.replay.ReplayResult;
import io.sluice.replication.ReplicationConfig;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./sluice bench failover-netns}: split brain, on two simulated hosts. The primary (engine, gateway, shipper and a
 * FIX client that keeps asking it to take an order: {@link SplitBrainPrimary}) runs in one network namespace; the Kafka
 * broker and {@code ./sluice standby} (its engine and gateway started warm) in the other, joined by a veth pair
 * ({@link NetnsLink}). The link is cut: the primary's clients still reach it, Kafka and the standby do not. The standby
 * must take over, a client on its side ({@link SplitBrainProbe}) must get an order taken, and the old primary must
 * reject new orders once its lease lapses. The link is healed: the old primary must learn it was fenced and reject
 * for good. At the end the new primary's journals must replay identically.
 * <p>
 * Each round runs on fresh namespaces and a fresh deployment, and cuts the link once the primary has taken orders for
 * {@code --warm} seconds. Prints each moment in ms after the cut (or the heal), then p50 and max over the rounds, writes
 * JSON, and exits 1 when a check fails in any round: the standby did
 * not take over, the old primary took an order after its lease lapsed or never said it was fenced, the replay
 * differed. Skips, with the reason, where namespaces cannot be made. Options: {@link SplitBrainOptions}.
 */
public final class SplitBrainBench {
    static final String DEPLOYMENT = "splitbrain";
    private static final long FAILOVER_AFTER_MILLIS = 2000;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final Pattern ANSWER = Pattern.compile("primary: \\[(\\d+)] orders (\\w+)");
    private static final Pattern PROBE_TAKEN = Pattern.compile("probe: \\[(\\d+)] orders TAKEN");
    private static final Pattern TAKEN_AFTER_LAPSE = Pattern.compile("taken after the first lease reject: (\\d+)");
    private static final Map<String, String> NO_MARKERS = Map.of();

    private SplitBrainBench() {
    }

    /**
     * What one run saw: each moment in ms after the cut (the fenced answer: after the heal), -1 where never reached.
     *
     * @param takenAfterLapse orders the old primary took after its first lease reject (must be 0)
     * @param identical       whether the new primary's journals replayed identically
     */
    record Outcome(long lapsed, long detected, long fenced, long promoted, long probeTaken, long fencedAfterHeal,
                   long takenAfterLapse, boolean identical, String summary) {
        /** @return whether every check passed */
        boolean passed() {
            return promoted >= 0 && probeTaken >= 0 && lapsed >= 0 && fencedAfterHeal >= 0 && takenAfterLapse == 0
                    && identical;
        }
    }

    public static void main(final String[] args) throws Exception {
        final SplitBrainOptions options = BenchArguments.parse(new SplitBrainOptions(), args);
        final String unavailable = NetnsLink.unavailable();
        if (unavailable != null) {
            System.out.println("failover-netns: SKIPPED: network namespaces cannot be created here: " + unavailable);
            System.exit(0);
        }
        final Path dir = Files.createTempDirectory("sluice-bench-splitbrain");
        final List<Outcome> outcomes = new ArrayList<>();
        try {
            for (int round = 1; round <= options.rounds(); round++) {
                System.out.println("failover-netns: round " + round + " of " + options.rounds());
                outcomes.add(run(dir.resolve("round-" + round), options.partitionSeconds(), options.warmSeconds()));
            }
        } finally {
            SluiceDeployment.deleteTree(dir);
        }
        summarise(outcomes, options);
        System.exit(outcomes.stream().allMatch(Outcome::passed) ? 0 : 1);
    }

    /** One run under {@code dir}; every process stopped and both namespaces deleted before it returns. */
    static Outcome run(final Path dir, final long partitionSeconds, final long warmSeconds) throws Exception {
        Files.createDirectories(dir);
        final Path primaryRoot = dir.resolve("primary");
        final List<JavaProcess> processes = new ArrayList<>();
        try (NetnsLink link = NetnsLink.create()) {
            System.out.println("failover-netns: " + link.describe() + "; the broker and the standby on the replica side");
            final String kafka = NetnsLink.KAFKA_ADDRESS;
            final SluiceDeployment standby = SluiceDeployment.prepare(dir.resolve("standby"),
                    SplitBrainPrimary.gateways(), SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults(),
                    SluiceDeployment.JournalDisk.DEFAULTS);
            try {
                processes.add(link.startReplicaBroker(dir));
                final JavaProcess standbyProcess = ReplicationProcesses.standby(dir.resolve("logs"), "standby", DEPLOYMENT,
                        standby.journals(), kafka, FAILOVER_AFTER_MILLIS,
                        List.of(standby.engineCommand(), standby.gatewayCommand(1)), link.inReplica());
                processes.add(standbyProcess);
                final JavaProcess primary = JavaProcess.start("primary", dir.resolve("logs/primary.log"),
                        link.inPrimary(), System.getProperty("java.class.path"), List.of(),
                        SplitBrainPrimary.class.getName(), "--root", primaryRoot.toString(), "--kafka", kafka,
                        "--deployment", DEPLOYMENT);
                processes.add(primary);
                return cutAndHeal(link, partitionSeconds, warmSeconds, primary, standbyProcess, standby, primaryRoot,
                        processes, dir);
            } finally {
                for (final JavaProcess process : processes.reversed()) {
                    process.stop(20);
                }
                standby.close();
            }
        }
    }

    private static Outcome cutAndHeal(final NetnsLink link, final long partitionSeconds, final long warmSeconds,
                                      final JavaProcess primary, final JavaProcess standbyProcess,
                                      final SluiceDeployment standby, final Path primaryRoot,
                                      final List<JavaProcess> processes, final Path dir) throws Exception {
        PollUntil.await(() -> alive(processes) && primary.logText().contains("orders TAKEN")
                && standbyProcess.logText().contains("the primary is alive")
                && standbyProcess.logText().contains("engine: ready but for its journals")
                && standbyProcess.logText().contains("gateway 1: ready but for its journals"), TIMEOUT,
                () -> "the primary to take orders and the standby to see it, warm; primary: " + primary.logText()
                        + "\nstandby: " + standbyProcess.logText());
        // The standby's client is already running (refused while the standby stands by, it keeps trying), and the
        // standby has watched a primary taking orders for a while: a cut seconds after every JVM started measures JIT
        // compilation on a shared host, not the takeover.
        final JavaProcess probe = JavaProcess.start("probe", dir.resolve("logs/probe.log"), link.inReplica(),
                System.getProperty("java.class.path"), List.of(), SplitBrainProbe.class.getName(), "--port",
                Integer.toString(standby.endpoint(1).port()));
        processes.add(probe);
        final long cutAt = firstAnswer(primary.logText(), "TAKEN", 0) + TimeUnit.SECONDS.toMillis(warmSeconds);
        while (System.currentTimeMillis() < cutAt) {
            alive(processes);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        final long cut = System.currentTimeMillis();
        link.partition();
        System.out.println("failover-netns: [" + cut + "] link cut " + warmSeconds + " s after the primary's first order;"
                + " the primary's client still reaches it, Kafka and the standby do not");
        final StandbyMilestones milestones = new StandbyMilestones();
        PollUntil.await(() -> {
            milestones.read(standbyProcess.logText(), System.currentTimeMillis(), NO_MARKERS);
            return firstAnswer(primary.logText(), "LEASE_LAPSED", cut) >= 0 && firstProbeTaken(probe.logText()) >= 0
                    || !probe.isAlive() || !standbyProcess.isAlive() || !primary.isAlive();
        }, TIMEOUT, () -> "the old primary to reject on its lease and the standby to take an order; primary: "
                + primary.logText() + "\nstandby: " + standbyProcess.logText() + "\nprobe: " + probe.logText());
        final long healAt = cut + TimeUnit.SECONDS.toMillis(partitionSeconds);
        while (System.currentTimeMillis() < healAt) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        milestones.read(standbyProcess.logText(), System.currentTimeMillis(), NO_MARKERS);
        final long healed = System.currentTimeMillis();
        link.heal();
        System.out.println("failover-netns: link healed after " + partitionSeconds + " s");
        try {
            PollUntil.await(() -> firstAnswer(primary.logText(), "FENCED", healed) >= 0 || !primary.isAlive(), TIMEOUT,
                    () -> "the old primary to say it was fenced; " + primary.logText());
        } catch (final IllegalStateException timedOut) {
            System.out.println("failover-netns: " + timedOut.getMessage());
        }
        Files.writeString(primaryRoot.resolve(SplitBrainPrimary.STOP_FILE), "the scenario is over\n");
        PollUntil.await(() -> primary.logText().contains("primary: finished") || !primary.isAlive(), TIMEOUT,
                () -> "the primary's client to finish; " + primary.logText());
        final String primaryLog = primary.logText();
        final String standbyLog = standbyProcess.logText();
        final long takenAfterLapse = lastNumber(TAKEN_AFTER_LAPSE, primaryLog);
        standbyProcess.stop(40); // with the engine and gateway it started: the journals are complete
        boolean identical;
        String replay;
        try {
            final ReplayResult result = ReplayAssertions.assertReplaysIdentically(standby.journals(),
                    EngineConfig.load(standby.root().resolve("config/engine.yaml")));
            replay = "identical, " + result.inputs() + " inputs, " + result.reports() + " reports";
            identical = true;
        } catch (final AssertionError e) {
            replay = e.getMessage();
            identical = false;
        }
        final Outcome outcome = new Outcome(after(firstAnswer(primaryLog, "LEASE_LAPSED", cut), cut),
                after(milestones.at("detection"), cut), after(milestones.at("fence"), cut),
                after(milestones.at("promotion"), cut), after(firstProbeTaken(probe.logText()), cut),
                after(firstAnswer(primaryLog, "FENCED", healed), healed), takenAfterLapse, identical,
                primaryLog.lines().filter(line -> line.startsWith("primary: [") || line.startsWith("primary: finished"))
                        .reduce("", (a, b) -> a + "\n  " + b) + "\n  standby: " + standbyLog.lines()
                        .filter(line -> line.contains(" took ")).reduce("", (a, b) -> a + "\n    " + b)
                        + "\n  replay of the new primary: " + replay);
        report(outcome);
        return outcome;
    }

    private static void report(final Outcome outcome) {
        System.out.println("failover-netns: what each side did" + outcome.summary());
        System.out.printf(Locale.ROOT, "failover-netns: ms after the cut: old primary rejects on its lease %d (lease %d);"
                        + " standby detected %d, fenced %d, promoted %d; an order taken by the standby %d. After the"
                        + " heal: old primary says it was fenced %d ms. Orders taken after the lease lapsed: %d."
                        + " New primary replays identically: %s. %s%n", outcome.lapsed(),
                ReplicationConfig.DEFAULT_LEASE_MILLIS, outcome.detected(), outcome.fenced(),
                outcome.promoted(), outcome.probeTaken(), outcome.fencedAfterHeal(), outcome.takenAfterLapse(),
                outcome.identical(), outcome.passed() ? "PASSED" : "FAILED");
    }

    /** Prints p50 and max of each moment over the rounds and writes them, with every round's figure, as JSON. */
    private static void summarise(final List<Outcome> outcomes, final SplitBrainOptions options) throws IOException {
        final boolean passed = outcomes.stream().allMatch(Outcome::passed);
        final BenchResult result = BenchResult.of("failover-netns")
                .put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                .put("rounds", outcomes.size()).put("partitionSeconds", options.partitionSeconds())
                .put("warmSeconds", options.warmSeconds()).put("leaseMillis", ReplicationConfig.DEFAULT_LEASE_MILLIS)
                .put("failoverAfterMillis", FAILOVER_AFTER_MILLIS).put("passed", passed);
        System.out.printf(Locale.ROOT, "failover-netns: %d rounds, ms after the cut (the fenced answer: after the heal)%n"
                + "%-34s %6s %6s%n", outcomes.size(), "", "p50", "max");
        moment(result, outcomes, "primaryRejectsOnItsLease", "old primary rejects on its lease", Outcome::lapsed);
        moment(result, outcomes, "standbyDetected", "standby detected the silence", Outcome::detected);
        moment(result, outcomes, "standbyFenced", "standby fenced the primary", Outcome::fenced);
        moment(result, outcomes, "standbyPromoted", "standby promoted its root", Outcome::promoted);
        final RoundFigure taken = moment(result, outcomes, "orderTakenByTheStandby", "an order taken by the standby",
                Outcome::probeTaken);
        moment(result, outcomes, "oldPrimarySaysFencedAfterHeal", "old primary says fenced", Outcome::fencedAfterHeal);
        final long takenAfterLapse = outcomes.stream().mapToLong(Outcome::takenAfterLapse).sum();
        final boolean identical = outcomes.stream().allMatch(Outcome::identical);
        result.put("ordersTakenAfterTheLeaseLapsed", takenAfterLapse).put("newPrimaryReplaysIdentically", identical);
        System.out.printf(Locale.ROOT, "failover-netns: orders taken after the lease lapsed: %d; every new primary replays"
                + " identically: %s; checks %s. RTO (an order taken by the standby): p50 %d ms (target <= 3000: %s),"
                + " max %d ms (target <= 5000: %s)%n", takenAfterLapse, identical, passed ? "PASSED" : "FAILED",
                taken.p50(), taken.p50() >= 0 && taken.p50() <= 3000 ? "met" : "missed", taken.max(),
                taken.max() >= 0 && taken.max() <= 5000 ? "met" : "missed");
        System.out.println("results: " + result.write(BenchResult.resultsDir()));
    }

    /** Prints and writes {@code moment}'s p50 and max over the rounds: @return them */
    private static RoundFigure moment(final BenchResult result, final List<Outcome> outcomes, final String key,
                                      final String name, final ToLongFunction<Outcome> moment) {
        final RoundFigure figure = RoundFigure.of(outcomes, moment);
        System.out.printf(Locale.ROOT, "%-34s %6d %6d%n", name, figure.p50(), figure.max());
        result.put(key + "Ms", figure.p50()).put(key + "MaxMs", figure.max()).put(key + "Rounds",
                outcomes.stream().map(moment::applyAsLong).toList());
        return figure;
    }

    private static boolean alive(final List<JavaProcess> processes) {
        for (final JavaProcess process : processes) {
            if (!process.isAlive()) {
                throw new IllegalStateException(process + " exited: " + process.logText());
            }
        }
        return true;
    }

    /** @return the wall-clock ms of the first {@code answer} line at or after {@code sinceMillis}, or -1 */
    private static long firstAnswer(final String log, final String answer, final long sinceMillis) {
        final Matcher matcher = ANSWER.matcher(log);
        while (matcher.find()) {
            final long at = Long.parseLong(matcher.group(1));
            if (at >= sinceMillis && matcher.group(2).equals(answer)) {
                return at;
            }
        }
        return -1;
    }

    private static long firstProbeTaken(final String log) {
        final Matcher matcher = PROBE_TAKEN.matcher(log);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : -1;
    }

    private static long lastNumber(final Pattern pattern, final String log) {
        final Matcher matcher = pattern.matcher(log);
        long last = -1;
        while (matcher.find()) {
            last = Long.parseLong(matcher.group(1));
        }
        return last;
    }

    private static long after(final long millis, final long since) {
        return millis < 0 ? -1 : millis - since;
    }
}
