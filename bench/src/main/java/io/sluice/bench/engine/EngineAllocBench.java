package io.sluice.bench.engine;

import io.sluice.bench.report.BenchResult;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.bench.IdleOption;
import io.sluice.runtime.agent.IdleConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench engine-alloc [--orders N] [--heap 256m]}: proves the engine allocates nothing per
 * command. Pre-writes the mixed journal, then runs the engine on it in a child JVM under Epsilon GC (which
 * never frees anything) with a small fixed heap, reading the engine thread's allocated bytes from
 * {@code com.sun.management.ThreadMXBean} after a warm-up of 10 % and at the end. It also checks the counter
 * after every poll, so a residue shows as the few polls that allocated (when, and how much), not only as an
 * average over millions of commands. Measured so far: the one steady residue is Chronicle mapping the next
 * 64 MiB chunk of the engine journal (about 650 bytes, once every ~165 K commands of the mixed flow).
 */
@Command(name = "engine-alloc", mixinStandardHelpOptions = true,
        description = "The engine under Epsilon GC: allocated bytes per command on the engine thread.")
public final class EngineAllocBench implements Callable<Integer> {
    @Option(names = "--orders", description = "commands (default ${DEFAULT-VALUE})")
    private long orders = 10_000_000;

    @Option(names = "--heap", description = "the child's fixed heap (default ${DEFAULT-VALUE})")
    private String heap = "256m";

    @CommandLine.Mixin
    private JournalDirectory journals;

    public static void main(final String[] args) {
        final int code = new CommandLine(new EngineAllocBench()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        return journals.use("sluice-engine-alloc", root -> {
            System.out.printf(Locale.ROOT, "writing %,d mixed commands to %s ...%n", orders, root);
            PreWrittenJournals.write(PreWrittenJournals.config(root, IdleConfig.of("spin")), root, orders);
            final List<String> epsilon = List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
                    "-Xms" + heap, "-Xmx" + heap);
            System.out.println("running the engine in a child JVM with " + String.join(" ", epsilon));
            try (JavaProcess child = JavaProcess.start("engine-alloc", root.resolve("child.log"), epsilon,
                    Child.class, root.toString(), Long.toString(orders), heap)) {
                final int exit = child.waitFor(3_600);
                System.out.print(child.logText().lines().filter(line -> !line.contains(" INFO "))
                        .reduce("", (all, line) -> all + line + "\n"));
                return exit;
            }
        });
    }

    /** The measured run, in the Epsilon JVM: {@code Child <root> <orders> <heap>}. */
    public static final class Child {
        private Child() {
        }

        public static void main(final String[] args) {
            final Path root = Path.of(args[0]);
            final long orders = Long.parseLong(args[1]);
            final EngineConfig config = PreWrittenJournals.config(root, IdleConfig.of("spin"));
            final com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            final EngineService service = new EngineService(config);
            service.recover();
            final long warmUp = orders / 10;
            while (service.processed() < warmUp) {
                service.poll();
            }
            final AllocationEvents events = new AllocationEvents(threads); // created (and its class loaded) before the baseline
            final long before = events.start();
            final long start = System.nanoTime();
            while (service.processed() < orders) {
                service.poll();
                events.check(service.processed());
            }
            final long nanos = System.nanoTime() - start;
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            final long measured = orders - warmUp;
            final Runtime runtime = Runtime.getRuntime();
            final long heapUsed = runtime.totalMemory() - runtime.freeMemory();
            service.close();
            System.out.printf(Locale.ROOT, "engine thread: %,d bytes allocated over %,d commands after a %,d warm-up: %.4f bytes/command%n",
                    allocated, measured, warmUp, allocated / (double) measured);
            events.print(System.out, measured);
            System.out.printf(Locale.ROOT, "heap used at the end (Epsilon never frees): %,d MB of %s; %,d reports; %.2f s%n",
                    heapUsed >> 20, args[2], service.reportsWritten(), nanos / 1e9);
            final Path file = BenchResult.of("engine-alloc").put("commands", orders).put("warmUpCommands", warmUp)
                    .put("allocatedBytes", allocated).put("bytesPerCommand", allocated / (double) measured)
                    .put("pollsThatAllocated", events.count()).put("commandsBetweenAllocations", events.meanInterval())
                    .put("heap", args[2]).put("heapUsedMB", heapUsed >> 20).put("gc", "Epsilon")
                    .write(BenchResult.resultsDir());
            System.out.println("wrote " + file);
        }
    }

    /**
     * The polls after which the engine thread's allocation counter had grown: how many, how much, and the first
     * few (command number, bytes), kept in arrays sized up front so the bookkeeping allocates nothing itself.
     */
    static final class AllocationEvents {
        private static final int KEPT = 12;
        private final com.sun.management.ThreadMXBean threads;
        private final long[] atCommand = new long[KEPT];
        private final long[] bytes = new long[KEPT];
        private long last;
        private long count;
        private long firstCommand;
        private long lastCommand;

        AllocationEvents(final com.sun.management.ThreadMXBean threads) {
            this.threads = threads;
            threads.getCurrentThreadAllocatedBytes(); // a first call may allocate: not in the measurement
        }

        /** @return the engine thread's allocated bytes so far, from which the events are counted */
        long start() {
            last = threads.getCurrentThreadAllocatedBytes();
            return last;
        }

        /** Call after each poll, with the commands processed so far. */
        void check(final long processed) {
            final long now = threads.getCurrentThreadAllocatedBytes();
            if (now != last) {
                if (count < KEPT) {
                    atCommand[(int) count] = processed;
                    bytes[(int) count] = now - last;
                }
                if (count == 0) {
                    firstCommand = processed;
                }
                lastCommand = processed;
                count++;
                last = now;
            }
        }

        long count() {
            return count;
        }

        /** @return the mean number of commands between the first and the last allocating poll, 0 if fewer than two. */
        double meanInterval() {
            return count < 2 ? 0 : (lastCommand - firstCommand) / (double) (count - 1);
        }

        void print(final java.io.PrintStream out, final long commands) {
            out.printf(Locale.ROOT, "polls that allocated: %,d of %,d commands (all others: 0 bytes)%s%n", count, commands,
                    count < 2 ? "" : String.format(Locale.ROOT, ", one every %,.0f commands", meanInterval()));
            for (int i = 0; i < Math.min(count, KEPT); i++) {
                out.printf(Locale.ROOT, "  after command %,d: %,d bytes%n", atCommand[i], bytes[i]);
            }
        }
    }
}
