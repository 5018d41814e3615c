package io.sluice.bench.fix;

import io.sluice.bench.replication.PlainKafka;
import io.sluice.bench.replication.ReplicationProcesses;
import io.sluice.bench.replication.ReplicationProcesses.ShipperTuning;
import io.sluice.bench.report.BenchResult;
import io.sluice.kafka.KafkaCluster;
import io.sluice.replication.ReplicationConfig;
import io.sluice.replication.ReplicationCounters;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.ProcessCpuTime;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench replication-fix}: what replication costs a FIX client's ping-pong round trip (NewOrderSingle ->
 * ack + fill). It runs through one Sluice deployment (engine and three TCP gateways, child JVMs) and a real
 * single-broker Kafka, in one run: no replication (no shipper runs); a shipper running, with gateway 2 in the default
 * asynchronous mode and gateway 3 in {@code replication: acknowledged}, taking turns round by round; plain Kafka's
 * acks=all ping-pong on the same broker; no replication again, on a fresh deployment no shipper ever shipped (an engine
 * whose shipper stopped rejects orders once its lease lapses), so drift over the run shows as the difference of the two
 * "none" rows.
 */
@Command(name = "replication-fix", mixinStandardHelpOptions = true, sortOptions = false,
        description = "FIX round trip with no replication, asynchronous replication and acknowledged replication.")
public final class ReplicationRoundTripBench implements Callable<Integer> {
    private static final String PASSWORD = "bench";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    @Option(names = "--warmup", description = "warm-up orders per arm (default ${DEFAULT-VALUE})")
    private long warmup = 20_000;

    @Option(names = "--orders", description = "measured orders per arm (default ${DEFAULT-VALUE})")
    private long orders = 20_000;

    @Option(names = "--rounds", description = "slices the measured orders go out in (default ${DEFAULT-VALUE})")
    private int rounds = 10;

    @Option(names = "--idle", description = "engine and gateway idle strategy (default ${DEFAULT-VALUE})")
    private String idle = SluiceIdle.BACKOFF.label();

    @Option(names = "--linger-ms", split = ",", description = "the shipper's producer linger.ms; a list runs the"
            + " replicated arms once per value, each with a fresh shipper (default ${DEFAULT-VALUE})")
    private List<Integer> lingers = List.of(ReplicationConfig.DEFAULT_LINGER_MILLIS);

    @Option(names = "--transaction-ms", split = ",", description = "the shipper's transactionMillis (how often it commits"
            + " the transaction that fences a zombie shipper); a list runs the replicated arms once per value (and per"
            + " linger), each with a fresh shipper (default ${DEFAULT-VALUE})")
    private List<Long> transactionPeriods = List.of(ReplicationConfig.DEFAULT_TRANSACTION_MILLIS);

    @Option(names = "--shipper-idle", split = ",", description = "the shipper agent's idle strategy (an alias, e.g."
            + " backoff, or sleep-ms: a 1 ms sleep; default: the replication config's, parks without spinning); a list"
            + " runs the replicated arms"
            + " once per value (and per linger and commit wait), each with a fresh shipper (default ${DEFAULT-VALUE})")
    private List<String> shipperIdles = List.of(ShipperTuning.DEFAULTS.idle());

    @Option(names = "--frame-hold-us", split = ",", description = "how long the shipper holds a frame open for the"
            + " excerpts that follow its first while a gateway waits for acknowledgements (frameHoldMicros):"
            + " gateway 3 does, so it is the hold of both replicated arms, which one shipper serves;"
            + " asynchronousFrameHoldMicros applies only while no gateway waits); a list runs the replicated arms once"
            + " per value (and per linger, commit wait and idle strategy), each with a fresh shipper (default"
            + " ${DEFAULT-VALUE})")
    private List<Long> frameHolds = List.of(ReplicationConfig.DEFAULT_FRAME_HOLD_MICROS);

    /** One shipper's settings: the replicated arms run once per such shipper. */
    private record ShipperSettings(ShipperTuning tuning, String suffix, String key) {
    }

    /**
     * @return every linger, commit wait and idle strategy asked for, each combination a shipper, named for the rows
     * when several
     */
    private List<ShipperSettings> shipperSettings() {
        final List<ShipperSettings> settings = new ArrayList<>();
        for (final int linger : lingers) {
            for (final long wait : transactionPeriods) {
                for (final String shipperIdle : shipperIdles) {
                    for (final long hold : frameHolds) {
                        final List<String> parts = new ArrayList<>();
                        if (lingers.size() > 1) {
                            parts.add("linger " + linger + " ms");
                        }
                        if (transactionPeriods.size() > 1) {
                            parts.add("transactions every " + wait + " ms");
                        }
                        if (shipperIdles.size() > 1) {
                            parts.add("shipper idle " + shipperIdle);
                        }
                        if (frameHolds.size() > 1) {
                            parts.add("frame hold " + hold + " µs");
                        }
                        settings.add(new ShipperSettings(new ShipperTuning(linger, wait, shipperIdle, hold,
                                ReplicationConfig.DEFAULT_LEASE_MILLIS),
                                parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")",
                                "Linger" + linger + (transactionPeriods.size() > 1 ? "Transaction" + wait : "")
                                        + (shipperIdles.size() > 1 ? "Idle" + shipperIdle.replace("-", "") : "")
                                        + (frameHolds.size() > 1 ? "Hold" + hold : "")));
                    }
                }
            }
        }
        return settings;
    }

    /** @return the shipper's count of committed Kafka transactions under {@code root}, -1 if it cannot be read */
    private static long shipperCommits(final Path root) {
        for (final CountersDirectory.ProcessCounters process : new CountersDirectory(root).read()) {
            if (process.process().equals(AcknowledgedIndexReader.SHIPPER_PROCESS)) {
                for (final CountersDirectory.Counter counter : process.counters()) {
                    if (counter.label().metric().equals(ReplicationCounters.COMMITS_METRIC)) {
                        return counter.value();
                    }
                }
            }
        }
        return -1;
    }

    /**
     * Prints and records the ratios the targets are stated in: asynchronous over none and the A/A control (none over
     * none, the same run: what noise alone gives), and what acknowledged mode adds to none's p50 over plain Kafka's
     * produce latency with one record in flight.
     */
    private static void ratios(final List<MeasuredRun> runs, final Histogram plainPingPong, final BenchResult section) {
        final Histogram none = roundTrips(runs, "none (before)");
        final Histogram control = roundTrips(runs, "none (A/A control)");
        System.out.printf(Locale.ROOT, "ratios, p50 / p99: A/A control (none / none) %.2f / %.2f%n",
                ratio(control, none, 50), ratio(control, none, 99));
        section.put("aaOverNoneP50", ratio(control, none, 50)).put("aaOverNoneP99", ratio(control, none, 99));
        for (final MeasuredRun run : runs) {
            final String label = run.target().label();
            final String key = label.replaceAll("[^A-Za-z0-9]", "");
            if (label.startsWith("asynchronous")) {
                System.out.printf(Locale.ROOT, "  %s / none %.2f / %.2f (target <= 1.15 / 1.5)%n", label,
                        ratio(run.roundTrips(), none, 50), ratio(run.roundTrips(), none, 99));
                section.put(key + "OverNoneP50", ratio(run.roundTrips(), none, 50))
                        .put(key + "OverNoneP99", ratio(run.roundTrips(), none, 99));
            } else if (label.startsWith("acknowledged") && plainPingPong != null) {
                final double added = run.roundTrips().getValueAtPercentile(50) - none.getValueAtPercentile(50);
                final double produce = plainPingPong.getValueAtPercentile(50);
                System.out.printf(Locale.ROOT, "  %s adds %.0f µs to none's p50; plain Kafka's produce latency, one "
                        + "record in flight: p50 %.0f µs, p99 %.0f µs; added / produce p50 %.2f (target <= 2)%n", label,
                        added / 1e3, produce / 1e3, plainPingPong.getValueAtPercentile(99) / 1e3, added / produce);
                section.put(key + "AddedP50Micros", added / 1e3).put("plainPingPongProduceP50Micros", produce / 1e3)
                        .put("plainPingPongProduceP99Micros", plainPingPong.getValueAtPercentile(99) / 1e3)
                        .put(key + "AddedOverPlainProduceP50", added / produce);
            }
        }
    }

    private static Histogram roundTrips(final List<MeasuredRun> runs, final String label) {
        return runs.stream().filter(run -> run.target().label().equals(label)).findFirst().orElseThrow().roundTrips();
    }

    private static double ratio(final Histogram measured, final Histogram baseline, final double percentile) {
        return measured.getValueAtPercentile(percentile) / (double) Math.max(1, baseline.getValueAtPercentile(percentile));
    }

    public static void main(final String[] args) {
        System.exit(new CommandLine(new ReplicationRoundTripBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Path dir = Files.createTempDirectory("sluice-bench-replication-fix");
        final SessionIdentity seed = SessionIdentity.ofSluiceClient(FixBenchEnvironment.SEEDER_COMP_ID, PASSWORD);
        final SessionIdentity before = SessionIdentity.ofSluiceClient("NONE1", PASSWORD);
        final SessionIdentity after = SessionIdentity.ofSluiceClient("NONE2", PASSWORD);
        final SessionIdentity control = SessionIdentity.ofSluiceClient("NONE3", PASSWORD);
        final List<SessionIdentity> async = new ArrayList<>();
        final List<SessionIdentity> acked = new ArrayList<>();
        final List<ShipperSettings> shippers = shipperSettings();
        for (int i = 0; i < shippers.size(); i++) {
            async.add(SessionIdentity.ofSluiceClient("ASYNC" + i, PASSWORD));
            acked.add(SessionIdentity.ofSluiceClient("ACKED" + i, PASSWORD));
        }
        final List<MeasuredRun> runs = new ArrayList<>();
        final BenchResult section = BenchResult.section();
        Histogram plainPingPong = null;
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1, KafkaCluster.BENCH_JVM)) {
            final SluiceDeployment sluice = SluiceDeployment.prepare(dir.resolve("sluice"), List.of(
                            new SluiceDeployment.GatewaySpec(1, FixTransport.TCP, List.of(seed, before, after, control)),
                            new SluiceDeployment.GatewaySpec(2, FixTransport.TCP, async),
                            new SluiceDeployment.GatewaySpec(3, FixTransport.TCP, acked)),
                    SluiceIdle.parse(idle), SluiceDeployment.ProcessSettings.defaults(),
                    SluiceDeployment.JournalDisk.DEFAULTS);
            try {
                sluice.startGateway(1);
                sluice.startGateway(2);
                sluice.gatewayReplication("acknowledged").startGateway(3);
                sluice.launchEngine();
                try (LiquiditySeeder seeder = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seed))) {
                    seeder.start(START_TIMEOUT);
                    final FixMeasurement measurement = new FixMeasurement(StandardOrders.BUY, Duration.ofSeconds(600),
                            System.out);
                    System.out.println("phase 1: no replication (no shipper), two sessions taking turns: the A/A control");
                    runs.addAll(measurement.measure(List.of(new FixTarget("none (before)", sluice.endpoint(1), before),
                            new FixTarget("none (A/A control)", sluice.endpoint(1), control)), 1, warmup, orders, rounds));
                    for (int i = 0; i < shippers.size(); i++) {
                        final ShipperTuning tuning = shippers.get(i).tuning();
                        final String suffix = shippers.get(i).suffix();
                        System.out.println("phase 2" + suffix + ": a shipper ships every journal to Kafka (acks=all,"
                                + " linger.ms " + tuning.lingerMillis() + ", transactionMillis "
                                + tuning.transactionMillis() + ", idle " + tuning.idle() + ", frameHoldMicros "
                                + tuning.frameHoldMicros() + ")");
                        try (JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper-" + i, "bench",
                                sluice.journals(), kafka.bootstrapServers(), tuning)) {
                            // Read once the warm-up is done: the shipper's start (JIT, Kafka's clients) and its
                            // catch-up with the journals of the phases before are not the cost of an order.
                            final long[] cpuBefore = new long[2];
                            runs.addAll(measurement.measure(List.of(
                                    new FixTarget("asynchronous" + suffix, sluice.endpoint(2), async.get(i)),
                                    new FixTarget("acknowledged" + suffix, sluice.endpoint(3), acked.get(i))),
                                    1, warmup, orders, rounds, () -> {
                                        cpuBefore[0] = ProcessCpuTime.nanos(shipper.pid());
                                        cpuBefore[1] = ProcessCpuTime.nanos(kafka.pid(0));
                                    }));
                            if (!shipper.isAlive()) {
                                throw new IllegalStateException("the shipper stopped: " + shipper.logText());
                            }
                            final double perOrder = 2.0 * orders;
                            final double shipperMicros = (ProcessCpuTime.nanos(shipper.pid()) - cpuBefore[0]) / 1e3 / perOrder;
                            final double kafkaMicros = (ProcessCpuTime.nanos(kafka.pid(0)) - cpuBefore[1]) / 1e3 / perOrder;
                            // Its count since it started (a fresh shipper: its catch-up at start is a few commits);
                            // read before it stops, as the next shipper rewrites the same counters file.
                            final double commitsPerOrder = shipperCommits(sluice.journals()) / perOrder;
                            System.out.printf(Locale.ROOT, "  CPU time per replicated order%s: shipper %.1f µs,"
                                    + " kafka broker %.1f µs; Kafka transactions committed per replicated order %.2f%n",
                                    suffix, shipperMicros, kafkaMicros, commitsPerOrder);
                            final String key = shippers.get(i).key();
                            section.put("shipperCpuMicrosPerOrder" + key, shipperMicros)
                                    .put("kafkaCpuMicrosPerOrder" + key, kafkaMicros)
                                    .put("commitsPerOrder" + key, commitsPerOrder);
                        }
                    }
                    System.out.println("phase 3: plain Kafka, one record in flight (acks=all), the same broker");
                    try (PlainKafka plain = new PlainKafka(kafka.bootstrapServers(), "plain-ping-pong", kafka.pid(0), 200,
                            ReplicationConfig.DEFAULT_LINGER_MILLIS)) {
                        plain.pingPong(warmup / 4);
                        plainPingPong = plain.pingPong(orders / 2);
                    }
                    if (seeder.failure() != null) {
                        System.out.println("note: the liquidity seeder reported: " + seeder.failure());
                    }
                }
            } catch (final Exception | Error e) {
                System.out.println("the run failed; the deployment's logs:" + sluice.logs(4000));
                for (int i = 0; i < shippers.size(); i++) {
                    final Path log = dir.resolve("shipper-" + i + ".log");
                    if (Files.exists(log)) {
                        final String text = Files.readString(log);
                        System.out.println("--- shipper-" + i + " ---\n" + text.substring(Math.max(0, text.length() - 4000)));
                    }
                }
                throw e;
            } finally {
                sluice.close();
            }
            measureUnshipped(dir.resolve("sluice-after"), seed, after, runs);
        } finally {
            SluiceDeployment.deleteTree(dir);
        }
        ratios(runs, plainPingPong, section);
        FixBenchReport.printAndSave("replication-fix", String.format("FIX round trip, ping-pong (1 NewOrderSingle ->"
                        + " ack + fill), TCP, %,d warm-up + %,d measured per arm: no replication, asynchronous,"
                        + " acknowledged (Kafka 1 broker, acks=all, one host)", warmup, orders), runs,
                section.put("warmup", warmup).put("orders", orders).put("rounds", rounds)
                        .put("sluiceIdle", idle).put("lingerMs", lingers.toString())
                        .put("transactionMillis", transactionPeriods.toString())
                        .put("frameHoldMicros", frameHolds.toString())
                        .put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()),
                System.out);
        return 0;
    }

    /**
     * Phase 4, no replication again: on a deployment of its own that no shipper ever shipped, as an engine whose shipper
     * stopped rejects new orders once its lease lapses (the lease's safety, not a cost of replication).
     */
    private void measureUnshipped(final Path root, final SessionIdentity seed, final SessionIdentity after,
                                  final List<MeasuredRun> runs) throws Exception {
        System.out.println("phase 4: no replication again, on a fresh deployment no shipper ever shipped");
        final SluiceDeployment unshipped = SluiceDeployment.prepare(root, List.of(
                        new SluiceDeployment.GatewaySpec(1, FixTransport.TCP, List.of(seed, after))),
                SluiceIdle.parse(idle), SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS);
        try {
            unshipped.startGateway(1);
            unshipped.launchEngine();
            try (LiquiditySeeder seeder = StandardOrders.seeder(new FixClientSession(unshipped.endpoint(1), seed))) {
                seeder.start(START_TIMEOUT);
                runs.addAll(new FixMeasurement(StandardOrders.BUY, Duration.ofSeconds(600), System.out).measure(
                        List.of(new FixTarget("none (after)", unshipped.endpoint(1), after)), 1, warmup, orders, rounds));
            }
        } catch (final Exception | Error e) {
            System.out.println("the run failed; the unshipped deployment's logs:" + unshipped.logs(4000));
            throw e;
        } finally {
            unshipped.close();
        }
    }
}
