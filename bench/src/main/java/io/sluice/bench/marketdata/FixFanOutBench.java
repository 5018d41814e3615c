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
import io.sluice.marketdata.SyntheticFeed;
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
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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
 */
@Command(name = "fix-fan-out", mixinStandardHelpOptions = true,
        description = "FIX market data: tick (journal append) to subscriber (35=X read) with N subscribers.")
public final class FixFanOutBench implements Callable<Integer> {
    private static final String SYMBOL = "SLC";
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    @Option(names = "--subscribers", split = ",", description = "subscribers per phase (default ${DEFAULT-VALUE})")
    private List<Integer> subscribers = List.of(1, 10, 50);

    @Option(names = "--messages", description = "measured messages per phase (default ${DEFAULT-VALUE})")
    private int messages = 20_000;

    @Option(names = "--warmup", description = "messages before each phase is measured (default ${DEFAULT-VALUE})")
    private int warmup = 20_000;

    @Option(names = "--rate", description = "messages per second (default ${DEFAULT-VALUE})")
    private int rate = 5_000;

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
                    .put("loadAverage", loadAverage());
            for (final int count : subscribers) {
                result.put("subscribers" + count, phase(root.resolve("n" + count), count));
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
                .marketData(new GatewayMarketData(List.of(SYMBOL), "60s"));
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
            final List<Subscriber> subs = new ArrayList<>();
            try {
                final SocketAddress address = listening.get(60, TimeUnit.SECONDS);
                for (int i = 0; i < count; i++) {
                    subs.add(Subscriber.subscribe(address, "SUB" + i));
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
                for (final Subscriber sub : subs) {
                    delivered += sub.incrementals;
                    snapshots += sub.snapshots;
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
                for (final Subscriber sub : subs) {
                    sub.channel.close();
                }
                gateway.close(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Reads every subscriber's socket until each has seen the last sequence, timing the measured messages. */
    private static void read(final List<Subscriber> subs, final long[] appendNanos, final long firstSequence,
                             final long measuredFrom, final long lastSequence, final Histogram latency) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        int done = 0;
        try {
            while (done < subs.size() && System.nanoTime() < deadline) {
                for (final Subscriber sub : subs) {
                    if (sub.lastSeen >= lastSequence) {
                        continue;
                    }
                    sub.poll(appendNanos, firstSequence, measuredFrom, latency);
                    if (sub.lastSeen >= lastSequence) {
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

    /** One subscriber's connection: finds each message's MsgType and RptSeq as the bytes come, across reads. */
    private static final class Subscriber {
        private static final byte SOH = 1;
        private final SocketChannel channel;
        private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
        private int tag;
        private long value;
        private boolean inValue;
        private byte msgType;
        private long lastSeen;
        private long incrementals;
        private long snapshots;

        private Subscriber(final SocketChannel channel) {
            this.channel = channel;
        }

        static Subscriber subscribe(final SocketAddress address, final String compId) throws IOException {
            final SocketChannel channel = SocketChannel.open(address);
            channel.socket().setTcpNoDelay(true);
            send(channel, "35=A|34=1|49=" + compId + "|56=SLUICE|52=" + now() + "|98=0|108=30|554=pw|");
            send(channel, "35=V|34=2|49=" + compId + "|56=SLUICE|52=" + now() + "|262=" + compId
                    + "|263=1|264=0|267=1|269=0|146=1|55=" + SYMBOL + "|");
            channel.configureBlocking(false);
            return new Subscriber(channel);
        }

        void poll(final long[] appendNanos, final long firstSequence, final long measuredFrom,
                  final Histogram latency) throws IOException {
            in.clear();
            final int read = channel.read(in);
            if (read < 0) {
                throw new IOException("the gateway closed a subscriber");
            }
            final long now = System.nanoTime();
            for (int i = 0; i < read; i++) {
                final byte b = in.get(i);
                if (b == SOH) {
                    onField(appendNanos, firstSequence, measuredFrom, latency, now);
                    tag = 0;
                    value = 0;
                    inValue = false;
                } else if (b == '=' && !inValue) {
                    inValue = true;
                } else if (!inValue) {
                    tag = tag * 10 + (b - '0');
                } else if (tag == 35) {
                    msgType = b;
                } else if (tag == 83) {
                    value = value * 10 + (b - '0');
                }
            }
        }

        private void onField(final long[] appendNanos, final long firstSequence, final long measuredFrom,
                             final Histogram latency, final long now) {
            if (tag != 83 || msgType != 'X' && msgType != 'W') {
                return;
            }
            final long sequence = value;
            if (sequence <= lastSeen) {
                return;
            }
            lastSeen = sequence;
            if (sequence >= measuredFrom) {
                if (msgType == 'X') {
                    incrementals++;
                } else {
                    snapshots++;
                }
                latency.recordValue(Math.min(latency.getHighestTrackableValue(),
                        Math.max(0, now - appendNanos[(int) (sequence - firstSequence)])));
            }
        }

        private static void send(final SocketChannel channel, final String body) throws IOException {
            final String soh = body.replace('|', '\u0001');
            final String head = "8=FIX.4.4\u00019=" + soh.length() + "\u0001";
            int sum = 0;
            for (final byte b : (head + soh).getBytes(StandardCharsets.US_ASCII)) {
                sum += b;
            }
            final String message = head + soh + "10=" + String.format("%03d", sum & 0xFF) + "\u0001";
            final ByteBuffer out = ByteBuffer.wrap(message.getBytes(StandardCharsets.US_ASCII));
            while (out.hasRemaining()) {
                channel.write(out);
            }
        }

        private static String now() {
            return UTC.format(Instant.now());
        }
    }
}
