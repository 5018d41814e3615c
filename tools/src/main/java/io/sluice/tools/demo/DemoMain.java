package io.sluice.tools.demo;

import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;
import io.sluice.tools.report.LatencyTable;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code ./sluice demo}: Sluice end to end on this machine. Starts the engine and two gateways as separate
 * processes on a fresh temporary root, seeds sell liquidity, drives FIX buy orders through both gateways
 * (one load session each, in this process), prints the round-trip latency and throughput every second and a
 * summary at the end, then stops the processes and deletes the root. With {@code --replicate} it also runs a Kafka
 * broker, a shipper, a receiver into a second root and a shadow engine on that replica ({@link ReplicaSide}), prints
 * the replica's lag and the shadow's count beside the latencies, and ends with whether the replica is identical to
 * the primary and the shadow's verdict.
 */
@Command(name = "./sluice demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Engine + two gateways as child processes, driven by a FIX load client; prints latency live.")
public final class DemoMain implements Callable<Integer> {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);
    private static final String PASSWORD = "demo";
    /** The process's clocks: they time the run and the waits, and stamp the FIX messages it sends. */
    private final NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private final EpochClock epochClock = SystemEpochClock.INSTANCE;

    @Option(names = "--duration", converter = DurationConverter.class,
            description = "how long to drive load, e.g. 30s, 2m (default 20s)")
    private Duration duration = Duration.ofSeconds(20);

    @Option(names = "--transport", description = "how clients reach the gateways: tcp or uds (default ${DEFAULT-VALUE})")
    private String transport = "tcp";

    @Option(names = "--rate", description = "orders per second across both gateways; 0 = as fast as the window allows"
            + " (default ${DEFAULT-VALUE})")
    private long rate;

    @Option(names = "--window", description = "orders each load session keeps outstanding; 1 = ping-pong"
            + " (default ${DEFAULT-VALUE})")
    private int window = 1;

    @Option(names = "--idle", description = "what the engine and gateway threads do when idle: yield (each keeps a core"
            + " busy, lowest latency on a VM whose idle CPUs halt), backoff (parks, kind to a shared machine),"
            + " busy-spin or engine-spin (default ${DEFAULT-VALUE})")
    private String idle = SluiceIdle.YIELD.label();

    @Option(names = "--journals", paramLabel = "DIR", description = "where the demo makes its throw-away journal"
            + " directory (default: /dev/shm, in memory, when it has room; else the temporary directory)")
    private Path journals;

    @Option(names = "--replicate", description = "also run a Kafka broker, a shipper, a receiver into a second root and"
            + " a shadow engine (replay --follow) on that replica; print the replica's lag and the shadow's verdict")
    private boolean replicate;

    private static final Duration REPLICA_CATCH_UP_TIMEOUT = Duration.ofSeconds(120);

    private final PrintStream out = System.out;
    private volatile SluiceDeployment deployment;
    private volatile ReplicaSide replicaSide;
    private volatile MarketDataSide marketData;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new DemoMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final FixTransport fixTransport = FixTransport.parse(transport);
        final SluiceIdle idleChoice = SluiceIdle.parse(idle);
        final JournalPlace place = JournalPlace.of(journals);
        final Path root = Files.createTempDirectory(place.parent(), "sluice-demo");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopAndDelete(root), "demo-cleanup"));
        final SessionIdentity load1 = SessionIdentity.ofSluiceClient("LOAD1", PASSWORD);
        final SessionIdentity load2 = SessionIdentity.ofSluiceClient("LOAD2", PASSWORD);
        final SessionIdentity seeder = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        out.printf("Sluice demo: engine + 2 gateways (%s, idle: %s) + marketdata as child processes, under %s%n", fixTransport,
                idleChoice.label(), root);
        out.println("  " + place.describe());
        try (SluiceDeployment sluice = SluiceDeployment.start(root, List.of(
                new SluiceDeployment.GatewaySpec(1, fixTransport, List.of(load1, seeder)),
                new SluiceDeployment.GatewaySpec(2, fixTransport, List.of(load2))), idleChoice, List.of())) {
            deployment = sluice;
            out.printf("  engine    pid %d%n  gateway 1 pid %d on %s%n  gateway 2 pid %d on %s%n",
                    sluice.engine().pid(), sluice.gateway(1).pid(), sluice.endpoint(1),
                    sluice.gateway(2).pid(), sluice.endpoint(2));
            out.printf("  journals  %s (per-hop latency live, from another terminal: ./sluice tail --root %<s)%n",
                    sluice.journals());
            out.printf("  counters  ./sluice stat --root %s ; for Prometheus: ./sluice metrics --root %<s --port 9464%n",
                    sluice.journals());
            out.printf("  admin     ./sluice admin --root %s sessions (or halt SLC, kill-switch on, ...)%n", sluice.journals());
            marketData = MarketDataSide.start(root, sluice, nanoClock);
            out.println(marketData.describe());
            if (replicate) {
                replicaSide = ReplicaSide.start(root, sluice, nanoClock);
                out.println(replicaSide.describe());
            }
            try (LiquiditySeeder liquidity = StandardOrders.seeder(session(sluice.endpoint(1), seeder))) {
                liquidity.start(START_TIMEOUT);
                out.printf("  seeded %d resting sell orders of 1,000,000 %s at 100.00%n", StandardOrders.RESTING_ORDERS,
                        SluiceDeployment.SYMBOL);
                if (replicaSide != null) {
                    replicaSide.awaitFlowing(REPLICA_CATCH_UP_TIMEOUT);
                    out.println("  replication flows: the seeded orders are in the replica and the shadow agrees so far");
                }
                final int status = drive(sluice, load1, load2, liquidity);
                final int replicaStatus = replicaSide == null ? 0 : replicaSummary(sluice);
                if (status != 0 || replicaStatus != 0) {
                    System.err.println("the child processes' logs end with:\n" + sluice.logs(3_000)
                            + (replicaSide == null ? "" : replicaSide.logs(3_000)));
                }
                return status != 0 ? status : replicaStatus;
            } catch (final IOException e) {
                System.err.println("demo: " + e.getMessage());
                System.err.println("the child processes' logs end with:\n" + sluice.logs(3_000));
                return 1;
            }
        } catch (final IllegalStateException | IOException e) {
            out.flush();
            System.err.println("demo: " + e.getMessage());
            return 1;
        } finally {
            stopAndDelete(root);
        }
    }

    /** Stops the child processes (also on Ctrl-C, from a shutdown hook) and deletes the temporary root. */
    private synchronized void stopAndDelete(final Path root) {
        try {
            if (marketData != null) {
                marketData.close();
                marketData = null;
            }
            if (replicaSide != null) {
                replicaSide.close();
                replicaSide = null;
            }
            if (deployment != null) {
                deployment.close();
                deployment = null;
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (Files.exists(root)) {
            SluiceDeployment.deleteTree(root);
            out.println("stopped the processes and deleted " + root);
        }
    }

    /** @return a FIX client session on the demo's clocks */
    private FixClientSession session(final FixEndpoint endpoint, final SessionIdentity identity) {
        return new FixClientSession(endpoint, identity, nanoClock, epochClock);
    }

    private int drive(final SluiceDeployment sluice, final SessionIdentity load1, final SessionIdentity load2,
                      final LiquiditySeeder liquidity) throws IOException, InterruptedException {
        final Recorder recorder = OrderLoad.newRecorder();
        final long start = nanoClock.nanoTime();
        final long deadline = start + duration.toNanos();
        final Duration giveUpAfter = duration.plus(DRAIN_TIMEOUT);
        final List<LoadThread> loads = List.of(
                LoadThread.start(session(sluice.endpoint(1), load1), StandardOrders.BUY, window, perSession(rate / 2),
                        recorder, deadline, giveUpAfter),
                LoadThread.start(session(sluice.endpoint(2), load2), StandardOrders.BUY, window,
                        perSession(rate - rate / 2), recorder, deadline, giveUpAfter));
        out.printf("driving buy orders (10 at 100.00; %s) through both gateways for %d s%s%n",
                window == 1 ? "ping-pong: each session waits for ack + fill" : "window " + window + " per session",
                duration.toSeconds(), rate > 0 ? " at " + rate + " orders/s" : ", as fast as they come back");
        out.printf(Locale.ROOT, "%6s %10s %9s %9s %9s %9s %10s   round trip, µs%s; market data: %s top of book%n",
                "second", "orders/s", "p50", "p90", "p99", "p99.99", "max",
                replicaSide == null ? "" : "; replica: records behind Kafka's end, age of its newest record; shadow",
                SluiceDeployment.SYMBOL);

        final Histogram whole = new Histogram(3);
        final Histogram secondHalf = new Histogram(3);
        Histogram interval = null;
        int second = 0;
        while (loads.stream().anyMatch(LoadThread::isAlive)) {
            second++;
            final long tick = start + second * 1_000_000_000L;
            long now;
            while ((now = nanoClock.nanoTime()) - tick < 0 && loads.stream().anyMatch(LoadThread::isAlive)) {
                LockSupport.parkNanos(Math.min(tick - now, 20_000_000L));
            }
            interval = recorder.getIntervalHistogram(interval);
            whole.add(interval);
            if (second > duration.toSeconds() / 2) {
                secondHalf.add(interval);
            }
            printSecond(second, interval);
        }
        final double elapsedSeconds = (nanoClock.nanoTime() - start) / 1e9;
        interval = recorder.getIntervalHistogram(interval);
        whole.add(interval);
        secondHalf.add(interval);
        return summary(loads, whole, secondHalf, elapsedSeconds, liquidity);
    }

    private int summary(final List<LoadThread> loads, final Histogram whole, final Histogram secondHalf,
                        final double elapsedSeconds, final LiquiditySeeder liquidity) {
        out.println();
        out.printf(Locale.ROOT, "Summary: %,d orders in %.1f s = %,.0f orders/s through 2 gateways and 1 engine%n",
                whole.getTotalCount(), elapsedSeconds, whole.getTotalCount() / elapsedSeconds);
        final LatencyTable table = new LatencyTable(out, 14);
        table.header();
        table.rowNanos("whole run", whole);
        table.rowNanos("second half", secondHalf);
        out.println("(the first seconds include JIT warm-up; the second half is closer to steady state)");
        if (rate > 0 && whole.getTotalCount() / elapsedSeconds < rate * 0.95) {
            out.printf(Locale.ROOT, "(--rate %d was not reached: latency counts from each order's intended send time, so"
                    + " the backlog shows as latency; a larger --window lets each session keep more orders in flight)%n",
                    rate);
        }
        long filled = 0;
        int failures = 0;
        for (final LoadThread load : loads) {
            filled += load.filled();
            if (load.failure() != null) {
                failures++;
                System.err.println("demo: " + load.name() + ": " + load.failure());
            }
        }
        out.printf(Locale.ROOT, "fills: %,d of %,d orders; the resting sells saw %,d fills%n", filled,
                whole.getTotalCount(), liquidity.fillReports());
        if (liquidity.failure() != null) {
            failures++;
            System.err.println("demo: liquidity: " + liquidity.failure());
        }
        return failures == 0 && filled == whole.getTotalCount() ? 0 : 1;
    }

    private void printSecond(final int second, final Histogram interval) {
        out.printf(Locale.ROOT, "%6d %10d %9.1f %9.1f %9.1f %9.1f %10.1f%s   %s%n", second, interval.getTotalCount(),
                interval.getValueAtPercentile(50) / 1e3, interval.getValueAtPercentile(90) / 1e3,
                interval.getValueAtPercentile(99) / 1e3, interval.getValueAtPercentile(99.99) / 1e3,
                interval.getMaxValue() / 1e3, replicaSide == null ? "" : "   " + replicaSide.status(),
                marketData == null ? "" : marketData.status());
    }

    /** Waits for the replica to catch up and the shadow to follow it all: @return 0 if both are identical, else 1 */
    private int replicaSummary(final SluiceDeployment sluice) throws InterruptedException {
        out.println("waiting for the replica to catch up and the shadow to follow it ...");
        final ReplicaSide.Verdict verdict = replicaSide.finish(sluice.journals(), REPLICA_CATCH_UP_TIMEOUT);
        out.println("replica: " + verdict.replica().describe() + " (compared with the primary excerpt by excerpt)");
        out.println("shadow:  " + verdict.shadow());
        return verdict.passed() ? 0 : 1;
    }

    private long perSession(final long share) {
        return rate > 0 ? Math.max(1, share) : 0;
    }

}
