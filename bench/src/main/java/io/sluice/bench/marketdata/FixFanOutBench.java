package io.sluice.bench.marketdata;

import io.sluice.bench.engine.JournalDirectory;
import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.GatewayAgent;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.GatewayContext;
import io.sluice.gateway.GatewayMarketData;
import io.sluice.gateway.MarketDataEntitlement;
import io.sluice.gateway.SessionConfig;
import io.sluice.marketdata.load.SyntheticFeed;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.CpuPinning;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code ./sluice bench fix-fan-out}: FIX market data fanned out by one gateway to N subscribers, each a real TCP
 * connection. The bench appends batches of one feed message to the market-data journal at a paced rate (a bid added,
 * then deleted: every message changes a level) and times each from its append to its MarketDataIncrementalRefresh
 * (35=X, matched by RptSeq) read by each subscriber, on one reader thread polling every socket. Phases of 1, 10 and 50
 * subscribers (by default) in the same run: the first is the baseline. A subscriber that falls behind is conflated
 * (its X replaced by a snapshot W, counted as delivered when it arrives): the messages each got are reported.
 * Then the order path beside the fan-out ({@link OrderPathBesideFanOut}): a trading session's round trip through a
 * whole deployment with 50 subscribers (by default) against none, arms taking turns in the same run; the subscribers on
 * the trading sessions' gateway or on one of their own ({@code --subscribers-on}).
 */
@Command(name = "fix-fan-out", mixinStandardHelpOptions = true,
        description = "FIX market data: tick (journal append) to subscriber (35=X read) with N subscribers; then an"
                + " order round trip with N subscribers against none, in the same run.")
public final class FixFanOutBench implements Callable<Integer> {
    private static final String SYMBOL = "SLC";

    @Option(names = "--subscribers", split = ",", description = "subscribers per phase (default ${DEFAULT-VALUE})")
    private List<Integer> subscribers = List.of(1, 10, 50);

    @Option(names = "--messages", description = "measured messages per phase (default ${DEFAULT-VALUE})")
    private int messages = 20_000;

    @Option(names = "--warmup", description = "messages before each phase is measured (default ${DEFAULT-VALUE})")
    private int warmup = 20_000;

    @Option(names = "--rate", description = "messages per second (default ${DEFAULT-VALUE})")
    private int rate = 5_000;

    @Option(names = "--order-path-subscribers", description = "subscribers beside the order path, measured against"
            + " none in the same run; 0: not measured (default ${DEFAULT-VALUE})")
    private int orderPathSubscribers = 50;

    @Option(names = "--subscribers-on", description = "the gateway the order path's subscribers log on to: the trading"
            + " sessions' (order-gateway) or one of their own (own-gateway); the phases' gateway has subscribers only"
            + " (default ${DEFAULT-VALUE})")
    private SubscriberGateway subscribersOn = SubscriberGateway.ORDER_GATEWAY;

    @Option(names = "--order-path-warmup", description = "warm-up orders per arm (default ${DEFAULT-VALUE})")
    private long orderPathWarmup = 20_000;

    @Option(names = "--order-path-orders", description = "measured orders per arm (default ${DEFAULT-VALUE})")
    private long orderPathOrders = 20_000;

    @Option(names = "--order-path-rounds", description = "slices the measured orders go out in, arms taking turns"
            + " (default ${DEFAULT-VALUE})")
    private int orderPathRounds = 10;

    @Option(names = "--write-interval", description = "the gateway's marketData.writeInterval: how often a subscriber's"
            + " socket is written, at most (default ${DEFAULT-VALUE})")
    private String writeInterval = "1ms";

    @Option(names = "--max-writes-per-second", description = "the gateway's marketData.maxWritesPerSecond: socket"
            + " writes a second all subscribers share (default ${DEFAULT-VALUE})")
    private int maxWritesPerSecond = new GatewayMarketData().maxWritesPerSecond();

    @Option(names = "--window", description = "the trading session's orders in flight (default ${DEFAULT-VALUE})")
    private int window = 1;

    @CommandLine.Mixin
    private JournalDirectory journals;

    public static void main(final String[] args) {
        final int code = new CommandLine(new FixFanOutBench()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        return journals.use("sluice-fix-fan-out", root -> {
            final BenchResult result = BenchResult.of("fix-fan-out").put("messagesPerPhase", messages)
                    .put("warmupPerPhase", warmup).put("messagesPerSecond", rate).put("idle", "backoff")
                    .put("writeInterval", writeInterval).put("maxWritesPerSecond", maxWritesPerSecond)
                    .put("loadAverage", loadAverage());
            for (final int count : subscribers) {
                result.put("subscribers" + count, phase(root.resolve("n" + count), count));
            }
            if (orderPathSubscribers > 0) {
                result.put("orderPath", OrderPathBesideFanOut.measure(subscribersOn, orderPathSubscribers, window,
                        orderPathWarmup, orderPathOrders, orderPathRounds, "writeInterval: " + writeInterval
                        + ", maxWritesPerSecond: " + maxWritesPerSecond));
            }
            result.put("loadAverageAfter", loadAverage());
            System.out.println("wrote " + result.write(BenchResult.resultsDir()));
            return 0;
        });
    }

    private BenchResult phase(final Path root, final int count) throws Exception {
        Files.createDirectories(root);
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root).listen("tcp://127.0.0.1:0")
                .idle(IdleConfig.of("backoff")).counters(false)
                .maxConnectionsPerAddress(count + 8)
                .marketData(new GatewayMarketData(List.of(SYMBOL), "60s").writeInterval(writeInterval)
                        .maxWritesPerSecond(maxWritesPerSecond));
        config.preLogonBuffersPerAddress(Math.min(count + 8, config.preLogonBuffers())); // every subscriber logs on
        for (int i = 0; i < count; i++) {
            config.session(new SessionConfig("SUB" + i, "SLUICE", "pw")
                    .marketData(new MarketDataEntitlement(List.of(SYMBOL), 1)));
        }
        final int total = warmup + messages;
        final long[] appendNanos = new long[total + 2];
        try (ChronicleQueue journal = Journals.open(Journals.marketDataJournal(root))) {
            final SyntheticFeed feed = new SyntheticFeed(journal.createAppender(), SYMBOL);
            final CompletableFuture<SocketAddress> listening = new CompletableFuture<>();
            final AgentThread gateway = AgentThread.start(new GatewayAgent(new GatewayContext().config(config),
                    started -> listening.complete(started.localAddress())), config.idle().newStrategy(),
                    CpuPinning.NONE, AgentThread.Priority.NORMAL);
            final List<FanOutSubscriber> subs = new ArrayList<>();
            try {
                final SocketAddress address = listening.get(60, TimeUnit.SECONDS);
                for (int i = 0; i < count; i++) {
                    final FanOutSubscriber sub = FanOutSubscriber.logOn(address, "SUB" + i, false, "pw", SYMBOL);
                    sub.subscribe();
                    subs.add(sub);
                }
                final long firstSequence = feed.sequence();
                final long lastSequence = firstSequence + total - 1;
                final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
                final long measuredFrom = firstSequence + warmup;
                final Thread reader = Thread.ofPlatform().name("fan-out-reader").start(() ->
                        read(subs, appendNanos, firstSequence, measuredFrom, lastSequence, latency));
                final long period = TimeUnit.SECONDS.toNanos(1) / rate;
                final long start = System.nanoTime();
                for (int i = 0; i < total; i++) {
                    final long due = start + i * period;
                    while (System.nanoTime() < due) {
                        LockSupport.parkNanos(Math.max(1_000, (due - System.nanoTime()) / 2));
                    }
                    appendNanos[i] = System.nanoTime();
                    feed.next();
                }
                reader.join(TimeUnit.SECONDS.toMillis(120));
                long delivered = 0;
                long snapshots = 0;
                for (final FanOutSubscriber sub : subs) {
                    delivered += sub.measuredIncrementals();
                    snapshots += sub.measuredSnapshots();
                }
                final BenchResult section = BenchResult.section().put("subscribers", count)
                        .put("incrementalsExpected", (long) count * messages).put("incrementalsDelivered", delivered)
                        .put("snapshotsAfterConflation", snapshots).putLatencyNanos("tickToSubscriber", latency);
                System.out.printf("%d subscribers: tick to subscriber p50 %.1f µs, p99 %.1f µs, p99.9 %.1f µs;"
                                + " %,d of %,d incrementals delivered, %d snapshots after conflation%n", count,
                        latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
                        latency.getValueAtPercentile(99.9) / 1e3, delivered, (long) count * messages, snapshots);
                return section;
            } finally {
                for (final FanOutSubscriber sub : subs) {
                    sub.channel().close();
                }
                gateway.close(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Reads every subscriber's socket until each has seen the last sequence, timing the measured messages. */
    private static void read(final List<FanOutSubscriber> subs, final long[] appendNanos, final long firstSequence,
                             final long measuredFrom, final long lastSequence, final Histogram latency) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        int done = 0;
        try {
            while (done < subs.size() && System.nanoTime() < deadline) {
                for (final FanOutSubscriber sub : subs) {
                    if (sub.lastSeen() >= lastSequence) {
                        continue;
                    }
                    sub.poll(appendNanos, firstSequence, measuredFrom, latency);
                    if (sub.lastSeen() >= lastSequence) {
                        done++;
                    }
                }
            }
        } catch (final IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (final IOException e) {
            return "unknown";
        }
    }
}
