package io.sluice.bench.engine;

import com.sun.management.ThreadMXBean;
import io.sluice.bench.report.BenchResult;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.AdminResult;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.load.AdminTurns;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.JavaProcess;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench engine-alloc [--orders N] [--heap 256m]}: proves the engine allocates nothing per
 * command. Pre-writes the mixed journal (every {@value #MASS_CANCEL_EVERY}th command of each gateway a mass cancel),
 * then runs the engine on it in a child JVM under Epsilon GC (which never frees anything) with a small fixed heap,
 * an operator's turn on one instrument (halt, resume, close trading: its DAY orders expire, open) appended to the
 * admin journal every {@value #ADMIN_TURN_EVERY} commands, as EngineAllocationTest mixes them in. The engine reads
 * the admin journal first at each poll, so its commands cannot be written up front (they would all be read at the
 * start): the child appends them between polls, on the engine thread, and leaves what appending allocates out of the
 * count. It reads the engine thread's allocated bytes from {@code com.sun.management.ThreadMXBean} after a warm-up
 * of 10 % and at the end. It also checks the counter after every poll, so a residue shows as the few polls that
 * allocated (when, and how much), not only as an
 * average over millions of commands. Measured so far: the one steady residue is Chronicle mapping the next
 * 64 MiB chunk of the engine journal (648 bytes, once every ~138 K commands of the mixed flow, at ~485 bytes of
 * journal a command: per chunk of bytes, not per command), with firm limits on or off (bench/README.md).
 */
@Command(name = "engine-alloc", mixinStandardHelpOptions = true,
        description = "The engine under Epsilon GC: allocated bytes per command on the engine thread.")
public final class EngineAllocBench implements Callable<Integer> {
    /** Each gateway's every N-th command is a mass cancel (EngineAllocationTest's rate). */
    static final int MASS_CANCEL_EVERY = 97;
    /** An operator's turn every N commands processed (EngineAllocationTest's rate). */
    static final int ADMIN_TURN_EVERY = 9_973;

    @Option(names = "--orders", description = "commands (default ${DEFAULT-VALUE})")
    private long orders = 10_000_000;

    @Option(names = "--heap", description = "the child's fixed heap (default ${DEFAULT-VALUE})")
    private String heap = "256m";

    @Option(names = "--firm-limits", description = "run the engine with every firm limit set for every firm (none"
            + " reached), as engine-throughput --firm-limits on")
    private boolean firmLimits;

    @CommandLine.Mixin
    private JournalDirectory journals;

    public static void main(final String[] args) {
        final int code = new CommandLine(new EngineAllocBench()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        return journals.use("sluice-engine-alloc", root -> {
            System.out.printf(Locale.ROOT, "writing %,d mixed commands (every %dth of each gateway a mass cancel) to %s"
                    + " ...%n", orders, MASS_CANCEL_EVERY, root);
            PreWrittenJournals.write(PreWrittenJournals.config(root, IdleConfig.of("spin")), root, orders,
                    MASS_CANCEL_EVERY);
            final List<String> epsilon = List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
                    "-Xms" + heap, "-Xmx" + heap);
            System.out.println("running the engine in a child JVM with " + String.join(" ", epsilon));
            try (JavaProcess child = JavaProcess.start("engine-alloc", root.resolve("child.log"), epsilon,
                    Child.class, root.toString(), Long.toString(orders), heap, Boolean.toString(firmLimits))) {
                final int exit = child.waitFor(3_600);
                System.out.print(child.logText().lines().filter(line -> !line.contains(" INFO "))
                        .reduce("", (all, line) -> all + line + "\n"));
                return exit;
            }
        });
    }

    /** The measured run, in the Epsilon JVM: {@code Child <root> <orders> <heap> <firm limits: true|false>}. */
    public static final class Child {
        private Child() {
        }

        public static void main(final String[] args) {
            final Path root = Path.of(args[0]);
            final long orders = Long.parseLong(args[1]);
            final EngineConfig plain = PreWrittenJournals.config(root, IdleConfig.of("spin"));
            final EngineConfig config = Boolean.parseBoolean(args[3]) ? EngineThroughputBench.withFirmLimits(plain) : plain;
            final ThreadMXBean threads =
                    (ThreadMXBean) ManagementFactory.getThreadMXBean();
            final EngineService service = EngineService.launch(config);
            final AdminJournal adminJournal = AdminJournal.open(root, SystemNanoClock.INSTANCE);
            final AdminCommands toAdminJournal = adminJournal::append;
            final AdminTurns admin = new AdminTurns(config.instruments().getLast().symbol());
            long nextTurnAt = ADMIN_TURN_EVERY;
            long turns = 0;
            final long warmUp = orders / 10;
            while (service.processed() < warmUp) {
                if (service.processed() >= nextTurnAt) {
                    admin.next(toAdminJournal);
                    turns++;
                    nextTurnAt += ADMIN_TURN_EVERY;
                }
                service.poll();
            }
            final AllocationEvents events = new AllocationEvents(threads); // created (and its class loaded) before the baseline
            final long before = events.start();
            final long start = System.nanoTime();
            while (service.processed() < orders) {
                if (service.processed() >= nextTurnAt) {
                    final long mark = events.mark();
                    admin.next(toAdminJournal);
                    events.leaveOut(mark);
                    turns++;
                    nextTurnAt += ADMIN_TURN_EVERY;
                }
                service.poll();
                events.check(service.processed());
            }
            final long nanos = System.nanoTime() - start;
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before - events.leftOut();
            final long measured = orders - warmUp;
            final Runtime runtime = Runtime.getRuntime();
            final long heapUsed = runtime.totalMemory() - runtime.freeMemory();
            service.close();
            adminJournal.close();
            final ReportCounts reports = ReportCounts.of(root);
            System.out.printf(Locale.ROOT, "engine thread: %,d bytes allocated over %,d commands after a %,d warm-up: %.4f bytes/command%n",
                    allocated, measured, warmUp, allocated / (double) measured);
            events.print(System.out, measured);
            System.out.printf(Locale.ROOT, "the mix's mass cancels and admin commands: %,d mass cancel reports (%,d orders"
                            + " canceled), %,d admin commands in %,d operator turns, %,d answered as carried out, %,d DAY"
                            + " orders expired at the closes; appending the admin commands allocated %,d bytes, left out%n",
                    reports.massCancelReports, reports.massCanceled, turns * AdminTurns.commandsPerTurn(), turns,
                    reports.adminAcknowledged, reports.expired, events.leftOut());
            System.out.printf(Locale.ROOT, "heap used at the end (Epsilon never frees): %,d MB of %s; %,d reports; %.2f s%n",
                    heapUsed >> 20, args[2], service.reportsWritten(), nanos / 1e9);
            final Path file = BenchResult.of("engine-alloc").put("commands", orders).put("firmLimits",
                    config.risk() == null ? 0 : 1).put("warmUpCommands", warmUp)
                    .put("allocatedBytes", allocated).put("bytesPerCommand", allocated / (double) measured)
                    .put("pollsThatAllocated", events.count()).put("commandsBetweenAllocations", events.meanInterval())
                    .put("massCancelEvery", MASS_CANCEL_EVERY).put("massCancelReports", reports.massCancelReports)
                    .put("adminTurnEvery", ADMIN_TURN_EVERY).put("adminCommands", turns * AdminTurns.commandsPerTurn())
                    .put("adminAppendBytesLeftOut", events.leftOut())
                    .put("heap", args[2]).put("heapUsedMB", heapUsed >> 20).put("gc", "Epsilon")
                    .write(BenchResult.resultsDir());
            System.out.println("wrote " + file);
        }
    }

    /** What the engine journal says the mix's mass cancels and admin commands did, read after the run. */
    private static final class ReportCounts extends NoOpEngineToGateway {
        long massCancelReports;
        long massCanceled;
        long adminAcknowledged;
        long expired;

        static ReportCounts of(final Path root) {
            final ReportCounts counts = new ReportCounts();
            try (ChronicleQueue journal = Journals.openReadOnly(Journals.engineJournal(root));
                 ExcerptTailer tailer = journal.createTailer();
                 JournalReader reader = new JournalReader(journal, tailer, counts)) {
                while (reader.readOne()) {
                    // counting
                }
            }
            return counts;
        }

        @Override
        public void executionReport(final ExecutionReport report) {
            if (report.execType() == ExecType.EXPIRED) {
                expired++;
            }
        }

        @Override
        public void massCancelReport(final MassCancelReport report) {
            massCancelReports++;
            massCanceled += report.affectedOrders();
        }

        @Override
        public void adminOutcome(final AdminOutcome outcome) {
            if (outcome.result() == AdminResult.ACKNOWLEDGED) {
                adminAcknowledged++;
            }
        }
    }

    /**
     * The polls after which the engine thread's allocation counter had grown: how many, how much, and the first
     * few (command number, bytes), kept in arrays sized up front so the bookkeeping allocates nothing itself.
     */
    static final class AllocationEvents {
        private static final int KEPT = 12;
        private final ThreadMXBean threads;
        private final long[] atCommand = new long[KEPT];
        private final long[] bytes = new long[KEPT];
        private long last;
        private long count;
        private long firstCommand;
        private long lastCommand;
        private long leftOut;

        AllocationEvents(final ThreadMXBean threads) {
            this.threads = threads;
            threads.getCurrentThreadAllocatedBytes(); // a first call may allocate: not in the measurement
        }

        /** @return the engine thread's allocated bytes so far, from which the events are counted */
        long start() {
            last = threads.getCurrentThreadAllocatedBytes();
            return last;
        }

        /** @return the engine thread's allocated bytes now: where what the bench itself does next starts */
        long mark() {
            return threads.getCurrentThreadAllocatedBytes();
        }

        /** Leaves what the engine thread allocated since {@code mark} (the bench's own work) out of the count. */
        void leaveOut(final long mark) {
            final long now = threads.getCurrentThreadAllocatedBytes();
            leftOut += now - mark;
            last = now;
        }

        /** @return the bytes left out */
        long leftOut() {
            return leftOut;
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

        void print(final PrintStream out, final long commands) {
            out.printf(Locale.ROOT, "polls that allocated: %,d of %,d commands (all others: 0 bytes)%s%n", count, commands,
                    count < 2 ? "" : String.format(Locale.ROOT, ", one every %,.0f commands", meanInterval()));
            for (int i = 0; i < Math.min(count, KEPT); i++) {
                out.printf(Locale.ROOT, "  after command %,d: %,d bytes%n", atCommand[i], bytes[i]);
            }
        }
    }
}
