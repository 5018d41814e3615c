package io.sluice.bench.fix;

import io.sluice.bench.report.BenchResult;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;
import io.sluice.tools.fix.Watchdog;
import org.HdrHistogram.Recorder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench fix-zero-alloc}: proves from the outside that a gateway allocates nothing per order. The
 * gateway runs under the Epsilon collector (which never frees, so a gateway that allocated per order would
 * run out of heap) without TLABs (so the heap's used size counts every byte exactly); after a warm-up, the
 * load client pipelines millions of orders through it and the engine, and the growth of the gateway's heap
 * over the measured orders, read with {@code jcmd}, gives the bytes allocated per order by the whole gateway
 * process, every thread included.
 */
@Command(name = "./sluice bench fix-zero-alloc", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Orders through a gateway running under Epsilon GC: bytes allocated per order by the whole gateway.")
public final class FixAllocationBenchmark implements Callable<Integer> {
    private static final String PASSWORD = "bench";

    @Option(names = "--orders", description = "measured orders (default ${DEFAULT-VALUE})")
    private long orders = 5_000_000;

    @Option(names = "--warmup", description = "warm-up orders before the first heap reading (default ${DEFAULT-VALUE})")
    private long warmup = 200_000;

    @Option(names = "--window", description = "most orders outstanding at once (default ${DEFAULT-VALUE})")
    private int window = 64;

    @Option(names = "--transport", description = "tcp or uds (default ${DEFAULT-VALUE})")
    private String transport = "tcp";

    @Option(names = "--heap", description = "the gateway's Epsilon heap, e.g. 2g (default ${DEFAULT-VALUE})")
    private String heap = "2g";

    @Option(names = "--run-timeout", description = "seconds the measured run may take (default ${DEFAULT-VALUE})")
    private long runTimeoutSeconds = 3_600;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new FixAllocationBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Path root = Files.createTempDirectory("sluice-zero-alloc");
        final SessionIdentity load = SessionIdentity.ofSluiceClient("LOAD1", PASSWORD);
        final SessionIdentity seeder = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        final List<String> epsilon = List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
                "-XX:-UseTLAB", "-Xms" + heap, "-Xmx" + heap);
        System.out.printf("starting Sluice (engine + 1 gateway under %s) under %s ...%n", epsilon, root);
        try (SluiceDeployment sluice = SluiceDeployment.start(root, List.of(new SluiceDeployment.GatewaySpec(1,
                FixTransport.parse(transport), List.of(load, seeder))), SluiceIdle.BACKOFF, epsilon);
             LiquiditySeeder liquidity = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seeder));
             FixClientSession session = new FixClientSession(sluice.endpoint(1), load)) {
            liquidity.start(Duration.ofSeconds(60));
            session.logon(Duration.ofSeconds(60));
            final long gateway = sluice.gateway(1).pid();
            final Recorder latencies = OrderLoad.newRecorder();
            final OrderLoad orderLoad = new OrderLoad(session, StandardOrders.BUY, window, 1, latencies);
            System.out.printf("%,d warm-up orders (window %d) ...%n", warmup, window);
            run(orderLoad, session, warmup, sluice);
            final long before = EpsilonHeap.usedBytes(gateway);
            System.out.printf("%,d measured orders; the gateway's heap holds %,d bytes ...%n", orders, before);
            final long start = System.nanoTime();
            run(orderLoad, session, orders, sluice);
            final double seconds = (System.nanoTime() - start) / 1e9;
            final long after = EpsilonHeap.usedBytes(gateway);
            final double perOrder = (double) (after - before) / orders;
            System.out.printf(Locale.ROOT, "%n%,d orders in %.1f s (%,.0f orders/s) through a gateway under Epsilon GC:"
                    + " its heap grew by %,d bytes = %.4f bytes per order (whole gateway process, every thread)%n",
                    orders, seconds, orders / seconds, after - before, perOrder);
            final Path file = BenchResult.of("fix-zero-alloc")
                    .put("transport", transport).put("window", window).put("warmup", warmup).put("orders", orders)
                    .put("gatewayJvm", String.join(" ", epsilon))
                    .put("ordersPerSecond", orders / seconds)
                    .put("gatewayHeapBeforeBytes", before).put("gatewayHeapAfterBytes", after)
                    .put("gatewayBytesPerOrder", perOrder)
                    .putLatencyNanos("roundTrip", latencies.getIntervalHistogram())
                    .write(BenchResult.resultsDir());
            System.out.println("JSON: " + file);
            return 0;
        } finally {
            SluiceDeployment.deleteTree(root);
        }
    }

    private void run(final OrderLoad orderLoad, final FixClientSession session, final long count,
                     final SluiceDeployment sluice) throws IOException {
        final long completedBefore = orderLoad.completed();
        try (Watchdog ignored = Watchdog.closeAfter(Duration.ofSeconds(runTimeoutSeconds + 10), session)) {
            orderLoad.run(count, System.nanoTime() + Duration.ofSeconds(runTimeoutSeconds).toNanos());
        }
        final long done = orderLoad.completed() - completedBefore;
        if (done != count || orderLoad.rejected() > 0) {
            throw new IOException("only " + done + " of " + count + " orders finished (" + orderLoad.rejected()
                    + " rejected" + (orderLoad.firstRejectText() != null ? ": " + orderLoad.firstRejectText() : "")
                    + "); a gateway that allocates dies of an exhausted Epsilon heap. Logs:\n" + sluice.logs(3_000));
        }
    }
}
