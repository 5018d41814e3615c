package io.sluice.bench.hop;

import io.sluice.contracts.NewOrder;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * JMH companion of {@link JournalHopBench}: the cost of one append and of one read, single-threaded, for
 * each {@link HopVariant}, without the scheduling noise of a two-thread hop. Where the hop's contract/raw
 * ratio comes from shows up here as nanoseconds per write or read. Run it with
 * <pre>java @jvm.options -cp bench/target/classes:$(cat bench/target/classpath.txt) io.sluice.bench.hop.HopCodecBench</pre>
 * (the forked JVM gets the same flags). Appends write about 0.5 GB of journal per variant, deleted afterwards.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class HopCodecBench {
    private static final int READ_BACKLOG = 1_000_000;

    @Param({"CONTRACT", "RAW"})
    public String variant;

    private Path dir;
    private ChronicleQueue queue;
    private HopWriter writer;
    private NewOrder order;
    private ExcerptTailer tailer;
    private HopReader reader;

    @Setup(Level.Trial)
    public void open() {
        dir = BenchJournal.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")));
        queue = Journals.open(dir);
        final HopVariant hop = HopVariant.valueOf(variant);
        writer = hop.writer(queue);
        order = HopPass.newOrder();
        for (int i = 1; i <= READ_BACKLOG; i++) {
            order.metaData().eventId(i);
            writer.write(order);
        }
        tailer = queue.createTailer();
        reader = hop.reader(tailer, new HopReceiver(Integer.MAX_VALUE));
    }

    @TearDown(Level.Trial)
    public void close() {
        tailer.close();
        queue.close();
        BenchJournal.deleteRecursively(dir);
    }

    /** One append of a new order through this variant's writer. */
    @Benchmark
    public void write() {
        writer.write(order);
    }

    /** One read of a new order through this variant's reader, starting over at the end of the journal. */
    @Benchmark
    public boolean read() {
        if (reader.readOne()) {
            return true;
        }
        tailer.toStart();
        return false;
    }

    public static void main(final String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(HopCodecBench.class.getName()).build()).run();
    }
}
