package io.sluice.bench.replication;

import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.kafka.KafkaCluster;
import io.sluice.replication.JournalSetComparison;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.fix.SluiceDeployment;
import net.openhft.chronicle.queue.ChronicleQueue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code ./sluice bench replication-starved}: replication on a host with no CPU to spare. The shipper runs under
 * {@code nice -n 19}; a writer appends commands as fast as it is let (up to {@code --rate} a second) and
 * {@code --spinners} threads spin beside it for {@code --seconds}. Each second it prints how many excerpts Kafka
 * acknowledged (the shipper's counters) and the backlog; the target is progress in every second. Then the load stops,
 * and the replica must catch up and be identical to the primary, excerpt by excerpt.
 */
@Command(name = "replication-starved", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replication with the shipper at nice 19 while writers and spinning threads take the CPU.")
public final class StarvedShipperBench implements Callable<Integer> {
    @Option(names = "--seconds", description = "how long the load lasts (default ${DEFAULT-VALUE})")
    private int seconds = 60;

    @Option(names = "--rate", description = "the most commands the writer appends per second (default ${DEFAULT-VALUE})")
    private long rate = 50_000;

    @Option(names = "--spinners", description = "threads spinning beside the writer (default ${DEFAULT-VALUE})")
    private int spinners = 2;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new StarvedShipperBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Path dir = Files.createTempDirectory("sluice-bench-replication-starved");
        try {
            return run(dir);
        } finally {
            SluiceDeployment.deleteTree(dir);
        }
    }

    private int run(final Path dir) throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        final AtomicBoolean loaded = new AtomicBoolean(true);
        final List<Thread> threads = new ArrayList<>();
        final long[] written = new long[1];
        try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 1, KafkaCluster.BENCH_JVM);
             ChronicleQueue journal = Journals.open(Journals.gatewayJournal(primary, 1));
             JavaProcess shipper = ReplicationProcesses.ship(dir, "shipper", "starved", primary, kafka.bootstrapServers(),
                     List.of("nice", "-n", "19"));
             JavaProcess receiver = ReplicationProcesses.receive(dir, "receiver", "starved", replica,
                     kafka.bootstrapServers())) {
            final GatewayToEngine commands = Journals.methodWriter(journal.createAppender(), GatewayToEngine.class);
            final NewOrder order = new NewOrder();
            order.side(Side.BUY).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY).orderQty(100).price(Price.of(10));
            final Thread writer = new Thread(() -> {
                final long period = 1_000_000_000L / rate;
                final long start = System.nanoTime();
                long event = 0;
                while (loaded.get()) {
                    event++;
                    order.metaData().sourceId(1).eventId(event).fixReceived(SluiceClock.nowTicks())
                            .commandWriting(SluiceClock.nowTicks());
                    order.session(1).clOrdId(event);
                    commands.newOrder(order);
                    written[0] = event;
                    final long due = start + event * period;
                    final long early = due - System.nanoTime();
                    if (early > 0) {
                        LockSupport.parkNanos(early);
                    }
                }
            }, "writer");
            System.out.printf(Locale.ROOT, "replication-starved: the shipper at nice 19 (pid %d); a writer of up to %,d "
                    + "commands/s and %d spinning threads for %d s%n", shipper.pid(), rate, spinners, seconds);
            writer.start();
            threads.add(writer);
            awaitAcknowledged(primary, 10_000, shipper, receiver);
            for (int i = 0; i < spinners; i++) {
                final Thread spinner = new Thread(() -> {
                    while (loaded.get()) {
                        Thread.onSpinWait();
                    }
                }, "spinner-" + i);
                spinner.start();
                threads.add(spinner);
            }
            final long[] perSecond = new long[seconds];
            long last = acknowledged(primary);
            long withoutProgress = 0;
            long next = System.nanoTime();
            for (int second = 0; second < seconds; second++) {
                next += TimeUnit.SECONDS.toNanos(1);
                LockSupport.parkNanos(next - System.nanoTime());
                final long now = acknowledged(primary);
                perSecond[second] = now - last;
                withoutProgress += perSecond[second] == 0 ? 1 : 0;
                last = now;
                System.out.printf(Locale.ROOT, "second %3d: Kafka acknowledged %,9d excerpts (%,d in all); backlog %,d%n",
                        second + 1, perSecond[second], now, Math.max(0, written[0] - now));
                require(shipper, receiver);
            }
            loaded.set(false);
            for (final Thread thread : threads) {
                thread.join();
            }
            final long catchUpStart = System.nanoTime();
            awaitAcknowledged(primary, written[0], shipper, receiver);
            final double catchUpSeconds = (System.nanoTime() - catchUpStart) / 1e9;
            awaitReplica(primary, replica, shipper, receiver);
            final JournalSetComparison comparison = JournalSetComparison.of(primary, replica);
            final long least = Arrays.stream(perSecond).min().orElse(0);
            System.out.printf(Locale.ROOT, "seconds without progress: %d of %d (target 0); least in a second: %,d "
                    + "excerpts; %,d commands written; caught up %.1f s after the load stopped%n", withoutProgress,
                    seconds, least, written[0], catchUpSeconds);
            System.out.println("primary and replica: " + comparison.describe());
            final BenchResult result = BenchResult.of("replication-starved")
                    .put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                    .put("seconds", seconds).put("spinners", spinners).put("rate", rate)
                    .put("secondsWithoutProgress", withoutProgress).put("leastAcknowledgedInASecond", least)
                    .put("written", written[0]).put("catchUpSeconds", catchUpSeconds)
                    .put("identical", comparison.identical())
                    .putSeries("acknowledgedPerSecond", 1, Arrays.stream(perSecond).asDoubleStream().toArray());
            System.out.println("results: " + result.write(BenchResult.resultsDir()));
            return withoutProgress == 0 && comparison.identical() ? 0 : 1;
        } finally {
            loaded.set(false);
            for (final Thread thread : threads) {
                thread.join();
            }
        }
    }

    /** @return the excerpts Kafka has acknowledged, as the shipper's counters say */
    private static long acknowledged(final Path primary) {
        return new CountersDirectory(primary).read().stream()
                .filter(p -> p.process().equals(AcknowledgedIndexReader.SHIPPER_PROCESS))
                .flatMap(p -> p.counters().stream())
                .filter(c -> c.label().metric().equals("sluice_replication_shipped_total"))
                .mapToLong(CountersDirectory.Counter::value).sum();
    }

    private static void awaitAcknowledged(final Path primary, final long count, final JavaProcess shipper,
                                          final JavaProcess receiver) {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (acknowledged(primary) < count) {
            require(shipper, receiver);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka did not acknowledge " + count + " excerpts: " + shipper.logText());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static void awaitReplica(final Path primary, final Path replica, final JavaProcess shipper,
                                     final JavaProcess receiver) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (!ReplicationProcesses.excerptCounts(primary).equals(ReplicationProcesses.excerptCounts(replica))) {
            require(shipper, receiver);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the replica did not catch up: " + receiver.logText());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static void require(final JavaProcess shipper, final JavaProcess receiver) {
        for (final JavaProcess process : List.of(shipper, receiver)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(process.name() + " exited: " + process.logText());
            }
        }
    }
}
