package io.sluice.bench;

import java.util.Arrays;

/**
 * {@code ./sluice bench <scenario> [options]}: runs one benchmark scenario, each printing a table and
 * writing JSON under {@code bench/results/}. {@code bench all} runs every scenario registered in
 * {@link io.sluice.bench.suite.BenchScenarios} and {@code bench report} renders RESULTS.md.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(final String[] args) throws Exception {
        final String scenario = args.length == 0 ? "--help" : args[0];
        final String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (scenario) {
            case "-h", "--help", "help" -> usage();
            case "all" -> io.sluice.bench.suite.SuiteMain.main(rest);
            case "report" -> io.sluice.bench.suite.ReportMain.main(rest);
            case "journal-hop" -> io.sluice.bench.hop.JournalHopBench.main(rest);
            case "engine-throughput" -> io.sluice.bench.engine.EngineThroughputBench.main(rest);
            case "journal-round-trip" -> io.sluice.bench.engine.JournalRoundTripBench.main(rest);
            case "engine-alloc" -> io.sluice.bench.engine.EngineAllocBench.main(rest);
            case "tail-offline" -> io.sluice.bench.tail.TailOfflineBenchmark.main(rest);
            case "tail-live-impact" -> io.sluice.bench.tail.TailLiveImpactBenchmark.main(rest);
            case "replay" -> io.sluice.bench.replay.ReplayBench.main(rest);
            case "recovery" -> io.sluice.bench.recovery.RecoveryBench.main(rest);
            case "snapshotter-impact" -> io.sluice.bench.fix.SnapshotterImpactBench.main(rest);
            case "fix-round-trip" -> io.sluice.bench.fix.FixBenchmark.roundTrip(rest);
            case "fix-pipelined" -> io.sluice.bench.fix.FixBenchmark.pipelined(rest);
            case "fix-idle-sockets" -> io.sluice.bench.fix.FixBenchmark.idleSockets(rest);
            case "fix-round-trip-counters" -> io.sluice.bench.fix.CountersCostBench.main(rest);
            case "fix-zero-alloc" -> io.sluice.bench.fix.FixAllocationBenchmark.main(rest);
            case "checksum-cost" -> io.sluice.bench.integrity.ChecksumCostBench.main(rest);
            case "burst" -> io.sluice.bench.burst.BurstBench.main(rest);
            case "warm-up" -> io.sluice.bench.runtime.WarmUpBench.main(rest);
            case "runtime-configs" -> io.sluice.bench.runtime.RuntimeConfigsBench.main(rest);
            case "replication" -> io.sluice.bench.replication.ReplicationLagBench.main(rest);
            case "replication-fix" -> io.sluice.bench.fix.ReplicationRoundTripBench.main(rest);
            case "replication-netns" -> io.sluice.bench.replication.MultiHostReplicationBench.main(rest);
            case "replication-starved" -> io.sluice.bench.replication.StarvedShipperBench.main(rest);
            case "market-data" -> io.sluice.bench.marketdata.MarketDataBench.main(rest);
            default -> {
                System.err.println("bench: unknown scenario '" + scenario + "'.");
                usage();
                System.exit(2);
            }
        }
    }

    private static void usage() {
        System.out.println("""
                Usage: ./sluice bench <scenario> [options]
                       ./sluice bench all [--quick] [--repeats N] [--only a,b]   every scenario, fresh JVMs, then RESULTS.md
                       ./sluice bench report [--newest N]   render bench/RESULTS.md from bench/results, running nothing
                       (a scenario's quick and full arguments, and what the report shows: suite.BenchScenarios)

                Scenarios:
                  journal-hop          one journal hop: contract (method writer/reader) vs raw DocumentContext, A/B
                  engine-throughput    engine flat out over a pre-written mixed journal, vs the raw append ceiling
                  journal-round-trip   two gateway threads -> engine -> back: rate and latency percentiles
                  engine-alloc         engine under Epsilon GC: allocated bytes per command on the engine thread
                  tail-offline         latency tail reading a synthetic journal set offline: inputs/s and records/s
                  tail-live-impact     journal round trip at a fixed rate without and with a live tail process, A/B: p99 ratio
                  replay               replay with comparison vs the engine alone over a recorded set (--orders N)
                  recovery             engine restart (launch to first live answer) after 1 M and 10 M inputs, with vs without snapshots
                  snapshotter-impact   live engine under pipelined FIX orders with a following snapshotter vs none, A/B
                  fix-round-trip       FIX ping-pong round trip through Sluice (TCP, UDS) beside QuickFIX/J
                  fix-pipelined        FIX pipelined throughput through Sluice (TCP, UDS) beside QuickFIX/J
                  fix-idle-sockets     FIX ping-pong on a gateway holding 500 idle connections vs one holding none
                  fix-round-trip-counters  FIX ping-pong with counters on vs off (engine and gateway), arms taking turns
                  fix-zero-alloc       gateway under Epsilon GC: allocated bytes per order, whole process
                  checksum-cost        engine-throughput and fix-round-trip with journal checksums on vs off, child JVMs alternating
                  burst                200 M messages through the journal round trip as journals outgrow memory, vs 20 M
                  warm-up [--full]     FIX path from a cold start, per second: plain JVM vs AOT cache vs JIT options
                  runtime-configs [--full]  journal + FIX round trips: GC sweep, then compact headers, pre-touch, pinning
                  replication          replication lag through Kafka (shipper, broker, receiver) at 10 k/s, 100 k/s, flat out,
                                       against plain Kafka at the same rates on the same broker
                  replication-fix      FIX round trip with no replication vs asynchronous vs acknowledged, one run
                  replication-netns    primary and replica in two network namespaces (root): netem delay, loss, a 60 s
                                       partition; lag per phase, catch-up rate, journals identical at the end
                  replication-starved  the shipper at nice 19 under writers and spinning threads for 60 s: progress
                                       every second, then the replica catches up identical
                  market-data          order-to-tick (engine report -> feed packet, -> feed handler's book) paced and flat
                                       out beside the engine hop; offline rebuild; a 500 k msg/s burst; Epsilon allocation
                """);
    }
}
