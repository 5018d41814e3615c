package io.sluice.runtime.counters;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CountersDirectoryTest {
    @TempDir
    Path root;

    @Test
    void aReaderSeesWhatAProcessWroteThroughTheRootAlone() {
        try (CountersFile file = CountersFile.create(root, "engine")) {
            final AtomicCounter commands = file.counter(CounterLabel.of("sluice_engine_commands_total", "type", "new_order"));
            final AtomicCounter depth = file.gauge(CounterLabel.of("sluice_engine_resting_orders", "instrument", "ACME"));
            commands.increment();
            commands.increment();
            depth.setOrdered(7);

            final List<CountersDirectory.ProcessCounters> read = new CountersDirectory(root).read();
            assertEquals(1, read.size());
            final CountersDirectory.ProcessCounters engine = read.getFirst();
            assertEquals("engine", engine.process());
            assertEquals(ProcessHandle.current().pid(), engine.pid());
            assertEquals(CountersDirectory.Liveness.RUNNING, engine.liveness());
            assertEquals(List.of(
                    new CountersDirectory.Counter(new CounterLabel("sluice_engine_commands_total", Map.of("type", "new_order")), false, 2),
                    new CountersDirectory.Counter(new CounterLabel("sluice_engine_resting_orders", Map.of("instrument", "ACME")), true, 7)),
                    engine.counters());
        }
    }

    @Test
    void aFileWithRoomForMoreCountersIsReadToItsLastCounter() {
        final int capacity = CountersFile.DEFAULT_COUNTERS * 3;
        try (CountersFile file = CountersFile.create(root, "engine", capacity)) {
            for (int i = 0; i < capacity; i++) {
                file.gauge(CounterLabel.of("sluice_engine_firm_open_orders", "firm", "F" + i)).setOrdered(i);
            }
            final List<CountersDirectory.Counter> counters = new CountersDirectory(root).read().getFirst().counters();
            assertEquals(capacity, counters.size());
            assertEquals(new CountersDirectory.Counter(new CounterLabel("sluice_engine_firm_open_orders",
                    Map.of("firm", "F" + (capacity - 1))), true, capacity - 1), counters.getLast());
        }
        assertThrows(IllegalArgumentException.class,
                () -> CountersFile.create(root, "engine", CountersFile.MOST_COUNTERS + 1));
    }

    @Test
    void aFileOfADeadProcessIsStale() throws Exception {
        CountersFile.create(root, "gateway-1").close();
        // A pid no process has: above the kernel's pid_max.
        try (RandomAccessFile raf = new RandomAccessFile(CountersFile.path(root, "gateway-1").toFile(), "rw")) {
            new UnsafeBuffer(raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, 16))
                    .putLong(CountersFile.PID_OFFSET, 1L << 40);
        }
        assertEquals(CountersDirectory.Liveness.STOPPED, new CountersDirectory(root).read().getFirst().liveness());
    }

    @Test
    void aRestartedProcessRewritesItsFile() {
        try (CountersFile first = CountersFile.create(root, "engine")) {
            first.counter(CounterLabel.of("a_total")).increment();
        }
        try (CountersFile second = CountersFile.create(root, "engine")) {
            second.counter(CounterLabel.of("b_total"));
            assertEquals(List.of(new CountersDirectory.Counter(CounterLabel.of("b_total"), false, 0)),
                    new CountersDirectory(root).read().getFirst().counters());
        }
    }

    @Test
    void labelsRoundTripAndBadOnesAreRefused() {
        final CounterLabel label = CounterLabel.of("sluice_fix_messages_total", "session", "CLIENT1-SLUICE", "direction", "in");
        assertEquals("sluice_fix_messages_total direction=in session=CLIENT1-SLUICE", label.text());
        assertEquals(label, CounterLabel.parse(label.text()));
        assertThrows(IllegalArgumentException.class, () -> CounterLabel.of("bad name"));
        assertThrows(IllegalArgumentException.class, () -> CounterLabel.of("m", "k", "a b"));
        assertThrows(IllegalArgumentException.class, () -> CounterLabel.parse("m k"));
        assertFalse(new CountersDirectory(root.resolve("none")).read().iterator().hasNext());
    }
}
