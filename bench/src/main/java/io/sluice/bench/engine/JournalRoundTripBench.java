package io.sluice.bench.engine;

import io.sluice.bench.IdleOption;
import io.sluice.bench.report.BenchResult;
import io.sluice.bench.report.ThroughputSampler;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.load.MixedOrderFlow;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.tools.report.LatencyTable;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.agrona.concurrent.IdleStrategy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ./sluice bench journal-round-trip [--orders N] [--window W] [--rate R]}: the round trip Chronicle's 2013
 * gateway/engine demo measured, without FIX. Two gateway threads each send commands into their own journal
 * (keeping at most {@code window} unanswered) while reading the engine journal for their reports; the
 * engine runs on a third thread. Latency per command, from MetaData: commandWriting to the gateway reading
 * the first report for it, split into the hops in (command written → engine read) and out (report written
 * → gateway read). Figures exclude the first 10 % of each gateway's commands (warm-up). The engine's and the
 * gateways' idle strategies are options: on 2 cores at most one of the three threads should spin.
 */
@Command(name = "journal-round-trip", mixinStandardHelpOptions = true,
        description = "Two gateway threads -> journals -> engine -> journal -> gateways: rate and latency.")
public final class JournalRoundTripBench implements Callable<Integer> {
    @Option(names = "--orders", description = "commands per gateway (default ${DEFAULT-VALUE})")
    private long orders = 10_000_000;

    @Option(names = "--window", description = "most unanswered commands per gateway (default ${DEFAULT-VALUE})")
    private int window = 64;

    @Option(names = "--rate", description = "commands per second per gateway, paced; 0: as fast as the window allows (default ${DEFAULT-VALUE})")
    private long rate;

    @Option(names = "--engine-idle", converter = IdleOption.class,
            description = "engine idle strategy, an Agrona alias: spin, yield, backoff, ... (default ${DEFAULT-VALUE})")
    private IdleConfig engineIdle = IdleConfig.of("backoff");

    @Option(names = "--engine-cpu", description = "pin the engine thread to this CPU (OpenHFT Affinity; default -1: no pinning)")
    private int engineCpu = -1;

    @Option(names = "--gateway-idle", converter = IdleOption.class,
            description = "gateway threads' idle strategy, an Agrona alias (default ${DEFAULT-VALUE})")
    private IdleConfig gatewayIdle = IdleConfig.of("backoff");

    @CommandLine.Mixin
    private JournalDirectory journals;

    public static void main(final String[] args) {
        final int code = new CommandLine(new JournalRoundTripBench()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        return journals.use("sluice-round-trip", root -> {
            final Figures figures = measure(root, new Settings(orders, window, engineIdle, gatewayIdle, engineCpu, rate));
            final Histogram total = figures.total();
            final Histogram in = figures.in();
            final Histogram out = figures.out();
            final long nanos = figures.nanos();
            final long roundTrips = orders * PreWrittenJournals.GATEWAYS.length;
            final double perSecond = roundTrips * 1e9 / nanos;
            System.out.printf(Locale.ROOT, "%,d request/responses (2 gateways x %,d, window %d) in %.2f s: %,.0f per second%n",
                    roundTrips, orders, window, nanos / 1e9, perSecond);
            System.out.printf(Locale.ROOT, "idle strategies: engine %s, gateways %s%n", engineIdle.describe(), gatewayIdle.describe());
            final LatencyTable table = new LatencyTable(System.out, 28);
            table.header();
            table.rowNanos("round trip", total);
            table.rowNanos("in: written -> engine read", in);
            table.rowNanos("out: report -> gateway read", out);
            final Path file = BenchResult.of("journal-round-trip").put("ordersPerGateway", orders).put("window", window)
                    .put("engineIdle", engineIdle.describe()).put("gatewayIdle", gatewayIdle.describe())
                    .put("ratePerGateway", rate)
                    .put("seconds", nanos / 1e9).put("roundTripsPerSecond", perSecond)
                    .putLatencyNanos("roundTrip", total).putLatencyNanos("in", in).putLatencyNanos("out", out)
                    .putSeries("roundTripsOverTime", 1.0, figures.roundTripsPerSecond())
                    .write(BenchResult.resultsDir());
            System.out.println("wrote " + file);
            return 0;
        });
    }

    /** What one round trip run measured: its wall-clock time, the latencies after warm-up in nanoseconds, and
     * round trips answered per second over the run. */
    public record Figures(long nanos, Histogram total, Histogram in, Histogram out, double[] roundTripsPerSecond) {
    }

    /**
     * How one round trip runs. Each gateway thread sends {@code ordersPerGateway} commands with at most {@code window}
     * unanswered, paced at {@code ratePerGateway} commands per second (0: as fast as the window allows); the engine
     * thread pinned to {@code engineCpu} ({@link CpuPinning#NONE}: not pinned).
     */
    public record Settings(long ordersPerGateway, int window, IdleConfig engineIdle, IdleConfig gatewayIdle,
                           int engineCpu, long ratePerGateway) {
    }

    /**
     * Runs the round trip once on journals under {@code root} (which should be empty): an engine and the two
     * gateway threads. Public for benchmarks that measure something else running beside it, such as a live
     * latency tail.
     */
    public static Figures measure(final Path root, final Settings settings) throws InterruptedException {
        final long orders = settings.ordersPerGateway();
        final EngineConfig config = PreWrittenJournals.config(root, settings.engineIdle()).pinCpu(settings.engineCpu());
        final EngineService service = EngineService.launch(config);
        final AgentThread engine = AgentThread.start(service, config.idle().newStrategy(), config.pinCpu(),
                AgentThread.Priority.NORMAL);
        final Gateway[] gateways = new Gateway[PreWrittenJournals.GATEWAYS.length];
        final Thread[] threads = new Thread[gateways.length];
        for (int i = 0; i < gateways.length; i++) {
            gateways[i] = new Gateway(root, PreWrittenJournals.GATEWAYS[i], config, orders, settings.window(),
                    settings.ratePerGateway(), settings.gatewayIdle());
            threads[i] = new Thread(gateways[i], "gateway-" + PreWrittenJournals.GATEWAYS[i]);
        }
        final ThroughputSampler sampler = ThroughputSampler.start(() -> answered(gateways), 1.0);
        final long start = System.nanoTime();
        for (final Thread thread : threads) {
            thread.start();
        }
        for (final Thread thread : threads) {
            thread.join();
        }
        final long nanos = System.nanoTime() - start;
        final double[] overTime = sampler.stop();
        engine.close();
        if (engine.failure() != null) {
            throw new IllegalStateException("the engine failed", engine.failure());
        }

        final Histogram total = new Histogram(3);
        final Histogram in = new Histogram(3);
        final Histogram out = new Histogram(3);
        for (final Gateway gateway : gateways) {
            total.add(gateway.total);
            in.add(gateway.in);
            out.add(gateway.out);
        }
        return new Figures(nanos, total, in, out, overTime);
    }

    private static long answered(final Gateway[] gateways) {
        long answered = 0;
        for (final Gateway gateway : gateways) {
            answered += gateway.progress.get();
        }
        return answered;
    }

    /**
     * One gateway thread: sends its commands within the window and reads its reports back. Public for the
     * burst benchmark, which runs the same round trip and reads latency per interval ({@link #intervals}).
     */
    public static final class Gateway implements Runnable, GatewayToEngine, EngineToGateway {
        private final int gatewayId;
        private final ChronicleQueue commands;
        private final ChronicleQueue reports;
        private final GatewayToEngine writer;
        private final MethodReader reader;
        private final MixedOrderFlow flow;
        private final long orders;
        private final int window;
        private final long warmUp;
        private final long sendIntervalNanos;
        private long nextSendNanos;
        private final IdleStrategy idle;
        final Histogram total = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final Histogram in = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final Histogram out = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        private long answered;
        private SingleWriterRecorder intervals;
        /** {@code answered} for the throughput sampler's thread: an ordered store, a plain move on x86. */
        final AtomicLong progress = new AtomicLong();

        public Gateway(final Path root, final int gatewayId, final EngineConfig config, final long orders, final int window,
                       final long ratePerSecond, final IdleConfig idle) {
            this.gatewayId = gatewayId;
            this.idle = idle.newStrategy();
            commands = Journals.open(Journals.gatewayJournal(root, gatewayId));
            reports = Journals.open(Journals.engineJournal(root));
            writer = commands.methodWriter(GatewayToEngine.class);
            reader = reports.createTailer().methodReader(this);
            flow = new MixedOrderFlow(gatewayId, gatewayId, config.instruments(), 64);
            this.orders = orders;
            this.window = window;
            warmUp = orders / 10;
            sendIntervalNanos = ratePerSecond > 0 ? TimeUnit.SECONDS.toNanos(1) / ratePerSecond : 0;
        }

        /**
         * Also records every command's round trip (warm-up included) in {@code recorder}, for a reader on
         * another thread to take interval histograms from; call before {@link #run()}.
         */
        public Gateway intervals(final SingleWriterRecorder recorder) {
            intervals = recorder;
            return this;
        }

        @Override
        public void run() {
            nextSendNanos = System.nanoTime();
            while (answered < orders) {
                int work = 0;
                if (flow.eventId() < orders && flow.eventId() - answered < window
                        && (sendIntervalNanos == 0 || System.nanoTime() >= nextSendNanos)) {
                    flow.next(this);
                    nextSendNanos += sendIntervalNanos;
                    work++;
                }
                if (reader.readOne()) {
                    work++;
                }
                idle.idle(work);
            }
            commands.close();
            reports.close();
        }

        @Override
        public void newOrder(final NewOrder order) {
            stamp(order.metaData());
            writer.newOrder(order);
        }

        @Override
        public void cancelOrder(final CancelOrder cancel) {
            stamp(cancel.metaData());
            writer.cancelOrder(cancel);
        }

        @Override
        public void replaceOrder(final ReplaceOrder replace) {
            stamp(replace.metaData());
            writer.replaceOrder(replace);
        }

        @Override
        public void massCancel(final MassCancel massCancel) {
            stamp(massCancel.metaData());
            writer.massCancel(massCancel);
        }

        @Override
        public void executionReport(final ExecutionReport report) {
            received(report.metaData());
        }

        @Override
        public void cancelReject(final CancelReject reject) {
            received(reject.metaData());
        }

        @Override
        public void massCancelReport(final MassCancelReport report) {
            received(report.metaData());
        }

        @Override
        public void adminOutcome(final AdminOutcome outcome) {
        }

        private static void stamp(final MetaData metaData) {
            final long now = SluiceClock.nowTicks();
            metaData.fixReceived(now).commandWriting(now);
        }

        /** The first report naming one of this gateway's commands answers it. */
        private void received(final MetaData metaData) {
            if (metaData.sourceId() != gatewayId || metaData.eventId() <= answered) {
                return;
            }
            final long now = SluiceClock.nowTicks();
            answered = metaData.eventId();
            progress.lazySet(answered);
            final long roundTrip = Math.max(0, now - metaData.commandWriting()) * SluiceClock.NANOS_PER_TICK;
            if (intervals != null) {
                intervals.recordValue(roundTrip);
            }
            if (answered > warmUp) {
                total.recordValue(roundTrip);
                in.recordValue(Math.max(0, metaData.engineRead() - metaData.commandWriting()) * SluiceClock.NANOS_PER_TICK);
                out.recordValue(Math.max(0, now - metaData.reportWriting()) * SluiceClock.NANOS_PER_TICK);
            }
        }
    }
}
