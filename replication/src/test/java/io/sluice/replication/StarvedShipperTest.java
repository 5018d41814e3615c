package io.sluice.replication;

import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A shipper starved of CPU (run under {@code nice -n 10}: a tenth of a normal process's share) while its writers write
 * as fast as they are let and two threads spin beside it, on a host with no CPU to spare: Kafka's acknowledged count
 * of its excerpts still rises every
 * second (nothing waits for the shipper to catch up, which it cannot), and once the load stops the replica catches up,
 * identical to the primary. The 60-second version, at nice 19, is {@code ./sluice bench replication-starved}.
 */
final class StarvedShipperTest {
    private static final int SECONDS = 10;

    @RegisterExtension
    static final BrokerPerTestClass kafka = new BrokerPerTestClass();

    @TempDir
    Path dir;

    @Test
    void aShipperStarvedOfCpuMakesProgressEverySecondAndCatchesUpOnceTheLoadStops() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path replica = dir.resolve("replica");
        final AtomicBoolean spinning = new AtomicBoolean(true);
        final List<Thread> spinners = new ArrayList<>();
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 10_000);
             JavaProcess shipper = Replicas.start(dir, "shipper", "ship", "starved", primary, kafka.bootstrapServers(),
                     1, 1, List.of("nice", "-n", "10"));
             JavaProcess receiver = Replicas.receive(dir, "receiver", "starved", replica, kafka.bootstrapServers())) {
            Replicas.await("the replica received 5000 excerpts", 180, () -> Replicas.total(replica) >= 5000, shipper,
                    receiver);
            for (int i = 0; i < 2; i++) {
                final Thread spinner = new Thread(() -> {
                    while (spinning.get()) {
                        Thread.onSpinWait();
                    }
                }, "spinner-" + i);
                spinner.start();
                spinners.add(spinner);
            }
            final List<Long> acknowledged = new ArrayList<>();
            final List<Long> written = new ArrayList<>();
            written.add((long) Replicas.total(primary));
            acknowledged.add(acknowledged(primary));
            for (int second = 1; second <= SECONDS; second++) {
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)); // the sampling period, not a wait for anything
                written.add((long) Replicas.total(primary));
                acknowledged.add(acknowledged(primary));
            }
            spinning.set(false);
            for (int second = 1; second <= SECONDS; second++) {
                final boolean backlog = acknowledged.get(second - 1) < written.get(second - 1);
                if (backlog && acknowledged.get(second) <= acknowledged.get(second - 1)) {
                    throw new AssertionError("no progress in second " + second + " with excerpts waiting: Kafka's "
                            + "acknowledged excerpts each second were " + acknowledged + ", the journals held "
                            + written + "\n" + shipper.logText());
                }
            }
            Replicas.stop(dir, flow);
            Replicas.await("the replica caught up", 180, () -> Replicas.caughtUp(primary, replica), shipper, receiver);
        } finally {
            spinning.set(false);
            for (final Thread spinner : spinners) {
                spinner.join();
            }
        }
        Excerpts.assertIdentical(primary, replica);
        assertEquals(Excerpts.counts(primary), Excerpts.counts(replica));
    }

    /** @return the excerpts Kafka has acknowledged, over every journal, as the shipper's counters say */
    private static long acknowledged(final Path primary) {
        return new CountersDirectory(primary).read().stream().filter(p -> p.process().equals(Shipper.ROLE))
                .flatMap(p -> p.counters().stream())
                .filter(c -> c.label().metric().equals("sluice_replication_shipped_total"))
                .mapToLong(CountersDirectory.Counter::value).sum();
    }
}
