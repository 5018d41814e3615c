package io.sluice.tools.tail;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.config.DurationText;
import io.sluice.runtime.process.CpuPinning;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ./sluice tail}: per-hop latency percentiles from live or recorded journals. */
@Command(name = "tail", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Follows the gateway and engine journals under a root directory (read-only), matches reports "
                + "and deliveries to their commands through MetaData (sourceId, eventId) and prints every interval, "
                + "per hop and end to end: count, rate, mean, p50, p90, p99, p99.9, p99.99 and max in µs; a summary "
                + "on exit (Ctrl-C, or the end of the journals with --offline). Lines starting with '!' report "
                + "eventId gaps, negative hops (a clock going backwards) and records that match nothing.%n")
public final class TailMain implements Callable<Integer> {
    private static final long SHUTDOWN_WAIT_SECONDS = 10;
    /** The JVM flags a live tail adds to jvm.options, relative to the project root; the launcher adds them. */
    public static final String LIVE_JVM_OPTIONS = "tools/tail-live.options";
    /** The JIT's tiered compilation level 4 is C2's. */
    private static final int FULL_OPTIMIZATION_LEVEL = 4;

    @Option(names = "--root", required = true, paramLabel = "DIR",
            description = "Directory holding the journals: gateway-N, gateway-N-out, engine.")
    private Path root;

    @Option(names = "--interval", defaultValue = "1s", paramLabel = "DURATION",
            description = "Reporting interval, e.g. 1s, 500ms, 1m (default ${DEFAULT-VALUE}).")
    private String interval;

    @Option(names = "--from-start", description = "Read the journals from their start, then keep following them.")
    private boolean fromStart;

    @Option(names = "--offline", description = "Read a finished journal set from its start; stop at its end.")
    private boolean offline;

    @Option(names = "--gateway", split = ",", paramLabel = "ID",
            description = "Only messages of these gateways (commands they sent, reports they deliver).")
    private List<Integer> gateways = List.of();

    @Option(names = "--session", split = ",", paramLabel = "COMPID",
            description = "Only messages of these FIX sessions (client SenderCompIDs).")
    private List<String> sessions = List.of();

    @Option(names = "--since", paramLabel = "INSTANT",
            description = "Only messages received at or after this UTC time, e.g. 2026-11-22T10:00:00Z.")
    private String since;

    @Option(names = "--until", paramLabel = "INSTANT", description = "Only messages received before this UTC time.")
    private String until;

    @Option(names = "--hlog", paramLabel = "FILE", description = "Write an HdrHistogram interval log, one tag per hop.")
    private Path hlog;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Draw the percentile distribution per hop at the end.")
    private Path plot;

    @Option(names = "--priority", paramLabel = "idle|normal",
            description = "Scheduling priority of this process: idle (Linux SCHED_IDLE: it runs only on CPU time the"
                    + " engine and gateways leave; the default when following live journals)"
                    + " or normal (the default with --offline, which has no writers to protect).")
    private String priority;

    @Option(names = "--join-window", defaultValue = "65536", paramLabel = "N",
            description = "Inputs remembered per gateway for matching, a power of two (default ${DEFAULT-VALUE}).")
    private int joinWindow;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(final String[] args) {
        SigtermHook.handleSignals();
        System.exit(new CommandLine(new TailMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        final TailOptions options = new TailOptions().root(root).intervalTicks(durationTicks(interval))
                .fromStart(fromStart).offline(offline)
                .gateways(gateways.stream().mapToInt(Integer::intValue).toArray())
                .sessions(sessions.stream().mapToLong(this::session).toArray())
                .sinceTicks(since == null ? Long.MIN_VALUE : instantTicks("--since", since))
                .untilTicks(until == null ? Long.MAX_VALUE : instantTicks("--until", until))
                .hlog(hlog).plot(plot).joinWindow(joinWindow);
        final boolean idlePriority = priority == null ? !offline : switch (priority) {
            case "idle" -> true;
            case "normal" -> false;
            default -> throw parameterError("--priority: '" + priority + "' must be idle or normal");
        };
        System.out.println("tail: " + compilers(!offline));
        final Tail tail;
        try {
            tail = new Tail(options, System.out);
        } catch (final IllegalArgumentException e) {
            System.err.println("tail: " + e.getMessage());
            return 1;
        }
        // The tail as an agent on a thread of its own, at idle priority unless asked otherwise (set in its onStart);
        // SIGTERM (Ctrl-C) closes it, which prints the summary; a finished set read to its end stops it by itself.
        final AgentThread thread = AgentThread.start(tail, Tail.IDLE.newStrategy(), CpuPinning.NONE,
                idlePriority ? AgentThread.Priority.IDLE_PROCESS : AgentThread.Priority.NORMAL);
        final SigtermHook hook = SigtermHook.install("tail", SHUTDOWN_WAIT_SECONDS, SystemNanoClock.INSTANCE, thread);
        thread.awaitClosed();
        hook.close();
        System.out.flush();
        final Throwable failure = thread.failure();
        if (failure instanceof IllegalArgumentException || failure instanceof UncheckedIOException) {
            System.err.println("tail: " + failure.getMessage());
            return 1;
        }
        if (failure != null) {
            System.err.println("tail: stopped by an unforeseen failure:");
            failure.printStackTrace();
            return 1;
        }
        return 0;
    }

    /** @return which JIT compilers this JVM uses: C1 only for a live tail that the launcher started ({@value #LIVE_JVM_OPTIONS}). */
    static String compilers(final boolean live) {
        final String level = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("TieredStopAtLevel").getValue();
        if (Integer.parseInt(level) < FULL_OPTIMIZATION_LEVEL) {
            return "JIT compiles with C1 only (TieredStopAtLevel=" + level + "), to take less CPU from the writers";
        }
        return "JIT compiles with C1 and C2" + (live ? " (./sluice tail gives a live tail C1 only: " + LIVE_JVM_OPTIONS + ")" : "");
    }

    private long durationTicks(final String text) {
        final long nanos;
        try {
            nanos = DurationText.parse(text).toNanos();
        } catch (final IllegalArgumentException e) {
            throw parameterError("--interval: " + e.getMessage());
        }
        final long ticks = (nanos + SluiceClock.NANOS_PER_TICK / 2) / SluiceClock.NANOS_PER_TICK;
        if (ticks <= 0) {
            throw parameterError("--interval: '" + text + "' must be longer than 0.1 µs");
        }
        return ticks;
    }

    private long instantTicks(final String option, final String text) {
        try {
            final Instant instant = Instant.parse(text);
            return instant.getEpochSecond() * 1_000_000 * SluiceClock.TICKS_PER_MICRO
                    + instant.getNano() / SluiceClock.NANOS_PER_TICK;
        } catch (final DateTimeParseException e) {
            throw parameterError(option + ": '" + text + "' is not a UTC time such as 2026-11-22T10:00:00Z");
        }
    }

    private long session(final String text) {
        try {
            if (text.isEmpty() || text.length() > 10) {
                throw new IllegalArgumentException("length " + text.length());
            }
            return ShortTextLongConverter.INSTANCE.parse(text);
        } catch (final IllegalArgumentException e) {
            throw parameterError("--session: '" + text + "' is not a SenderCompID of 1 to 10 characters from "
                    + "Chronicle's short-text set (" + e.getMessage() + ")");
        }
    }

    private CommandLine.ParameterException parameterError(final String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
