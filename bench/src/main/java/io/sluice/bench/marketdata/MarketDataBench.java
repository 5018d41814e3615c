package io.sluice.bench.marketdata;

import io.sluice.bench.engine.JournalDirectory;
import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.engine.load.RecordedEngine;
import io.sluice.marketdata.MarketDataAgents;
import io.sluice.marketdata.MarketDataConfig;
import io.sluice.marketdata.book.OrderBooks;
import io.sluice.marketdata.feed.MessageHandler;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.handler.BookListener;
import io.sluice.marketdata.handler.FeedHandler;
import io.sluice.marketdata.journal.BatchReader;
import io.sluice.marketdata.load.TwoInstrumentMarketData;
import io.sluice.marketdata.publish.FeedPublisher;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code ./sluice bench market-data}: what market data costs and how fast it goes, in one process, every part real.
 * <ul>
 * <li><b>Order-to-tick</b>, at a paced rate and flat out: a real engine (on the driving thread) writes its journal;
 *     the market-data agents (service, publisher, retransmission service) run on one thread, a feed handler on
 *     another, both with the backoff idle strategy. Three latencies from the engine's reportWriting stamp of each
 *     report: read by a plain tailer of the engine journal (the engine hop every gateway makes: the baseline, same
 *     run), its feed message handed to the kernel in a UDP packet, and that message applied to the handler's book.
 *     What the feed adds to the engine hop is the handler's p50 less the tailer's.</li>
 * <li><b>Offline rebuild</b>: the feed handler's books rebuilt from the market-data journal of that run, eight times,
 *     the median of the last five in messages per second.</li>
 * <li><b>Burst</b>: that journal's batches appended to a fresh journal at a paced message rate (500,000/s by
 *     default) while a publisher sends them and a handler on another thread applies them; the gaps it had to ask
 *     for say whether it kept up.</li>
 * <li><b>Allocation</b>: the market-data agents and a handler in a child JVM under Epsilon GC (as the gate test),
 *     bytes per message in two stretches.</li>
 * </ul>
 */
@Command(name = "market-data", mixinStandardHelpOptions = true,
        description = "Market data: order-to-tick at a rate and flat out, offline rebuild, a burst, allocation.")
public final class MarketDataBench implements Callable<Integer> {
    @Option(names = "--commands", description = "engine commands per order-to-tick phase (default ${DEFAULT-VALUE})")
    private long commands = 100_000;

    @Option(names = "--warmup", description = "engine commands before each order-to-tick phase is measured"
            + " (default ${DEFAULT-VALUE})")
    private long warmup = 30_000;

    @Option(names = "--rate", description = "the paced phase's engine commands per second (default ${DEFAULT-VALUE})")
    private long rate = 10_000;

    @Option(names = "--burst-rate", description = "messages per second of the burst (default ${DEFAULT-VALUE})")
    private long burstRate = 500_000;

    @Option(names = "--alloc-commands", description = "engine commands per allocation stretch (default ${DEFAULT-VALUE})")
    private long allocCommands = 100_000;

    @CommandLine.Mixin
    private JournalDirectory journals;

    public static void main(final String[] args) {
        final int code = new CommandLine(new MarketDataBench()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        return journals.use("sluice-market-data", root -> {
            final BenchResult result = BenchResult.of("market-data").put("commandsPerPhase", commands)
                    .put("idle", "backoff").put("loadAverage", loadAverage());
            final Path live = root.resolve("live");
            try (RecordedEngine engine = new RecordedEngine(live, 61)) {
                final MarketDataConfig base = TwoInstrumentMarketData.config(live, "127.0.0.1:9").checksumEvery(1_000);
                result.put("paced", orderToTick(engine, base, live, rate, "paced at " + rate + " commands/s"));
                result.put("flatOut", orderToTick(engine, base, live, 0, "flat out"));
            }
            result.put("rebuild", rebuild(live));
            result.put("burst", burst(live, root.resolve("burst")));
            result.put("allocation", allocation(root.resolve("alloc")));
            result.put("loadAverageAfter", loadAverage());
            System.out.println("wrote " + result.write(BenchResult.resultsDir()));
            return 0;
        });
    }

    private BenchResult orderToTick(final RecordedEngine engine, final MarketDataConfig base, final Path root,
                                    final long commandsPerSecond, final String label) throws Exception {
        final Recorder hop = new Recorder(3);
        final Recorder sent = new Recorder(3);
        final Recorder applied = new Recorder(3);
        final BookListener onApplied = new BookListener() {
            @Override
            public void onApplied(final long sequence, final long reportWritingTicks) {
                applied.recordValue(ticksToNanos(SluiceClock.nowTicks() - reportWritingTicks));
            }
        };
        try (FeedHandler handler = new FeedHandler(base.sessionBytes(), base.symbols(), TradingStatus.OPEN, 1 << 20, 4_096,
                new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", 9), null, 16_384, SystemNanoClock.INSTANCE)) {
            final MarketDataConfig config = base.incremental(List.of("127.0.0.1:" + handler.incrementalAddress().getPort()))
                    .snapshot(List.of("127.0.0.1:" + handler.snapshotAddress().getPort())).retransmit("127.0.0.1:0")
                    .idle(IdleConfig.of("backoff"));
            handler.listener(onApplied);
            final MarketDataAgents marketData = new MarketDataAgents(config, (reportWriting, sentTicks) ->
                    sent.recordValue(ticksToNanos(sentTicks - reportWriting)), SystemNanoClock.INSTANCE);
            final EngineHop tailer = new EngineHop(root, hop);
            final AgentThread mdThread = AgentThread.start(marketData, IdleConfig.of("backoff").newStrategy(),
                    CpuPinning.NONE, AgentThread.Priority.NORMAL);
            final AgentThread handlerThread = AgentThread.start(handler, IdleConfig.of("backoff").newStrategy(),
                    CpuPinning.NONE, AgentThread.Priority.NORMAL);
            final AgentThread hopThread = AgentThread.start(tailer, IdleConfig.of("backoff").newStrategy(),
                    CpuPinning.NONE, AgentThread.Priority.NORMAL);
            try {
                drive(engine, warmup, commandsPerSecond);
                awaitHandler(handler, marketData);
                hop.reset();
                sent.reset();
                applied.reset();
                final long start = System.nanoTime();
                drive(engine, commands, commandsPerSecond);
                final double seconds = (System.nanoTime() - start) / 1e9;
                awaitHandler(handler, marketData);
                final Histogram hopHistogram = hop.getIntervalHistogram();
                final Histogram sentHistogram = sent.getIntervalHistogram();
                final Histogram appliedHistogram = applied.getIntervalHistogram();
                final double added = (appliedHistogram.getValueAtPercentile(50) - hopHistogram.getValueAtPercentile(50)) / 1e3;
                System.out.printf(Locale.ROOT, "order-to-tick %s: %,d commands in %.1f s, %,d feed messages applied"
                                + " after a warm-up of %,d (load %s)%n", label, commands, seconds,
                                        appliedHistogram.getTotalCount(), warmup, loadAverage());
                print("engine report -> engine journal tailer (baseline)", hopHistogram);
                print("engine report -> feed packet sent", sentHistogram);
                print("engine report -> feed handler's book", appliedHistogram);
                System.out.printf(Locale.ROOT, "  the feed adds %.1f µs p50 to the engine hop (target: at most 20)%n", added);
                return BenchResult.section().put("commandsPerSecondTarget", commandsPerSecond)
                        .put("commandsPerSecond", commands / seconds).put("messages", appliedHistogram.getTotalCount())
                        .put("handlerGaps", handler.gaps()).put("feedAddsP50Us", added)
                        .putLatencyNanos("engineHop", hopHistogram).putLatencyNanos("packetSent", sentHistogram)
                        .putLatencyNanos("bookUpdated", appliedHistogram);
            } finally {
                hopThread.close(5, TimeUnit.SECONDS);
                handlerThread.close(5, TimeUnit.SECONDS);
                mdThread.close(5, TimeUnit.SECONDS);
            }
        }
    }

    private static void drive(final RecordedEngine engine, final long count, final long perSecond) {
        final long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            if (perSecond > 0) {
                // Parked, not spinning, while the next command is further off than a park's overshoot: a spinning
                // driver would take one of the two cores from the threads measured.
                final long due = start + i * 1_000_000_000L / perSecond;
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    if (wait > 60_000) {
                        LockSupport.parkNanos(wait - 50_000);
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }
            engine.trade(1, 9_973);
        }
    }

    private static void awaitHandler(final FeedHandler handler, final MarketDataAgents marketData) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        long last = -1;
        while (System.nanoTime() - deadline < 0) {
            final long next = marketData.nextSequence();
            if (next == last && handler.state() == FeedHandler.State.LIVE && handler.expected() == next) {
                return;
            }
            last = next;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        throw new IllegalStateException("the feed handler did not catch up in 120 s: " + handler.state() + " at "
                + handler.expected() + ", gaps " + handler.gaps());
    }

    private static BenchResult rebuild(final Path root) {
        final double[] rates = new double[8];
        long messages = 0;
        for (int run = 0; run < rates.length; run++) {
            final OrderBooks books = new OrderBooks(TwoInstrumentMarketData.config(root, "127.0.0.1:9").symbols(),
                    TradingStatus.OPEN, 1 << 20, 4_096);
            final long[] count = {0};
            final MessageHandler apply = (buffer, offset, length) -> {
                books.apply(buffer, offset);
                count[0]++;
            };
            final long start = System.nanoTime();
            try (ChronicleQueue journal = Journals.openReadOnly(Journals.marketDataJournal(root));
                 ExcerptTailer tailer = journal.createTailer()) {
                final BatchReader reader = new BatchReader(journal, tailer);
                while (reader.readOne((engineIndex, first, n, blocks, length) -> MessageHandler.forEach(blocks, 0, length, apply))) {
                    // every batch
                }
            }
            rates[run] = count[0] / ((System.nanoTime() - start) / 1e9);
            messages = count[0];
        }
        final double[] measured = Arrays.copyOfRange(rates, 3, rates.length);
        Arrays.sort(measured);
        System.out.printf(Locale.ROOT, "offline rebuild: %,d messages, median of the 5 runs after 3 warm-up runs"
                + " %,.0f messages/s (all runs %s; target at least 5 M/s; load %s)%n", messages, measured[2],
                Arrays.toString(Arrays.stream(rates).mapToLong(Math::round).toArray()), loadAverage());
        return BenchResult.section().put("messages", messages).put("medianMessagesPerSecond", measured[2])
                .put("runs", Arrays.stream(rates).boxed().toList()).put("warmUpRuns", 3);
    }

    private BenchResult burst(final Path recorded, final Path root) throws Exception {
        final MarketDataConfig base = TwoInstrumentMarketData.config(root, "127.0.0.1:9");
        try (FeedHandler handler = new FeedHandler(base.sessionBytes(), base.symbols(), TradingStatus.OPEN, 1 << 20, 4_096,
                new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", 9), null, 16_384, SystemNanoClock.INSTANCE);
             ChronicleQueue source = Journals.openReadOnly(Journals.marketDataJournal(recorded));
             ChronicleQueue target = Journals.open(Journals.marketDataJournal(root))) {
            final MarketDataConfig config = base.incremental(List.of("127.0.0.1:" + handler.incrementalAddress().getPort()))
                    .snapshot(List.of("127.0.0.1:" + handler.snapshotAddress().getPort())).snapshotIntervalMillis(3_600_000);
            final AgentThread handlerThread = AgentThread.start(handler, IdleConfig.of("backoff").newStrategy(),
                    CpuPinning.NONE, AgentThread.Priority.NORMAL);
            final AgentThread publisherThread = AgentThread.start(new PublisherOnItsThread(config, target),
                    IdleConfig.of("backoff").newStrategy(), CpuPinning.NONE, AgentThread.Priority.NORMAL);
            try {
                while (handler.state() != FeedHandler.State.LIVE) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                long copied = 0;
                final long start = System.nanoTime();
                try (ExcerptTailer tailer = source.createTailer(); ExcerptAppender appender = target.createAppender()) {
                    final Bytes<?> copy = Bytes.allocateElasticDirect(64 * 1024);
                    while (true) {
                        final int count;
                        try (DocumentContext dc = tailer.readingDocument()) {
                            if (!dc.isPresent()) {
                                break;
                            }
                            copy.clear();
                            copy.write(dc.wire().bytes());
                            count = copy.readInt(copy.readPosition() + 16);
                        }
                        final long due = start + copied * 1_000_000_000L / burstRate;
                        while (System.nanoTime() - due < 0) {
                            Thread.onSpinWait();
                        }
                        try (DocumentContext dc = appender.writingDocument()) {
                            dc.wire().bytes().write(copy);
                        }
                        copied += count;
                    }
                    copy.releaseLast();
                }
                final double seconds = (System.nanoTime() - start) / 1e9;
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (handler.expected() <= copied && System.nanoTime() - deadline < 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                System.out.printf(Locale.ROOT, "burst: %,d messages appended in %.2f s = %,.0f messages/s (target %,d);"
                                + " the handler applied up to %,d with %d gaps and %d retransmission requests (load %s)%n",
                        copied, seconds, copied / seconds, burstRate, handler.expected() - 1, handler.gaps(),
                        handler.requests(), loadAverage());
                return BenchResult.section().put("messages", copied).put("messagesPerSecond", copied / seconds)
                        .put("targetMessagesPerSecond", burstRate).put("handlerApplied", handler.expected() - 1)
                        .put("gaps", handler.gaps()).put("retransmissionRequests", handler.requests());
            } finally {
                publisherThread.close(5, TimeUnit.SECONDS);
                handlerThread.close(5, TimeUnit.SECONDS);
            }
        }
    }

    private BenchResult allocation(final Path dir) throws Exception {
        try (JavaProcess child = JavaProcess.start("marketdata-alloc", dir.resolve("child.log"),
                List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xms1g", "-Xmx1g"),
                MarketDataAllocationRun.class, dir.resolve("root").toString(), Long.toString(allocCommands))) {
            final int exit = child.waitFor(1_200);
            final List<String> stretches = child.logText().lines()
                    .filter(line -> line.startsWith(MarketDataAllocationRun.STRETCH)).toList();
            stretches.forEach(line -> System.out.println("allocation (Epsilon GC) " + line));
            if (exit != 0) {
                System.out.println(child.logText());
            }
            return BenchResult.section().put("gc", "Epsilon").put("commandsPerStretch", allocCommands)
                    .put("stretches", stretches).put("exit", exit);
        }
    }

    private static void print(final String label, final Histogram histogram) {
        System.out.printf(Locale.ROOT, "  %-50s p50 %8.1f  p99 %8.1f  p99.9 %8.1f  max %9.1f µs (%,d)%n", label,
                histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
                histogram.getValueAtPercentile(99.9) / 1e3, histogram.getMaxValue() / 1e3, histogram.getTotalCount());
    }

    private static long ticksToNanos(final long ticks) {
        return Math.max(0, ticks * 100);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (final IOException e) {
            return "unknown";
        }
    }

    /** A publisher of a journal someone else appends to, built on its own thread. */
    private static final class PublisherOnItsThread implements Agent {
        private final MarketDataConfig config;
        private final ChronicleQueue journal;
        private FeedPublisher publisher;

        PublisherOnItsThread(final MarketDataConfig config, final ChronicleQueue journal) {
            this.config = config;
            this.journal = journal;
        }

        @Override
        public void onStart() {
            publisher = new FeedPublisher(config, journal, SystemNanoClock.INSTANCE);
        }

        @Override
        public int doWork() {
            return publisher.doWork();
        }

        @Override
        public void onClose() {
            publisher.close();
        }

        @Override
        public String roleName() {
            return "marketdata-publisher";
        }
    }

    /** The baseline: a plain tailer of the engine journal, as a gateway's, timing each report from its stamp. */
    private static final class EngineHop extends NoOpEngineToGateway implements Agent {
        private final Path root;
        private final Recorder recorder;
        private ChronicleQueue journal;
        private ExcerptTailer tailer;
        private JournalReader reader;

        EngineHop(final Path root, final Recorder recorder) {
            this.root = root;
            this.recorder = recorder;
        }

        @Override
        public void onStart() {
            journal = Journals.open(Journals.engineJournal(root));
            tailer = journal.createTailer().toEnd();
            reader = new JournalReader(journal, tailer, this);
        }

        @Override
        public int doWork() {
            int read = 0;
            while (read < 64 && reader.readOne()) {
                read++;
            }
            return read;
        }

        @Override
        public void executionReport(final ExecutionReport report) {
            recorder.recordValue(ticksToNanos(SluiceClock.nowTicks() - report.metaData().reportWriting()));
        }

        @Override
        public void onClose() {
            reader.close();
            tailer.close();
            journal.close();
        }

        @Override
        public String roleName() {
            return "engine-hop";
        }
    }
}
