package io.sluice.bench.suite;

import io.sluice.bench.burst.BurstBench;
import io.sluice.bench.engine.EngineAllocBench;
import io.sluice.bench.engine.EngineThroughputBench;
import io.sluice.bench.engine.JournalRoundTripBench;
import io.sluice.bench.fix.CountersCostBench;
import io.sluice.bench.fix.FixAllocationBenchmark;
import io.sluice.bench.fix.FixBenchmark;
import io.sluice.bench.fix.ReplicationRoundTripBench;
import io.sluice.bench.fix.SnapshotterImpactBench;
import io.sluice.bench.hop.JournalHopBench;
import io.sluice.bench.integrity.ChecksumCostBench;
import io.sluice.bench.marketdata.FixFanOutBench;
import io.sluice.bench.marketdata.MarketDataBench;
import io.sluice.bench.recovery.RecoveryBench;
import io.sluice.bench.replay.ReplayBench;
import io.sluice.bench.replication.FailoverBench;
import io.sluice.bench.replication.MultiHostReplicationBench;
import io.sluice.bench.replication.ReplicationLagBench;
import io.sluice.bench.replication.SplitBrainBench;
import io.sluice.bench.replication.StarvedShipperBench;
import io.sluice.bench.report.ReportSpec;
import io.sluice.bench.runtime.RuntimeConfigsBench;
import io.sluice.bench.runtime.WarmUpBench;
import io.sluice.bench.tail.TailLiveImpactBenchmark;
import io.sluice.bench.tail.TailOfflineBenchmark;

import java.util.List;
import java.util.Optional;

/**
 * Every scenario {@code ./sluice bench all} runs, in the order it runs them. ONE entry per scenario, with its quick and
 * full arguments and what the report shows; {@code ./sluice bench} dispatches from this list alone ({@link ScenarioMain}).
 * Quick sizes are chosen so that {@code bench all --quick} (three repeats of everything) takes about 15 minutes on the
 * 2-core development VM.
 */
public final class BenchScenarios {
    private static final String QFJ = "QuickFIX/J TCP";

    /** The registry. */
    public static final List<BenchScenario> ALL = List.of(
            new BenchScenario("journal-hop", JournalHopBench::main,
                    "one journal hop (writer thread -> journal -> reader thread) at fixed rates and flat out",
                    "contract (Sluice's method writer/reader) vs raw Chronicle DocumentContext writes of the same bytes;"
                            + " same process, A/B interleaved: every round runs every rate for both variants",
                    "the contract layer costs at most 1.3x the raw hop (p50 and p99)",
                    List.of("--messages", "100000", "--rates", "100000,0", "--rounds", "3", "--warmup", "100000",
                            "--codec-messages", "50000"),
                    List.of(),
                    hop(new ReportSpec(), "100000", "1000000", "0")),
            new BenchScenario("engine-throughput", EngineThroughputBench::main,
                    "the engine flat out over a pre-written journal of mixed commands",
                    "engine reports/s vs the raw append rate of as many reports (the ceiling), measured after the"
                            + " engine in the same process, both with the journal pretoucher; not interleaved",
                    "at least 1 M orders/s, and at least 50 % of the ceiling",
                    List.of("--orders", "500000", "--warmup", "200000"),
                    List.of(),
                    new ReportSpec()
                            .headline("commands/s", "commandsPerSecond")
                            .headline("reports/s", "reportsPerSecond")
                            .headline("share of the ceiling", "shareOfCeiling")
                            .headline("recovery inputs/s (re-run and compared)", "recoveryInputsPerSecond")
                            .compare("reports/s", "engine", "reportsPerSecond", "raw append", "ceilingReportsPerSecond")),
            new BenchScenario("journal-round-trip", JournalRoundTripBench::main,
                    "two gateway threads -> journals -> engine -> journal -> gateways, within a window",
                    "no baseline; the anchor figures are from other hardware",
                    "anchor: 1.6 M/s and 3.3 / 4.9 / 9.8 µs (p90 / p99 / p99.9) on a 3.8 GHz i7",
                    List.of("--orders", "200000"),
                    List.of(),
                    new ReportSpec()
                            .headline("round trips/s", "roundTripsPerSecond")
                            .headline("round trip p50 (µs)", "roundTrip.p50Us")
                            .headline("round trip p99 (µs)", "roundTrip.p99Us")
                            .latency("round trip", "roundTrip")
                            .latency("in: written -> engine read", "in")
                            .latency("out: report -> gateway read", "out")),
            new BenchScenario("engine-alloc", EngineAllocBench::main,
                    "the engine in a child JVM under Epsilon GC: bytes allocated per command",
                    "no baseline; the target is zero",
                    "0 bytes per order over at least 10 M orders",
                    List.of("--orders", "500000"),
                    List.of(),
                    new ReportSpec()
                            .headline("bytes per command", "bytesPerCommand")
                            .headline("allocated bytes", "allocatedBytes")),
            new BenchScenario("tail-offline", TailOfflineBenchmark::main,
                    "the latency tail reading a finished synthetic journal set from its start",
                    "no baseline; five runs inside the process, median reported",
                    "at least 5 M messages/s offline",
                    List.of("--inputs", "1000000", "--gateways", "2"),
                    List.of(),
                    new ReportSpec()
                            .headline("inputs/s (median run)", "inputsPerSecond")
                            .headline("inputs/s on CPU time", "cpuInputsPerSecond")
                            .headline("bytes allocated per record", "bytesAllocatedPerRecord")),
            new BenchScenario("tail-live-impact", TailLiveImpactBenchmark::main,
                    "the journal round trip at a paced rate while a live tail process follows its journals",
                    "the same round trip without the tail; same process, A/B interleaved: every round runs both,"
                            + " the order alternating, each run on fresh journals",
                    "the live tail changes the round trip's p99 by at most 10 %",
                    List.of("--orders", "60000", "--rate", "10000", "--rounds", "5"),
                    List.of(),
                    new ReportSpec()
                            .headline("p99 ratio with ÷ without tail, all rounds", "p99Ratio")
                            .headline("p99 ratio, median round", "p99RatioMedian")
                            .headline("tail's share of a core", "tailCpuShare")
                            .headline("runs behind the offered rate", "runsBehindOfferedRate")
                            .compare("p50 (µs)", "with tail", "withTail.p50Us", "without tail", "withoutTail.p50Us")
                            .compare("p99 (µs)", "with tail", "withTail.p99Us", "without tail", "withoutTail.p99Us")
                            .compare("p99.9 (µs)", "with tail", "withTail.p99_9Us", "without tail", "withoutTail.p99_9Us")
                            .latency("without tail", "withoutTail")
                            .latency("with tail", "withTail")),
            new BenchScenario("replay", ReplayBench::main,
                    "replaying a recorded journal set through a fresh engine and comparing the reports",
                    "replay with comparison vs the engine alone over the same set; same process, alternating rounds",
                    "replay with comparison at most 1.25x the engine alone",
                    List.of("--orders", "300000", "--rounds", "3"),
                    List.of(),
                    new ReportSpec()
                            .headline("time ratio replay ÷ engine, median round", "ratio.median")
                            .headline("time ratio, slowest round", "ratio.max")
                            .headline("thread CPU ratio, median round", "threadCpuRatio.median")
                            .headline("best replay ÷ best engine", "bestOfEachRatio")
                            .compare("seconds, round 1", "replay + comparison", "replayWithComparison[0].seconds",
                                    "engine alone", "engineAlone[0].seconds")
                            .compare("seconds, round 2", "replay + comparison", "replayWithComparison[1].seconds",
                                    "engine alone", "engineAlone[1].seconds")
                            .compare("seconds, round 3", "replay + comparison", "replayWithComparison[2].seconds",
                                    "engine alone", "engineAlone[2].seconds")),
            new BenchScenario("recovery", RecoveryBench::main,
                    "engine restart, from process launch to its answer to the first live command, as history grows",
                    "restart from the newest snapshot (./sluice snapshot --at-end run before) vs re-running every input,"
                            + " each with and without the engine's AOT cache (as ./sluice engine starts); same run, same"
                            + " journals, at each size, variants interleaved",
                    "with snapshots under 1 s at every size and flat as history grows",
                    List.of("--sizes", "100000,1000000", "--repeats", "1"),
                    List.of(),
                    new ReportSpec()
                            .headline("restart with snapshots and AOT cache, largest size (ms)",
                                    "rows[1].withSnapshotsAot.launchToFirstAnswerMs")
                            .headline("restart with snapshots, largest size (ms)", "rows[1].withSnapshots.launchToFirstAnswerMs")
                            .headline("restart without snapshots, largest size (ms)", "rows[1].withoutSnapshots.launchToFirstAnswerMs")
                            .compare("restart (ms), smaller size", "with snapshots", "rows[0].withSnapshots.launchToFirstAnswerMs",
                                    "without", "rows[0].withoutSnapshots.launchToFirstAnswerMs")
                            .compare("restart (ms), larger size", "with snapshots", "rows[1].withSnapshots.launchToFirstAnswerMs",
                                    "without", "rows[1].withoutSnapshots.launchToFirstAnswerMs")
                            .compare("restart with snapshots (ms), larger size", "AOT cache",
                                    "rows[1].withSnapshotsAot.launchToFirstAnswerMs", "none",
                                    "rows[1].withSnapshots.launchToFirstAnswerMs")
                            .compare("engine recovery (ms), larger size", "with snapshots", "rows[1].withSnapshots.engineRecoveryMs",
                                    "without", "rows[1].withoutSnapshots.engineRecoveryMs")),
            new BenchScenario("snapshotter-impact", SnapshotterImpactBench::main,
                    "the live engine (and a TCP gateway) under pipelined FIX orders, window 16, while a snapshotter"
                            + " follows its journals (./sluice snapshot --follow --every 50000, a process of its own)",
                    "an identical deployment without one; same run, slices taking turns (the other deployment stopped),"
                            + " the snapshotter caught up before each slice with it",
                    "a following snapshotter costs the live engine at most 10 % (throughput and p99)",
                    List.of("--warmup", "10000", "--orders", "60000", "--rounds", "6"),
                    List.of(),
                    new ReportSpec()
                            .headline("throughput ratio with ÷ without", "snapshotterCost.throughputRatio")
                            .headline("p99 ratio with ÷ without", "snapshotterCost.p99Ratio")
                            .compare("orders/s", "with snapshotter", "targets.Sluice TCP, snapshotter following.ordersPerSecond",
                                    "without", "targets.Sluice TCP, no snapshotter.ordersPerSecond")
                            .compare("p99 (µs)", "with snapshotter", "targets.Sluice TCP, snapshotter following.roundTrip.p99Us",
                                    "without", "targets.Sluice TCP, no snapshotter.roundTrip.p99Us")
                            .latency("no snapshotter", "targets.Sluice TCP, no snapshotter.roundTrip")
                            .latency("snapshotter following", "targets.Sluice TCP, snapshotter following.roundTrip")),
            new BenchScenario("fix-round-trip", FixBenchmark::main,
                    "FIX ping-pong (window 1) through Sluice's full path over TCP and UDS",
                    "Sluice vs a QuickFIX/J acceptor answering the same orders; same run, A/B interleaved in slices"
                            + " (targets take turns)",
                    "Sluice at least 6.5x faster than QuickFIX/J on the mean and on p99",
                    List.of("--warmup", "10000", "--orders", "20000", "--rounds", "4"),
                    List.of(),
                    fix(new ReportSpec())),
            new BenchScenario("fix-pipelined", FixBenchmark::pipelined,
                    "FIX pipelined throughput (window 64) through Sluice's full path over TCP and UDS",
                    "Sluice vs a QuickFIX/J acceptor answering the same orders; same run, A/B interleaved in slices",
                    "at least 10x QuickFIX/J's throughput",
                    List.of("--warmup", "20000", "--orders", "60000", "--rounds", "4"),
                    List.of(),
                    fix(new ReportSpec())),
            new BenchScenario("fix-idle-sockets", FixBenchmark::idleSockets,
                    "FIX ping-pong (window 1) through Sluice's full path over TCP, with 500 idle connections held open",
                    "the same session on an identical gateway holding no idle connections; same run, A/B interleaved"
                            + " in slices (targets take turns)",
                    "500 idle sockets cost the round trip at most 5 % (mean and p99)",
                    List.of("--warmup", "10000", "--orders", "20000", "--rounds", "4"),
                    List.of(),
                    new ReportSpec()
                            .headline("mean ratio with ÷ without idle sockets", "idleSocketCost.Sluice TCP + 500 idle.meanRatio")
                            .headline("p99 ratio with ÷ without idle sockets", "idleSocketCost.Sluice TCP + 500 idle.p99Ratio")
                            .compare("mean (µs)", "500 idle", "targets.Sluice TCP + 500 idle.meanUs", "none",
                                    "targets.Sluice TCP.meanUs")
                            .compare("p99 (µs)", "500 idle", "targets.Sluice TCP + 500 idle.roundTrip.p99Us", "none",
                                    "targets.Sluice TCP.roundTrip.p99Us")
                            .latency("Sluice TCP", "targets.Sluice TCP.roundTrip")
                            .latency("Sluice TCP + 500 idle", "targets.Sluice TCP + 500 idle.roundTrip")),
            new BenchScenario("fix-round-trip-counters", CountersCostBench::main,
                    "FIX ping-pong (window 1) through Sluice's full path over TCP with the live counters on (as shipped)",
                    "the same deployment with counters: false in the engine and the gateway (no counters file, no counter"
                            + " writes); same run, the arms taking turns in slices, the other arm's processes stopped",
                    "counters cost at most 2 % on p50 and p99",
                    List.of("--warmup", "10000", "--orders", "40000", "--rounds", "8"),
                    List.of(),
                    new ReportSpec()
                            .headline("p50 ratio counters on ÷ off", "countersCost.p50Ratio")
                            .headline("p99 ratio counters on ÷ off", "countersCost.p99Ratio")
                            .compare("p50 (µs)", "counters on", "targets.Sluice TCP, counters on.roundTrip.p50Us",
                                    "counters off", "targets.Sluice TCP, counters off.roundTrip.p50Us")
                            .compare("p99 (µs)", "counters on", "targets.Sluice TCP, counters on.roundTrip.p99Us",
                                    "counters off", "targets.Sluice TCP, counters off.roundTrip.p99Us")
                            .latency("counters on", "targets.Sluice TCP, counters on.roundTrip")
                            .latency("counters off", "targets.Sluice TCP, counters off.roundTrip")),
            new BenchScenario("fix-zero-alloc", FixAllocationBenchmark::main,
                    "orders through a gateway under Epsilon GC: bytes allocated per order by the whole gateway",
                    "no baseline; the target is zero",
                    "0 bytes per order on the gateway's I/O thread over at least 5 M orders",
                    List.of("--warmup", "50000", "--orders", "200000"),
                    List.of(),
                    new ReportSpec()
                            .headline("gateway bytes per order", "gatewayBytesPerOrder")
                            .headline("orders/s", "ordersPerSecond")),
            new BenchScenario("checksum-cost", ChecksumCostBench::main,
                    "engine-throughput and fix-round-trip (Sluice TCP) with the journal records' CRC32C checksums on",
                    "the same runs with checksums off (-Dsluice.journal.checksums=off, for measurement only); each arm a"
                            + " fresh child JVM, arms alternating round by round, the order flipping",
                    "checksums cost at most 3 % (engine commands/s, FIX round trip mean)",
                    List.of("--rounds", "2", "--engine-orders", "500000", "--engine-warmup", "200000",
                            "--fix-warmup", "10000", "--fix-orders", "20000"),
                    List.of(),
                    new ReportSpec()
                            .headline("engine commands/s on ÷ off, median", "engine.ratio")
                            .headline("FIX round trip mean on ÷ off, median", "fix.meanRatio")
                            .headline("FIX round trip p99 on ÷ off, median", "fix.p99Ratio")
                            .compare("engine commands/s", "checksums on", "engine.commandsPerSecondOnMedian",
                                    "checksums off", "engine.commandsPerSecondOffMedian")
                            .compare("FIX round trip mean (µs)", "checksums on", "fix.meanUsOnMedian",
                                    "checksums off", "fix.meanUsOffMedian")),
            new BenchScenario("warm-up", WarmUpBench::main,
                    "the full FIX path from process launch under a constant paced load, per second",
                    "the plain JVM vs the JDK 25 AOT cache (trained on real orders) vs -XX:CompileThresholdScaling=0.1"
                            + " (and C1 only, AOT + scaling in the full profile); variants take turns, run by run",
                    "time to first fill, time to 95 % of peak, p99 in the first 10 s vs steady state",
                    List.of("--repeats", "1", "--duration", "15"),
                    List.of("--full"),
                    new ReportSpec()
                            .headline("plain: seconds to 95 % of peak", "variants[variant=plain].secondsTo95PercentOfPeak.median")
                            .headline("aot: seconds to 95 % of peak", "variants[variant=aot].secondsTo95PercentOfPeak.median")
                            .compare("first fill after launch (ms)", "aot", "variants[variant=aot].firstFillMs.median",
                                    "plain", "variants[variant=plain].firstFillMs.median")
                            .compare("seconds to 95 % of peak", "aot", "variants[variant=aot].secondsTo95PercentOfPeak.median",
                                    "plain", "variants[variant=plain].secondsTo95PercentOfPeak.median")
                            .compare("p99 in the first 10 s (µs)", "aot", "variants[variant=aot].p99First10sUs.median",
                                    "plain", "variants[variant=plain].p99First10sUs.median")),
            new BenchScenario("runtime-configs", RuntimeConfigsBench::main,
                    "the journal round trip and the FIX round trip under several GCs and JVM flags",
                    "G1 (the shipped default) vs ZGC, Parallel and Serial, then compact object headers, AlwaysPreTouch"
                            + " and a pinned engine thread one at a time; configurations take turns, run by run",
                    "say which configuration Sluice ships and why",
                    List.of("--repeats", "1", "--journal-orders", "50000", "--fix-warmup", "1000", "--fix-orders", "5000"),
                    List.of("--full"),
                    gcSweep(new ReportSpec(), "ZGC", "Parallel", "Serial")),
            new BenchScenario("burst", BurstBench::main,
                    "a sustained journal round trip burst as the journals outgrow the page cache",
                    "the big burst vs a smaller burst run first in the same process; per 5 s interval",
                    "at least 200 M messages (or as many as the disk allows, stated) vs a 20 M burst",
                    List.of("--messages", "4000000", "--baseline", "2000000", "--probe", "200000"),
                    List.of(),
                    new ReportSpec()
                            .headline("burst messages/s", "burst.messagesPerSecond")
                            .compare("messages/s", "burst", "burst.messagesPerSecond", "baseline",
                                    "baseline.messagesPerSecond")
                            .compare("p99.9 (µs)", "burst", "burst.roundTrip.p99_9Us", "baseline",
                                    "baseline.roundTrip.p99_9Us")
                            .latency("burst", "burst.roundTrip")
                            .latency("baseline", "baseline.roundTrip")),
            new BenchScenario("replication", ReplicationLagBench::main,
                    "replication lag: a command written to a primary journal -> read from the replica's copy, through a"
                            + " real Kafka broker, a shipper and a receiver (child processes), at fixed rates and flat out;"
                            + " first a plain Kafka producer and consumer at the same rates against the same broker",
                    "plain Kafka at the same rate, record size and client settings, same broker, same run",
                    "lag p50 and p99 within 2x plain Kafka's end-to-end latency; broker CPU per excerpt within 1.5x"
                            + " its CPU per plain record; shipper + receiver CPU no more than the broker's",
                    List.of("--rates", "10000,100000,0", "--seconds", "3", "--warm-up-seconds", "5", "--flat-out", "200000"),
                    List.of(),
                    new ReportSpec()
                            .headline("lag / plain p50 at 10 k/s", "rate10000LagOverPlainP50")
                            .headline("lag / plain p99 at 10 k/s", "rate10000LagOverPlainP99")
                            .headline("lag / plain p50 at 100 k/s", "rate100000LagOverPlainP50")
                            .headline("lag / plain p99 at 100 k/s", "rate100000LagOverPlainP99")
                            .headline("broker CPU / plain at 100 k/s", "rate100000BrokerCpuOverPlain")
                            .headline("flat out written/s", "flatOutWrittenPerSecond")
                            .latency("10 k/s", "rate10000")
                            .latency("plain 10 k/s", "plainRate10000EndToEnd")
                            .latency("100 k/s", "rate100000")
                            .latency("plain 100 k/s", "plainRate100000EndToEnd")
                            .latency("flat out", "flatOut")),
            new BenchScenario("replication-starved", StarvedShipperBench::main,
                    "replication with the shipper at nice 19 while a writer and two spinning threads take the CPU for"
                            + " 60 s, then the load stops",
                    "none: the target is absolute",
                    "progress (Kafka acknowledging excerpts) in every second; the replica identical once caught up",
                    List.of("--seconds", "20"),
                    List.of(),
                    new ReportSpec()
                            .headline("seconds without progress", "secondsWithoutProgress")
                            .headline("least acknowledged in a second", "leastAcknowledgedInASecond")
                            .headline("catch-up (s)", "catchUpSeconds")
                            .headline("journals identical", "identical")),
            new BenchScenario("failover", FailoverBench::main,
                    "kill -9 of a primary's engine, gateway and shipper under a steady FIX order flow; ./sluice standby"
                            + " takes over and the QuickFIX/J client reconnects to it by itself",
                    "none: the target is absolute; each round prints the parts (detection, fence, promotion, engine"
                            + " up, logon)",
                    "first fill on the standby p50 <= 3 s, max <= 5 s after the kill; 0 orders lost and 0 acknowledged"
                            + " twice (acknowledged mode)",
                    List.of("--rounds", "2"),
                    List.of(),
                    new ReportSpec()
                            .headline("first fill p50 (ms after the kill)", "firstFillP50Ms")
                            .headline("first fill max (ms)", "firstFillMaxMs")
                            .headline("detection p50 (ms)", "detectionP50Ms")
                            .headline("promoted p50 (ms)", "promotedP50Ms")
                            .headline("engine up p50 (ms)", "engineUpP50Ms")
                            .headline("orders lost", "ordersLost")
                            .headline("orders acknowledged twice", "ordersAcknowledgedTwice")),
            new BenchScenario("replication-fix", ReplicationRoundTripBench::main,
                    "FIX ping-pong round trip through one deployment and a real Kafka broker: no shipper, then a shipper"
                            + " with an asynchronous and an acknowledged gateway taking turns, then no shipper again",
                    "no replication, measured before (with an A/A control) and after the replicated arms in the same"
                            + " run; plain Kafka's ping-pong produce latency on the same broker",
                    "asynchronous / none p50 <= 1.15 and p99 <= 1.5 (an A/A control beside it); acknowledged adds to"
                            + " none's p50 at most 2x plain Kafka's produce latency with one record in flight",
                    List.of("--warmup", "10000", "--orders", "10000", "--rounds", "5"),
                    List.of(),
                    new ReportSpec()
                            .headline("asynchronous p50 (µs)", "targets.asynchronous.roundTrip.p50Us")
                            .headline("acknowledged p50 (µs)", "targets.acknowledged.roundTrip.p50Us")
                            .headline("A/A control p50 ratio", "aaOverNoneP50")
                            .headline("asynchronous / none p50", "asynchronousOverNoneP50")
                            .headline("asynchronous / none p99", "asynchronousOverNoneP99")
                            .headline("acknowledged added / plain produce p50", "acknowledgedAddedOverPlainProduceP50")
                            .compare("p50 (µs)", "asynchronous", "targets.asynchronous.roundTrip.p50Us", "none",
                                    "targets.none (before).roundTrip.p50Us")
                            .compare("p99 (µs)", "asynchronous", "targets.asynchronous.roundTrip.p99Us", "none",
                                    "targets.none (before).roundTrip.p99Us")
                            .compare("p50 (µs)", "acknowledged", "targets.acknowledged.roundTrip.p50Us", "none",
                                    "targets.none (before).roundTrip.p50Us")
                            .compare("p99 (µs)", "acknowledged", "targets.acknowledged.roundTrip.p99Us", "none",
                                    "targets.none (before).roundTrip.p99Us")
                            .latency("none (before)", "targets.none (before).roundTrip")
                            .latency("asynchronous", "targets.asynchronous.roundTrip")
                            .latency("acknowledged", "targets.acknowledged.roundTrip")
                            .latency("none (after)", "targets.none (after).roundTrip")),
            new BenchScenario("replication-netns", MultiHostReplicationBench::main,
                    "replication across two network namespaces joined by a veth pair (primary: engine, gateway, FIX load,"
                            + " shipper; replica: Kafka broker, receiver): tc netem delay, then loss, then a narrow link"
                            + " (tc tbf), then a partition, then healed (needs root; skipped where namespaces cannot be"
                            + " made)",
                    "the lag of each phase against the baseline phase of the same run; the catch-up rate against the"
                            + " offered rate",
                    "after a 60 s partition the replica catches up at least 5x the offered rate, and the"
                            + " journals are identical",
                    List.of("--baseline", "5", "--delay", "5", "--loss", "5", "--narrow", "5", "--partition", "10",
                            "--after", "20"),
                    List.of(),
                    new ReportSpec()
                            .headline("catch-up rate / offered rate", "catchUpRatio")
                            .headline("backlog at heal (records)", "backlogAtHealRecords")
                            .headline("catch-up (s)", "catchUpSeconds")
                            .headline("journals identical", "identical")),
            new BenchScenario("failover-netns", SplitBrainBench::main,
                    "split brain on two network namespaces (primary: engine, gateway, shipper and a FIX client asking it"
                            + " to take orders; other side: Kafka broker and ./sluice standby): the link is cut, then"
                            + " healed (needs root; skipped where namespaces cannot be made)",
                    "none: each moment is measured from the cut (or the heal) in the same run",
                    "the standby takes over and takes an order; the old primary rejects new orders within its lease,"
                            + " takes none after, and says it was fenced after the heal; the new primary replays"
                            + " identically",
                    List.of("--partition", "10", "--rounds", "2"),
                    List.of(),
                    new ReportSpec()
                            .headline("old primary rejects on its lease (ms after the cut)", "primaryRejectsOnItsLeaseMs")
                            .headline("standby promoted (ms after the cut)", "standbyPromotedMs")
                            .headline("order taken by the standby, p50 (ms after the cut)", "orderTakenByTheStandbyMs")
                            .headline("order taken by the standby, max (ms after the cut)", "orderTakenByTheStandbyMaxMs")
                            .headline("old primary says fenced (ms after the heal)", "oldPrimarySaysFencedAfterHealMs")
                            .headline("orders taken after the lease lapsed", "ordersTakenAfterTheLeaseLapsed")
                            .headline("new primary replays identically", "newPrimaryReplaysIdentically")),
            new BenchScenario("market-data", MarketDataBench::main,
                    "market data from a real engine's journal: order-to-tick paced and flat out (engine report -> feed"
                            + " packet sent, -> feed handler's book), offline rebuild, a burst, Epsilon allocation",
                    "the engine hop (report -> a plain tailer of the engine journal) in the same run",
                    "the feed adds at most 20 µs p50 to the engine hop; rebuild at least 5 M messages/s; a 500 k msg/s"
                            + " burst without a gap; 0 bytes per message",
                    List.of("--commands", "30000", "--warmup", "20000", "--alloc-commands", "30000"),
                    List.of(),
                    new ReportSpec()
                            .headline("feed adds p50 (µs), paced", "paced.feedAddsP50Us")
                            .headline("feed adds p50 (µs), flat out", "flatOut.feedAddsP50Us")
                            .headline("rebuild messages/s", "rebuild.medianMessagesPerSecond")
                            .headline("burst messages/s", "burst.messagesPerSecond")
                            .headline("burst gaps", "burst.gaps")
                            .latency("engine hop, paced", "paced.engineHop")
                            .latency("packet sent, paced", "paced.packetSent")
                            .latency("book updated, paced", "paced.bookUpdated")
                            .latency("book updated, flat out", "flatOut.bookUpdated")),
            new BenchScenario("fix-fan-out", FixFanOutBench::main,
                    "FIX market data: one gateway fans each market-data journal message out as 35=X to N subscribers"
                            + " on real TCP connections; tick (journal append) to subscriber (35=X read), by N; then a"
                            + " trading session's order round trip through engine, marketdata and gateway with 50"
                            + " subscribers against none",
                    "the phase with one subscriber, and the order path with no subscribers, in the same run",
                    "order round trip with 50 subscribers within 1.2x of none; a slow subscriber is conflated, never"
                            + " slows the others (SlowSubscriberTest)",
                    List.of("--messages", "5000", "--warmup", "5000", "--subscribers", "1,10",
                            "--order-path-subscribers", "10", "--order-path-warmup", "2000",
                            "--order-path-orders", "2000", "--order-path-rounds", "4"),
                    List.of(),
                    new ReportSpec()
                            .latency("tick to subscriber, 1 subscriber", "subscribers1.tickToSubscriber")
                            .latency("tick to subscriber, 10 subscribers", "subscribers10.tickToSubscriber")
                            .latency("tick to subscriber, 50 subscribers", "subscribers50.tickToSubscriber")
                            .latency("order round trip, no subscribers", "orderPath.withoutSubscribers.roundTrip")
                            .latency("order round trip, with subscribers", "orderPath.withSubscribers.roundTrip")));

    private BenchScenarios() {
    }

    /** @return the scenario called {@code name}, if registered */
    public static Optional<BenchScenario> find(final String name) {
        return ALL.stream().filter(scenario -> scenario.name().equals(name)).findFirst();
    }

    private static ReportSpec hop(final ReportSpec spec, final String... rates) {
        for (final String rate : rates) {
            final String label = "0".equals(rate) ? "flat out" : rate + "/s";
            final String contract = "rows[variant=contract,targetRate=" + rate + "]";
            final String raw = "rows[variant=raw,targetRate=" + rate + "]";
            spec.compare("p50 (µs), " + label, "contract", contract + ".latency.p50Us", "raw", raw + ".latency.p50Us")
                    .compare("p99 (µs), " + label, "contract", contract + ".latency.p99Us", "raw", raw + ".latency.p99Us")
                    .compare("messages/s, " + label, "contract", contract + ".throughputPerSecond", "raw",
                            raw + ".throughputPerSecond")
                    .latency("contract, " + label, contract + ".latency")
                    .latency("raw, " + label, raw + ".latency");
        }
        return spec;
    }

    private static ReportSpec gcSweep(final ReportSpec spec, final String... gcs) {
        final String shipped = "gcSweep[config=default].";
        spec.headline("shipped default: journal round trips/s", shipped + "journalRoundTrip.perSecond.median")
                .headline("shipped default: FIX round trip p99 (µs)", shipped + "fixRoundTrip.p99Us.median");
        for (final String gc : gcs) {
            final String row = "gcSweep[config=" + gc + "].";
            spec.compare("journal round trip p99 (µs)", gc, row + "journalRoundTrip.p99Us.median", "default",
                            shipped + "journalRoundTrip.p99Us.median")
                    .compare("FIX round trip p99 (µs)", gc, row + "fixRoundTrip.p99Us.median", "default",
                            shipped + "fixRoundTrip.p99Us.median");
        }
        return spec;
    }

    private static ReportSpec fix(final ReportSpec spec) {
        for (final String sluice : List.of("Sluice TCP", "Sluice UDS")) {
            final String target = "targets." + sluice;
            spec.headline(sluice + " orders/s", target + ".ordersPerSecond")
                    .headline(sluice + " mean (µs)", target + ".meanUs")
                    .headline(sluice + " p99 (µs)", target + ".roundTrip.p99Us")
                    .compare("mean (µs)", sluice, target + ".meanUs", QFJ, "targets." + QFJ + ".meanUs")
                    .compare("p99 (µs)", sluice, target + ".roundTrip.p99Us", QFJ, "targets." + QFJ + ".roundTrip.p99Us")
                    .compare("orders/s", sluice, target + ".ordersPerSecond", QFJ, "targets." + QFJ + ".ordersPerSecond");
        }
        return spec.latency("Sluice TCP", "targets.Sluice TCP.roundTrip")
                .latency("Sluice UDS", "targets.Sluice UDS.roundTrip")
                .latency(QFJ, "targets." + QFJ + ".roundTrip");
    }
}
