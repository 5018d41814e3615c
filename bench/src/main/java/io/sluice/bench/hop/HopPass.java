package io.sluice.bench.hop;

import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.agent.IdleConfig;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * One pass of the hop: a fresh journal on disk, a writer thread sending {@code settle + messages} new
 * orders at a fixed rate (or flat out), a reader thread receiving them, then the journal is deleted.
 * <p>
 * At a fixed rate the i-th order's intended send time is {@code start + i / rate}; the writer spins until
 * then and stamps that time (not the time it actually managed to send) into the order, so a stalled writer
 * or reader shows up in the latency of every order behind it (no coordinated omission). Flat out, the
 * intended time is the moment the writer starts the write. Allocation and CPU share are counted per thread
 * ({@link ThreadWindow}) over the measured orders only, after the first {@code settle} orders have opened
 * the cycle file.
 */
final class HopPass {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long STALL_NANOS = 30 * NANOS_PER_SECOND;

    private final HopVariant variant;
    private final long ratePerSecond;
    private final int messages;
    private final int settle;
    private final IdleConfig readerIdle;

    private final CountDownLatch readerReady = new CountDownLatch(1);
    private volatile Throwable failure;
    private long firstMeasuredIntendedNanos;
    private final ThreadWindow writerWindow = new ThreadWindow();
    private final ThreadWindow readerWindow = new ThreadWindow();
    private String writerImplementation;
    private String readerImplementation;

    HopPass(final HopVariant variant, final long ratePerSecond, final int messages, final int settle,
            final IdleConfig readerIdle) {
        if (ratePerSecond < 0 || messages <= 0 || settle < 0) {
            throw new IllegalArgumentException("rate >= 0, messages > 0 and settle >= 0, got rate "
                    + ratePerSecond + ", messages " + messages + ", settle " + settle);
        }
        this.variant = variant;
        this.ratePerSecond = ratePerSecond;
        this.messages = messages;
        this.settle = settle;
        this.readerIdle = readerIdle;
    }

    /** Runs the pass in a new journal directory under {@code parent}, deleted afterwards. */
    PassResult run(final Path parent) throws InterruptedException {
        final Path dir = BenchJournal.createTempDirectory(parent);
        try (ChronicleQueue queue = Journals.open(dir)) {
            final HopReceiver receiver = new HopReceiver(settle);
            final Thread reader = new Thread(() -> guard(() -> read(queue, receiver)), "hop-reader");
            final Thread writer = new Thread(() -> guard(() -> write(queue)), "hop-writer");
            reader.start();
            writer.start();
            writer.join();
            reader.join();
            if (failure != null) {
                throw new IllegalStateException(variant.label() + " pass at " + ratePerSecond + "/s failed", failure);
            }
            return new PassResult(variant, ratePerSecond, receiver.latencyNanos(), messages,
                    receiver.outOfSequence(), receiver.lastReceivedNanos() - firstMeasuredIntendedNanos,
                    writerWindow.allocatedBytes(), readerWindow.allocatedBytes(),
                    writerWindow.cpuShare(), readerWindow.cpuShare(),
                    excerptBytes(queue), writerImplementation, readerImplementation);
        } finally {
            BenchJournal.deleteRecursively(dir);
        }
    }

    private void write(final ChronicleQueue queue) throws InterruptedException {
        final HopWriter writer = variant.writer(queue);
        writerImplementation = writer.implementation();
        final NewOrder order = newOrder();
        final long total = (long) settle + messages;
        readerReady.await();
        final long start = System.nanoTime();
        for (long i = 0; i < total && failure == null; i++) {
            if (i == settle) {
                writerWindow.open();
            }
            final long intended;
            if (ratePerSecond == 0) {
                intended = System.nanoTime();
            } else {
                intended = start + i * NANOS_PER_SECOND / ratePerSecond;
                while (System.nanoTime() < intended) {
                    Thread.onSpinWait();
                }
            }
            if (i == settle) {
                firstMeasuredIntendedNanos = intended;
            }
            order.clOrdId(i + 1);
            order.metaData().eventId(i + 1).fixReceived(intended).commandWriting(SluiceClock.nowTicks());
            writer.write(order);
        }
        writerWindow.close();
    }

    private void read(final ChronicleQueue queue, final HopReceiver receiver) {
        final long total = (long) settle + messages;
        try (ExcerptTailer tailer = queue.createTailer()) {
            final HopReader reader = variant.reader(tailer, receiver);
            readerImplementation = reader.implementation();
            final IdleStrategy idle = readerIdle.newStrategy();
            if (settle == 0) {
                readerWindow.open();
            }
            long lastProgress = System.nanoTime();
            readerReady.countDown();
            while (receiver.received() < total) {
                if (reader.readOne()) {
                    idle.reset();
                    if (receiver.received() == settle) {
                        readerWindow.open();
                    }
                    lastProgress = System.nanoTime();
                } else {
                    idle.idle();
                    if (failure != null || System.nanoTime() - lastProgress > STALL_NANOS) {
                        throw new IllegalStateException("reader stalled after " + receiver.received() + " of "
                                + total + " orders");
                    }
                }
            }
            readerWindow.close();
        }
    }

    private void guard(final Step step) {
        try {
            step.run();
        } catch (final Throwable t) {
            failure = t;
            readerReady.countDown();
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** @return the order every pass sends, its identifiers and timestamps overwritten per message. */
    static NewOrder newOrder() {
        final NewOrder order = new NewOrder();
        final ShortTextLongConverter text = ShortTextLongConverter.INSTANCE;
        order.session(text.parse("HOPCLIENT")).account(text.parse("HOPACC")).symbol(text.parse("VOD.L"))
                .side(Side.BUY).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY)
                .orderQty(100).price(Price.of(100));
        order.metaData().sourceId(1);
        return order;
    }

    private static long excerptBytes(final ChronicleQueue queue) {
        try (ExcerptTailer tailer = queue.createTailer(); DocumentContext dc = tailer.readingDocument()) {
            return dc.isPresent() ? dc.wire().bytes().readRemaining() : 0;
        }
    }
}
