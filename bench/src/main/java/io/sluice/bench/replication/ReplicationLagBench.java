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
import io.sluice.runtime.TimerSlack;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.report.LatencyTable;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
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
 * {@code ./sluice bench replication [--rates 10000,100000,0] [--seconds 5] [--flat-out 300000]}: replication lag, from
 * the moment a command is written to a primary journal to the moment a reader of the replica's copy of that journal
 * has it, through a real single-broker Kafka (a child process), a shipper and a receiver (child processes, as
 * {@code ./sluice replicate} runs them). A writer thread appends commands to {@code gateway-1} at each offered rate in
 * turn (0: flat out, {@code --flat-out} commands), stamping each with the SluiceClock, after a warm-up of
 * {@value #WARM_UP} commands the replica must hold first; this process reads the replica and records, per phase, now
 * minus the stamp. All on one host, so both ends read one clock.
 * Anchor (issue 15): Chronicle Queue Enterprise replication, 10 M msgs/min, p99 20 µs and p99.9 901 µs.
 */
public final class ReplicationLagBench {
    private static final long WARM_UP = 20_000;
    /**
     * The longest park of the replica reader when it finds nothing, and of the writer before a command's due time: the
     * bench's own two threads back off, so that they leave the 2 cores of a small machine to the shipper, broker and
     * receiver they measure (two spinning threads on 2 cores starve them); this bounds what the reader adds to a lag.
     */
    private static final long READER_MAX_PARK_NANOS = 20_000;

    private ReplicationLagBench() {
    }

    public static void main(final String[] args) throws Exception {
        final ReplicationLagOptions options = BenchArguments.parse(new ReplicationLagOptions(), args);
        final long[] rates = options.rates();
        final long seconds = options.seconds();
        final long flatOut = options.flatOut();
        final Path dir = Files.createTempDirectory("sluice-bench-replication");
        final int code;
        try {
            code = run(dir, rates, seconds, flatOut);
        } finally {
            delete(dir); // before exiting: System.exit inside the try skipped it, leaving ~0.5 GB per run in /tmp
        }
        System.exit(code);
    }

    private static int run(final Path dir, final long[] rates, final long seconds, final long flatOut) throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        final List<Phase> phases = new ArrayList<>();
        long next = 1;
        phases.add(new Phase("warm-up", 10_000, next, next + WARM_UP - 1));
        next += WARM_UP;
        for (final long rate : rates) {
            final long count = rate == 0 ? flatOut : rate * seconds;
            phases.add(new Phase(rate == 0 ? "flat out" : String.format(Locale.ROOT, "%,d/s", rate), rate, next, next + count - 1));
            next += count;
        }
        final long lastEvent = next - 1;
        try (ChronicleQueue journal = Journals.open(Journals.gatewayJournal(primary, 1));
             KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1, KafkaCluster.BENCH_JVM);
             JavaProcess shipper = replicate(dir, "shipper", "ship", primary, kafka.bootstrapServers());
             JavaProcess receiver = replicate(dir, "receiver", "receive", replica, kafka.bootstrapServers())) {
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
                    while (recorder.lastEvent < lastEvent) {
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
            return report(phases, cpu);
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

    private static int report(final List<Phase> phases, final CpuMeter cpu) throws IOException {
        System.out.println("Replication lag: command written to the primary's gateway-1 -> read from the replica's copy,"
                + " through Kafka (1 broker, acks=all, transactional), shipper and receiver as child processes, one host");
        final LatencyTable table = new LatencyTable(System.out, 12);
        table.header();
        final BenchResult result = BenchResult.of("replication")
                .put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        for (final Phase phase : phases.subList(1, phases.size())) {
            table.rowNanos(phase.name, phase.lag);
            final double writeSeconds = (phase.lastWriteNanos - phase.firstWriteNanos) / 1e9;
            final double achieved = (phase.last - phase.first + 1) / Math.max(writeSeconds, 1e-9);
            final long count = phase.last - phase.first + 1;
            System.out.printf(Locale.ROOT, "  %s: %,d commands written at %,.0f/s; CPU time per command:", phase.name, count,
                    achieved);
            final String tag = phase.rate == 0 ? "flatOut" : "rate" + phase.rate;
            result.putLatencyNanos(tag, phase.lag).put(tag + "WrittenPerSecond", achieved);
            for (int i = 0; i < cpu.names.size(); i++) {
                final double micros = (phase.cpuAtEnd[i] - phase.cpuAtStart[i]) / 1e3 / count;
                System.out.printf(Locale.ROOT, " %s %.2f µs", cpu.names.get(i), micros);
                result.put(tag + "CpuMicrosPerCommand_" + cpu.names.get(i), micros);
            }
            System.out.println();
        }
        System.out.println("anchor: Chronicle Queue Enterprise replication, 10 M msgs/min: p99 20 µs, p99.9 901 µs");
        System.out.println("results: " + result.write(BenchResult.resultsDir()));
        return 0;
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
                + "\",\n  lagReportMillis: 0\n}\n");
        return JavaProcess.start(name, dir.resolve(name + ".log"), List.of(), ReplicateMain.class, "--config", config.toString());
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
        /** CPU time used by each measured process (nanoseconds) as the phase's writing began, and once its last was read. */
        volatile long[] cpuAtStart;
        long[] cpuAtEnd;
        volatile long lastWriteNanos;

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
                }
                phase.lastWriteNanos = System.nanoTime();
            }
        }
    }

    /** The CPU time the shipper, the broker and the receiver used so far: what replicating a command costs each. */
    private record CpuMeter(List<String> names, long[] pids) {
        /** @return each process's CPU time so far, nanoseconds (read from /proc: allocates, at phase ends only) */
        long[] read() {
            final long[] nanos = new long[pids.length];
            for (int i = 0; i < pids.length; i++) {
                nanos[i] = ProcessHandle.of(pids[i]).flatMap(p -> p.info().totalCpuDuration())
                        .map(java.time.Duration::toNanos).orElse(0L);
            }
            return nanos;
        }
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
    }
}
