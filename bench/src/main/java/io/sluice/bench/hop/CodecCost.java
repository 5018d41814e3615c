package io.sluice.bench.hop;

import io.sluice.contracts.NewOrder;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;

/**
 * The CPU time one thread spends per append and per read of a variant: {@code messages} orders written to
 * a fresh journal, then read back, timed with the thread's own CPU clock. Unlike the hop's wall-clock
 * latency it barely moves when other processes take the CPU away, so it shows what the contract layer
 * costs even on a busy machine.
 *
 * @param variant    contract or raw
 * @param writeNanos CPU nanoseconds per append (page faults of new journal pages included)
 * @param readNanos  CPU nanoseconds per read
 */
record CodecCost(HopVariant variant, double writeNanos, double readNanos) {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Measures {@code variant} on the calling thread, in a journal under {@code parent} deleted afterwards. */
    static CodecCost measure(final HopVariant variant, final int messages, final Path parent) {
        final Path dir = BenchJournal.createTempDirectory(parent);
        try (ChronicleQueue queue = Journals.open(dir)) {
            final HopWriter writer = variant.writer(queue);
            final NewOrder order = HopPass.newOrder();
            final long writeStart = THREADS.getCurrentThreadCpuTime();
            for (int i = 1; i <= messages; i++) {
                order.metaData().eventId(i);
                writer.write(order);
            }
            final long writeCpu = THREADS.getCurrentThreadCpuTime() - writeStart;
            final HopReceiver receiver = new HopReceiver(Integer.MAX_VALUE);
            try (ExcerptTailer tailer = queue.createTailer()) {
                final HopReader reader = variant.reader(tailer, receiver);
                final long readStart = THREADS.getCurrentThreadCpuTime();
                while (reader.readOne()) {
                    // count only: the receiver checks the sequence
                }
                final long readCpu = THREADS.getCurrentThreadCpuTime() - readStart;
                if (receiver.received() != messages || receiver.outOfSequence() != 0) {
                    throw new IllegalStateException(variant.label() + " read back " + receiver.received() + " of "
                            + messages + " orders, " + receiver.outOfSequence() + " out of sequence");
                }
                return new CodecCost(variant, writeCpu / (double) messages, readCpu / (double) messages);
            }
        } finally {
            BenchJournal.deleteRecursively(dir);
        }
    }
}
