package io.sluice.bench.replication;

import io.sluice.bench.BenchArguments;
import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.NoOpGatewayToEngine;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.kafka.KafkaCluster;
import io.sluice.replication.ReplicateMain;
import io.sluice.replication.ReplicationConfig;
import io.sluice.runtime.TimerSlack;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.ProcessCpuTime;
import io.sluice.tools.demo.JournalPlace;
import io.sluice.tools.report.LatencyTable;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * {@code ./sluice bench replication [--rates 10000,100000,0] [--seconds 5] [--flat-out 300000]}: replication lag
 * against the floor it builds on. Lag runs from the moment a command is written to a primary journal to the moment a
 * reader of the replica's copy of that journal has it, through a real single-broker Kafka (a child process), a shipper
 * and a receiver (child processes, as {@code ./sluice replicate} runs them). First a plain Kafka producer and consumer
 * ({@link PlainKafka}) run at the same rates, record size and client settings against the same broker, then Sluice. A
 * writer thread appends commands to {@code gateway-1} at each offered rate in turn (0: flat out, {@code --flat-out}
 * commands), stamping each with the SluiceClock, after a warm-up ({@code --warm-up-seconds} at {@value #WARM_UP_RATE}
 * commands/s) the replica must hold first; this process reads the replica and records, per phase, now minus the stamp,
 * and each second the backlog (commands written and not yet in the replica). All on one host, so both ends read one
 * clock. Per rate it prints the ratios the targets are stated in: Sluice's lag over plain Kafka's end-to-end latency
 * (p50, p99), the broker's CPU per excerpt over its CPU per plain record, and the shipper's and receiver's CPU over the
 * broker's. A process's CPU is counted less its JIT compiler threads' (printed apart): the plain clients' is their
 * threads' alone, in this JVM.
 */
public final class ReplicationLagBench {
    /**
     * The warm-up's rate: the shipper's and receiver's CPU is measured by process, so their JIT compiler threads count.
     * At 10,000/s a frame held 5 ms is shipped 200 times a second, and the per-frame code took over 20 s to be compiled
     * (a JFR profile showed C2 using a tenth of a core in each process through a 20 s phase after a 2 s warm-up).
     */
    static final long WARM_UP_RATE = 30_000;
    /**
     * The longest park of the replica reader when it finds nothing, and of the writer before a command's due time: the
     * bench's own two threads back off, so that they leave the 2 cores of a small machine to the shipper, broker and
     * receiver they measure (two spinning threads on 2 cores starve them); this bounds what the reader adds to a lag.
     */
    private static final long READER_MAX_PARK_NANOS = 20_000;

    /** Where the shipper, the receiver and the broker record a JFR profile, or null for none. */
    private static Path jfr;
    /** The shipper's idle strategy (YAML), or null for the replication config's default. */
    private static String shipperIdle;
    /**
     * Where the journals and the broker's log are. On the 2-core VM's ext4 disk the filesystem stalled the writers
     * about 20 ms each second, which made the 100 k/s p99 4-5x plain Kafka's; in memory it was 1.8x.
     */
    private static JournalPlace journalPlace;

    private ReplicationLagBench() {
    }

    /** Runs {@code jcmd pid command args} (with {@code --jfr} only): the broker's profile covers Sluice's phases alone. */
    private static void jcmd(final long pid, final String command, final String argument) throws Exception {
        if (jfr != null) {
            new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid),
                    command, argument).inheritIO().start().waitFor();
        }
    }

    /** @return the JVM flags that have process {@code name} record a JFR profile (none without {@code --jfr}) */
    private static List<String> profiling(final String name) {
        return jfr == null ? List.of() : List.of("-XX:StartFlightRecording=filename=" + jfr.resolve(name + ".jfr")
                + ",settings=profile,dumponexit=true");
    }

    public static void main(final String[] args) throws Exception {
        final ReplicationLagOptions options = BenchArguments.parse(new ReplicationLagOptions(), args);
        final long[] rates = options.rates();
        final long seconds = options.seconds();
        final long flatOut = options.flatOut();
        final long warmUp = WARM_UP_RATE * options.warmUpSeconds();
        jfr = options.jfr() == null ? null : Files.createDirectories(options.jfr().toAbsolutePath());
        shipperIdle = options.shipperIdle();
        journalPlace = JournalPlace.of(options.journals());
        System.out.println(journalPlace.describe());
        final Path dir = Files.createTempDirectory(journalPlace.parent(), "sluice-bench-replication");
        final int code;
        try {
            code = run(dir, warmUp, rates, seconds, flatOut);
        } finally {
            delete(dir); // before exiting: System.exit inside the try skipped it, leaving ~0.5 GB per run in /tmp
        }
        System.exit(code);
    }

    private static int run(final Path dir, final long warmUp, final long[] rates, final long seconds, final long flatOut)
            throws Exception {
        final List<Phase> phases = new ArrayList<>();
        long next = 1;
        phases.add(new Phase("warm-up", WARM_UP_RATE, next, next + warmUp - 1));
        next += warmUp;
        for (final long rate : rates) {
            final long count = rate == 0 ? flatOut : rate * seconds;
            phases.add(new Phase(rate == 0 ? "flat out" : String.format(Locale.ROOT, "%,d/s", rate), rate, next, next + count - 1));
            next += count;
        }
        final long lastEvent = next - 1;
        final int excerptBytes = excerptBytes(dir.resolve("scratch"));
        final List<PlainKafka.Result> plain = new ArrayList<>();
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1, KafkaCluster.BENCH_JVM)) {
            // The shipper here serves no gateway in acknowledged mode, so it holds a frame open its asynchronous hold:
            // the plain producer batches as long (linger.ms), the same settings.
            final int linger = (int) TimeUnit.MICROSECONDS.toMillis(ReplicationConfig.DEFAULT_ASYNCHRONOUS_FRAME_HOLD_MICROS);
            try (PlainKafka floor = new PlainKafka(kafka.bootstrapServers(), "plain", kafka.pid(0), excerptBytes, linger)) {
                System.out.printf(Locale.ROOT, "plain Kafka first: an idempotent producer (acks=all, linger.ms %d: the "
                        + "shipper's asynchronous frame hold) and a consumer, %d-byte records, one partition, the same "
                        + "broker%n", linger, excerptBytes);
                for (final Phase phase : phases) {
                    final PlainKafka.Result result = floor.run(phase.name, phase.rate, phase.last - phase.first + 1);
                    if (phase != phases.getFirst()) {
                        plain.add(result);
                    }
                }
            }
            return runSluice(dir, kafka, phases, lastEvent, plain, excerptBytes);
        }
    }

    private static int runSluice(final Path dir, final KafkaCluster kafka, final List<Phase> phases, final long lastEvent,
                                 final List<PlainKafka.Result> plain, final int excerptBytes) throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        try (ChronicleQueue journal = Journals.open(Journals.gatewayJournal(primary, 1));
             JavaProcess shipper = replicate(dir, "shipper", "ship", primary, kafka.bootstrapServers());
             JavaProcess receiver = replicate(dir, "receiver", "receive", replica, kafka.bootstrapServers())) {
            jcmd(kafka.pid(0), "JFR.start", "settings=profile");
            final CpuMeter cpu = new CpuMeter(List.of("shipper", "kafka", "receiver"),
                    new long[] {shipper.pid(), kafka.pid(0), receiver.pid()});
            final Writer writer = new Writer(journal, phases, cpu);
            final Thread writing = new Thread(writer, "writer");
            writing.setDaemon(true); // a failure of the measuring thread must end the run, not leave it waiting
            writing.start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120 + lastEvent / 5_000);
            final Path copy = Journals.gatewayJournal(replica, 1);
            try (ChronicleQueue replicated = openWhenReady(copy, deadline, shipper, receiver);
                 ExcerptTailer tailer = replicated.createTailer()) {
                final Recorder recorder = new Recorder(phases, writer, cpu);
                try (JournalReader reader = new JournalReader(replicated, tailer, recorder)) {
                    TimerSlack.set(TimerSlack.FINE_NANOS);
                    final IdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, READER_MAX_PARK_NANOS);
                    long nextSample = System.nanoTime();
                    while (recorder.lastEvent < lastEvent) {
                        if (System.nanoTime() >= nextSample) {
                            nextSample += TimeUnit.SECONDS.toNanos(1);
                            recorder.sampleBacklog(writer.written);
                        }
                        if (reader.readOne()) {
                            idle.reset();
                        } else {
                            check(deadline, shipper, receiver, "event " + lastEvent + " in the replica (at " + recorder.lastEvent + ")");
                            idle.idle();
                        }
                    }
                }
            }
            writing.join();
            jcmd(kafka.pid(0), "JFR.dump", "filename=" + (jfr == null ? "" : jfr.resolve("broker.jfr")));
            return report(phases, cpu, plain, excerptBytes);
        }
    }

    /**
     * @return the replica journal opened read-only, once the receiver has created it; its metadata file appears before
     * the receiver has written its keys, and opening it read-only in between fails, so that is retried
     */
    private static ChronicleQueue openWhenReady(final Path copy, final long deadline, final JavaProcess shipper,
                                                final JavaProcess receiver) {
        while (true) {
            check(deadline, shipper, receiver, "the replica journal to appear");
            if (Files.exists(copy.resolve("metadata.cq4t"))) {
                try {
                    return Journals.openReadOnly(copy);
                } catch (final IllegalStateException notInitialisedYet) {
                    // the receiver is still writing the journal's metadata
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static int report(final List<Phase> phases, final CpuMeter cpu, final List<PlainKafka.Result> plain,
                              final int excerptBytes) throws IOException {
        System.out.println("Replication lag: command written to the primary's gateway-1 -> read from the replica's copy,"
                + " through Kafka (1 broker, acks=all, one log), shipper and receiver as child processes, one host;"
                + " plain Kafka: send -> the consumer has it, same broker, same rates, " + excerptBytes + "-byte records");
        final LatencyTable table = new LatencyTable(System.out, 22);
        table.header();
        final BenchResult result = BenchResult.of("replication")
                .put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                .put("journalFilesystem", journalPlace.filesystem() + " " + journalPlace.parent())
                .put("recordBytes", excerptBytes);
        final List<Phase> measured = phases.subList(1, phases.size());
        for (int p = 0; p < measured.size(); p++) {
            final Phase phase = measured.get(p);
            final PlainKafka.Result floor = plain.get(p);
            table.rowNanos("plain " + phase.name, floor.endToEnd());
            table.rowNanos("sluice " + phase.name, phase.lag);
        }
        for (int p = 0; p < measured.size(); p++) {
            final Phase phase = measured.get(p);
            final PlainKafka.Result floor = plain.get(p);
            final String tag = phase.rate == 0 ? "flatOut" : "rate" + phase.rate;
            final double writeSeconds = (phase.lastWriteNanos - phase.firstWriteNanos) / 1e9;
            final long count = phase.last - phase.first + 1;
            final double achieved = count / Math.max(writeSeconds, 1e-9);
            final double[] micros = new double[cpu.names.size()];
            final double[] compiling = new double[cpu.names.size()];
            for (int i = 0; i < micros.length; i++) {
                compiling[i] = (phase.cpuAtEnd.compiling()[i] - phase.cpuAtStart.compiling()[i]) / 1e3 / count;
                micros[i] = (phase.cpuAtEnd.nanos()[i] - phase.cpuAtStart.nanos()[i]) / 1e3 / count - compiling[i];
                result.put(tag + "CpuMicrosPerCommand_" + cpu.names.get(i), micros[i]);
                result.put(tag + "JitCpuMicrosPerCommand_" + cpu.names.get(i), compiling[i]);
            }
            final double lagP50 = ratio(phase.lag, floor.endToEnd(), 50);
            final double lagP99 = ratio(phase.lag, floor.endToEnd(), 99);
            final double broker = micros[1] / floor.brokerCpuMicrosPerRecord();
            final double ends = (micros[0] + micros[2]) / micros[1];
            final double endsOverClients = (micros[0] + micros[2]) / floor.clientCpuMicrosPerRecord();
            System.out.printf(Locale.ROOT, "%s: sluice wrote %,d commands at %,.0f/s (plain Kafka produced at %,.0f/s);"
                    + " CPU per command: shipper %.2f µs, broker %.2f µs, receiver %.2f µs, and their JIT compilers %.2f,"
                    + " %.2f and %.2f µs besides; broker per plain record %.2f µs, plain clients' per record %.2f µs; plain"
                    + " produce latency p50 %.2f ms, p99 %.2f ms%n",
                    phase.name, count, achieved, floor.writtenPerSecond(), micros[0], micros[1], micros[2],
                    compiling[0], compiling[1], compiling[2],
                    floor.brokerCpuMicrosPerRecord(), floor.clientCpuMicrosPerRecord(),
                    floor.produce().getValueAtPercentile(50) / 1e6, floor.produce().getValueAtPercentile(99) / 1e6);
            System.out.printf(Locale.ROOT, "  ratios: lag / plain end-to-end p50 %.2f, p99 %.2f (target <= 2); broker CPU"
                    + " per excerpt / per plain record %.2f (target <= 1.5); shipper + receiver / broker %.2f (target <="
                    + " 1); shipper + receiver / plain clients %.2f%n", lagP50, lagP99, broker, ends, endsOverClients);
            final Backlog backlog = Backlog.of(phase.backlog);
            System.out.printf(Locale.ROOT, "  backlog (written, not yet in the replica), sampled each second: max %,d,"
                    + " mean of the first third %,.0f, of the last third %,.0f: %s%n", backlog.max(),
                    backlog.firstThird(), backlog.lastThird(), backlog.growing() ? "GROWING" : "not growing");
            result.putLatencyNanos(tag, phase.lag).put(tag + "WrittenPerSecond", achieved)
                    .putLatencyNanos("plain" + capitalised(tag) + "EndToEnd", floor.endToEnd())
                    .putLatencyNanos("plain" + capitalised(tag) + "Produce", floor.produce())
                    .put("plain" + capitalised(tag) + "WrittenPerSecond", floor.writtenPerSecond())
                    .put("plain" + capitalised(tag) + "BrokerCpuMicrosPerRecord", floor.brokerCpuMicrosPerRecord())
                    .put("plain" + capitalised(tag) + "ClientCpuMicrosPerRecord", floor.clientCpuMicrosPerRecord())
                    .put(tag + "ShipperAndReceiverCpuOverPlainClients", endsOverClients)
                    .put(tag + "LagOverPlainP50", lagP50).put(tag + "LagOverPlainP99", lagP99)
                    .put(tag + "BrokerCpuOverPlain", broker).put(tag + "ShipperAndReceiverCpuOverBroker", ends)
                    .put(tag + "BacklogMax", backlog.max()).put(tag + "BacklogFirstThird", backlog.firstThird())
                    .put(tag + "BacklogLastThird", backlog.lastThird()).put(tag + "BacklogGrowing", backlog.growing());
        }
        System.out.println("anchor: Chronicle Queue Enterprise replication, 10 M msgs/min: p99 20 µs, p99.9 901 µs");
        System.out.println("results: " + result.write(BenchResult.resultsDir()));
        return 0;
    }

    private static double ratio(final Histogram sluice, final Histogram plain, final double percentile) {
        return sluice.getValueAtPercentile(percentile) / (double) Math.max(1, plain.getValueAtPercentile(percentile));
    }

    private static String capitalised(final String tag) {
        return Character.toUpperCase(tag.charAt(0)) + tag.substring(1);
    }

    /**
     * A phase's backlog samples: it grows when the mean of its last third exceeds twice that of its first third and
     * 1,000 commands (a burst of the machine's load comes and goes; a shipper that cannot keep up only grows).
     */
    private record Backlog(long max, double firstThird, double lastThird) {
        static Backlog of(final List<Long> samples) {
            if (samples.isEmpty()) {
                return new Backlog(0, 0, 0);
            }
            final int third = Math.max(1, samples.size() / 3);
            return new Backlog(samples.stream().mapToLong(Long::longValue).max().orElse(0),
                    samples.subList(0, third).stream().mapToLong(Long::longValue).average().orElse(0),
                    samples.subList(samples.size() - third, samples.size()).stream().mapToLong(Long::longValue)
                            .average().orElse(0));
        }

        boolean growing() {
            return lastThird > Math.max(2 * firstThird, 1000);
        }
    }

    /** @return the bytes of one command excerpt as the writer writes it (written once to a scratch journal) */
    private static int excerptBytes(final Path scratch) {
        try (ChronicleQueue journal = Journals.open(scratch);
             ExcerptTailer tailer = journal.createTailer()) {
            final NewOrder order = new NewOrder();
            order.side(Side.BUY).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY).orderQty(100).price(Price.of(10));
            order.metaData().sourceId(1).eventId(1).fixReceived(1).commandWriting(1);
            order.session(1).clOrdId(1);
            Journals.methodWriter(journal.createAppender(), GatewayToEngine.class).newOrder(order);
            try (DocumentContext dc = tailer.readingDocument()) {
                return (int) dc.wire().bytes().readRemaining();
            }
        }
    }

    private static void check(final long deadline, final JavaProcess shipper, final JavaProcess receiver, final String what) {
        for (final JavaProcess process : List.of(shipper, receiver)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(process.name() + " exited: " + process.logText());
            }
        }
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("timed out waiting for " + what + "\n" + shipper.logText() + receiver.logText());
        }
    }

    private static JavaProcess replicate(final Path dir, final String name, final String mode, final Path root,
                                         final String servers) throws IOException {
        final Path config = dir.resolve(name + ".yaml");
        Files.writeString(config, "!ReplicationConfig {\n  mode: " + mode
                + ",\n  deployment: bench,\n  root: " + root + ",\n  bootstrapServers: \"" + servers
                + "\",\n  lagReportMillis: 0" + (shipperIdle != null && mode.equals("ship") ? ",\n  idle: " + shipperIdle : "")
                + "\n}\n");
        return JavaProcess.start(name, dir.resolve(name + ".log"), profiling(name), ReplicateMain.class, "--config",
                config.toString());
    }

    private static void delete(final Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** One offered rate: its events, when they were written, and their lag. */
    private static final class Phase {
        final String name;
        final long rate;
        final long first;
        final long last;
        final Histogram lag = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        volatile long firstWriteNanos;
        /** CPU time used by each measured process as the phase's writing began, and once its last was read. */
        volatile CpuReading cpuAtStart;
        CpuReading cpuAtEnd;
        volatile long lastWriteNanos;
        /** The commands written and not yet in the replica, sampled once a second while the phase is read. */
        final List<Long> backlog = new ArrayList<>();

        Phase(final String name, final long rate, final long first, final long last) {
            this.name = name;
            this.rate = rate;
            this.first = first;
            this.last = last;
        }
    }

    /** Appends each phase's commands at its rate (busy-waiting to the due time of each), stamped as written. */
    private static final class Writer implements Runnable {
        private final GatewayToEngine commands;
        private final List<Phase> phases;
        private final NewOrder order = new NewOrder();

        private final CpuMeter cpu;

        Writer(final ChronicleQueue journal, final List<Phase> phases, final CpuMeter cpu) {
            this.cpu = cpu;
            this.commands = Journals.methodWriter(journal.createAppender(), GatewayToEngine.class);
            this.phases = phases;
            order.side(Side.BUY).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY).orderQty(100).price(Price.of(10));
        }

        /** Set by the reader once the replica holds the whole warm-up: replication is up and steady. */
        volatile boolean warmedUp;
        /** The last event written. */
        volatile long written;

        @Override
        public void run() {
            TimerSlack.set(TimerSlack.FINE_NANOS);
            for (final Phase phase : phases) {
                while (phase != phases.getFirst() && !warmedUp) {
                    LockSupport.parkNanos(READER_MAX_PARK_NANOS);
                }
                phase.cpuAtStart = cpu.read();
                final long start = System.nanoTime();
                phase.firstWriteNanos = start;
                final long period = phase.rate == 0 ? 0 : 1_000_000_000L / phase.rate;
                for (long event = phase.first; event <= phase.last; event++) {
                    if (period > 0) {
                        final long due = start + (event - phase.first) * period;
                        for (long early = due - System.nanoTime(); early > 0; early = due - System.nanoTime()) {
                            if (early > 2 * READER_MAX_PARK_NANOS) {
                                LockSupport.parkNanos(early - READER_MAX_PARK_NANOS);
                            } else {
                                Thread.onSpinWait();
                            }
                        }
                    }
                    order.metaData().sourceId(1).eventId(event).fixReceived(SluiceClock.nowTicks())
                            .commandWriting(SluiceClock.nowTicks());
                    order.session(1).clOrdId(event);
                    commands.newOrder(order);
                    written = event;
                }
                phase.lastWriteNanos = System.nanoTime();
            }
        }
    }

    /** The CPU time the shipper, the broker and the receiver used so far: what replicating a command costs each. */
    private record CpuMeter(List<String> names, long[] pids) {
        /** @return each process's CPU time so far, nanoseconds (read from /proc: allocates, at phase ends only) */
        CpuReading read() {
            final long[] nanos = new long[pids.length];
            final long[] compiling = new long[pids.length];
            for (int i = 0; i < pids.length; i++) {
                compiling[i] = ProcessCpuTime.compilerNanos(pids[i]);
                nanos[i] = ProcessCpuTime.nanos(pids[i]);
            }
            return new CpuReading(nanos, compiling);
        }
    }

    /** Each measured process's CPU time at one moment, nanoseconds: in all, and of its JIT compiler threads. */
    private record CpuReading(long[] nanos, long[] compiling) {
    }

    /** Reads the replica's commands and records each one's lag in its phase. */
    private static final class Recorder extends NoOpGatewayToEngine {
        private final List<Phase> phases;
        private final Writer writer;
        private int phase;
        long lastEvent;

        private final CpuMeter cpu;

        Recorder(final List<Phase> phases, final Writer writer, final CpuMeter cpu) {
            this.cpu = cpu;
            this.phases = phases;
            this.writer = writer;
        }

        @Override
        public void newOrder(final NewOrder order) {
            final long lagNanos = (SluiceClock.nowTicks() - order.metaData().commandWriting()) * SluiceClock.NANOS_PER_TICK;
            lastEvent = order.metaData().eventId();
            if (lastEvent == phases.getFirst().last) {
                writer.warmedUp = true; // the phases after the warm-up start on a replication that is up and caught up
            }
            while (lastEvent > phases.get(phase).last) {
                phase++;
            }
            final Phase current = phases.get(phase);
            current.lag.recordValue(Math.max(0, Math.min(lagNanos, current.lag.getHighestTrackableValue())));
            if (lastEvent == current.last) {
                current.cpuAtEnd = cpu.read();
            }
        }

        /** Samples the backlog: the commands written up to {@code written} and not read from the replica yet. */
        void sampleBacklog(final long written) {
            phases.get(phase).backlog.add(Math.max(0, written - lastEvent));
        }
    }
}
