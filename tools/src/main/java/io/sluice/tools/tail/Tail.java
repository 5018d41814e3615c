package io.sluice.tools.tail;

import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.latency.Hop;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.tools.report.LatencyTable;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Follows a set of Sluice journals and prints, every interval, each hop's count, rate and percentiles, and a summary at
 * the end. With them go whatever {@link Findings} say the figures cannot be trusted for. Reads are
 * read-only; a live tail reads in short passes, yielding between them, and sleeps when caught up, so that it
 * takes as little as it can from the writers (see {@link #doWork()}).
 * <p>
 * A tail is an Agrona {@link Agent}: {@code ./sluice tail} runs it on an {@link io.sluice.runtime.agent.AgentThread}
 * sleeping {@link #IDLE} when caught up ({@code onStart} opens the journals, {@code onClose} prints the summary and
 * closes them); a finished set read to its end stops the agent by itself.
 * <p>
 * Each pass reads the gateways' delivery journals first, in step with one another by engine-journal
 * position, pulling the engine and gateway journals just far enough to match what they read; then any
 * reports not delivered; then any commands not answered. So a recorded set is read in one sweep with
 * a join window of a few records, whatever its size.
 * <p>
 * To check a recorded run in a test, on the calling thread: {@code Tail tail = new Tail(new TailOptions().root(dir)
 * .offline(true), out); tail.run();} then read {@link #statistics(Hop)}, {@link #findings()} and {@link #join()}'s counts.
 */
public final class Tail implements Agent, IntervalClock.Listener {
    /**
     * When live and caught up, the tail sleeps 10 ms before looking again: no spinning or yielding, which on a
     * 2-core machine would take a core from the writers, and few wake-ups. It then reads everything written
     * meanwhile in one go; 10 ms late is nothing against a 1 s interval (and intervals follow the journals' clock).
     */
    public static final IdleConfig IDLE = sleep10ms();

    private static final Pattern GATEWAY = Pattern.compile(
            Pattern.quote(Journals.GATEWAY_PREFIX) + "([1-9][0-9]{0,8})(" + Pattern.quote(Journals.OUT_SUFFIX) + ")?");
    /** Records read from one journal in one pass when reading a finished set: long passes, few checks. */
    private static final int OFFLINE_BATCH = 1_024;
    /**
     * Records read from one journal in one pass when live, after which the tail yields the CPU: a pass then
     * takes tens of microseconds, not milliseconds. See {@link #doWork()} for why.
     */
    private static final int LIVE_BATCH = 32;
    private static final int LABEL_WIDTH = 12;
    private static final double TICKS_PER_SECOND = 1e6 * SluiceClock.TICKS_PER_MICRO;

    private final TailOptions options;
    private final PrintStream out;
    private final Findings findings = new Findings();
    private final TailFilter filter;
    private final IntervalClock clock;
    private final LatencyJoin join;
    private final LatencyTable table;
    private final IntervalLog intervalLog;
    private final HopStatistics[] hops = new HopStatistics[Hop.all().length];
    private final boolean live;
    private final int batch;
    private final Set<Path> opened = new HashSet<>();
    private final List<CommandStream> commands = new ArrayList<>();
    private final List<DeliveryStream> deliveries = new ArrayList<>();
    private ReportStream reports;
    private boolean rediscover;
    private long activeTicks;
    private boolean finished;
    private volatile long recordsRead;
    private volatile boolean following;

    /**
     * Prepares to follow the journals under {@code options.root()}; {@link #run()} opens them.
     *
     * @throws IllegalArgumentException if the root is not a directory, or holds no journal when offline
     */
    public Tail(final TailOptions options, final PrintStream out) {
        this.options = options;
        this.out = out;
        if (options.root() == null || !Files.isDirectory(options.root())) {
            throw new IllegalArgumentException("no journal directory at " + options.root());
        }
        live = !options.offline();
        batch = live ? LIVE_BATCH : OFFLINE_BATCH;
        filter = new TailFilter(options.gateways(), options.sessions(), options.sinceTicks(), options.untilTicks());
        clock = new IntervalClock(options.intervalTicks(), this);
        join = new LatencyJoin(filter, findings, clock, options.joinWindow());
        for (final Hop hop : Hop.all()) {
            hops[hop.ordinal()] = join.statistics(hop);
        }
        table = LatencyTable.withRate(out, LABEL_WIDTH);
        intervalLog = options.hlog() == null ? null : new IntervalLog(options.hlog());
        if (options.offline() && journalDirs().isEmpty()) {
            throw new IllegalArgumentException("no Sluice journals under " + options.root().toAbsolutePath()
                    + " (expected " + Journals.ENGINE + ", " + Journals.GATEWAY_PREFIX + "N and "
                    + Journals.GATEWAY_PREFIX + "N" + Journals.OUT_SUFFIX + " directories)");
        }
    }

    /**
     * Reads a finished journal set ({@code offline}) to its end on the calling thread, then prints the summary: the
     * agent's lifecycle driven in place. The journals are opened, read and closed on this thread (Chronicle tailers
     * belong to one thread).
     */
    public void run() {
        if (live) {
            throw new IllegalStateException("a live tail runs on an AgentThread until closed; run() reads a finished set");
        }
        boolean closed = false;
        try {
            onStart();
            while (!finished) {
                pass();
            }
            closed = true;
            onClose();
        } finally {
            if (!closed) {
                closeAll();
            }
        }
    }

    /** Says what each hop spans, then opens the journals, at their end unless reading from the start. */
    @Override
    public void onStart() {
        printHops();
        discover(options.fromStart());
        if (!options.fromStart()) {
            // Everything received from now on is written after the tailers moved to the end, so it is all seen.
            final long now = SluiceClock.nowTicks();
            filter.notBefore(now);
            clock.observe(now);
        }
        following = true;
    }

    /**
     * One pass over the journals. When live, the tail yields the CPU after every pass that read something. It runs at
     * idle priority, so a writer thread that wakes takes the CPU from it at once; but a writer thread that
     * <em>yields</em> (Agrona's back-off and yielding idle strategies do) can hand the CPU to a runnable idle-priority
     * thread and get it back only at that thread's next yield or sleep, or at the next scheduler tick (3.5 ms on the
     * 2-core VM). Short passes with a yield after each bound that to tens of microseconds. A finished set read to its
     * end stops the agent ({@link AgentTerminationException}, no failure).
     *
     * @return records read
     */
    @Override
    public int doWork() {
        final int work = pass();
        if (finished) {
            throw new AgentTerminationException();
        }
        return work;
    }

    /** One pass over the journals: see {@link #doWork()}; a finished set read to its end sets {@code finished}. */
    private int pass() {
        final int work = poll();
        if (work > 0) {
            recordsRead = join.commandsRead() + join.reportsRead() + join.deliveriesRead();
            yieldIfLive();
        } else if (!live) {
            finished = true;
        } else {
            clock.observe(SluiceClock.nowTicks());
            if (rediscover) {
                rediscover = false;
                discover(true);
            }
        }
        return work;
    }

    /** Prints the summary (and the plot) of what was read, then closes the journals. */
    @Override
    public void onClose() {
        try {
            if (following) {
                clock.finish();
                printSummary();
                if (options.plot() != null) {
                    plot(options.plot());
                }
            }
        } finally {
            closeAll();
        }
    }

    private void closeAll() {
        try {
            closeJournals();
        } finally {
            if (intervalLog != null) {
                intervalLog.close();
            }
        }
    }

    @Override
    public String roleName() {
        return "tail";
    }

    private void plot(final Path png) {
        final List<String> labels = new ArrayList<>();
        final List<Histogram> totals = new ArrayList<>();
        for (final HopStatistics hop : hops) {
            labels.add(hop.hop().label());
            totals.add(hop.total());
        }
        PercentilePlot.write(png, "Sluice latency by hop, " + options.root().getFileName(), labels, totals);
    }

    /** @return the statistics of {@code hop}: the current interval's and the closed intervals' total. */
    public HopStatistics statistics(final Hop hop) {
        return hops[hop.ordinal()];
    }

    /** @return whether the tail has opened the journals and follows them: what it reads from then on is new. */
    public boolean following() {
        return following;
    }

    /** @return the records read so far, published once per batch: for watching a running tail from another thread. */
    public long recordsRead() {
        return recordsRead;
    }

    public Findings findings() {
        return findings;
    }

    public LatencyJoin join() {
        return join;
    }

    @Override
    public void intervalEnded(final long startTicks, final long endTicks) {
        final double seconds = (endTicks - startTicks) / TICKS_PER_SECOND;
        out.printf(Locale.ROOT, "%s  +%.6f s%n", instant(startTicks), seconds);
        if (printTable(seconds, false)) {
            activeTicks += endTicks - startTicks;
        }
        findings.printInterval(out);
        if (intervalLog != null) {
            intervalLog.write(startTicks, endTicks, hops);
        }
        for (final HopStatistics hop : hops) {
            hop.closeInterval();
            yieldIfLive();
        }
        rediscover = true;
    }

    /**
     * Yields the CPU when following live journals, between short pieces of work (a pass over the journals, a
     * row of the interval's table), so that an engine or gateway thread that yielded the CPU to this idle-priority
     * process gets it back within tens of microseconds: see {@link #doWork()}.
     */
    private void yieldIfLive() {
        if (live) {
            Thread.yield();
        }
    }

    private void closeJournals() {
        for (final CommandStream stream : commands) {
            stream.close();
        }
        for (final DeliveryStream stream : deliveries) {
            stream.close();
        }
        if (reports != null) {
            reports.close();
        }
    }

    /** Reads deliveries first; undelivered reports only when no deliveries are left; unanswered commands last. */
    private int poll() {
        int work = pollDeliveries();
        if (work < batch) {
            final int reportsRead = pollReports();
            work += reportsRead;
            if (reportsRead < batch) {
                work += pollCommands();
            }
        }
        return work;
    }

    private int pollReports() {
        int read = 0;
        while (reports != null && read < batch && reports.readOne()) {
            read++;
        }
        return read;
    }

    /** Reads up to a batch of deliveries, always from the journal furthest behind in the engine journal. */
    private int pollDeliveries() {
        for (int i = 0; i < deliveries.size(); i++) {
            deliveries.get(i).drained(false);
        }
        int read = 0;
        while (read < batch) {
            DeliveryStream next = null;
            for (int i = 0; i < deliveries.size(); i++) {
                final DeliveryStream stream = deliveries.get(i);
                if (!stream.drained() && (next == null || stream.reportSequence() < next.reportSequence())) {
                    next = stream;
                }
            }
            if (next == null) {
                break;
            }
            if (next.readOne()) {
                read++;
            } else {
                next.drained(true);
            }
        }
        return read;
    }

    private int pollCommands() {
        int read = 0;
        for (int i = 0; i < commands.size(); i++) {
            final CommandStream stream = commands.get(i);
            for (int n = 0; n < batch && stream.readOne(); n++) {
                read++;
            }
        }
        return read;
    }

    /** Opens every journal under the root not opened yet: at the start, and after each interval when live. */
    private void discover(final boolean fromStart) {
        for (final Path dir : journalDirs()) {
            if (opened.contains(dir)) {
                continue;
            }
            final String name = dir.getFileName().toString();
            final Matcher gateway = GATEWAY.matcher(name);
            if (name.equals(Journals.ENGINE)) {
                reports = new ReportStream(dir, fromStart, join, findings);
                join.attach(reports);
            } else if (gateway.matches() && gateway.group(2) == null) {
                final CommandStream stream = new CommandStream(dir, Integer.parseInt(gateway.group(1)), fromStart, join, findings);
                commands.add(stream);
                join.attach(stream);
            } else if (gateway.matches() && filter.acceptsGateway(Integer.parseInt(gateway.group(1)))) {
                deliveries.add(new DeliveryStream(dir, Integer.parseInt(gateway.group(1)), fromStart, join, findings));
            } else {
                continue;
            }
            opened.add(dir);
        }
    }

    /** @return the directories under the root that hold a journal, in name order. */
    private List<Path> journalDirs() {
        try (Stream<Path> list = Files.list(options.root())) {
            return list.filter(dir -> Files.exists(dir.resolve("metadata.cq4t"))).sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list journals in " + options.root().toAbsolutePath(), e);
        }
    }

    /** Prints, once, what each hop of the tables spans. */
    private void printHops() {
        out.println("hops (each from one MetaData timestamp to the next; end to end is their sum):");
        for (final HopStatistics hop : hops) {
            out.printf(Locale.ROOT, "  %-12s %s%n", hop.hop().label(), hop.hop().span());
        }
    }

    /** Prints the totals, with rates over the intervals that had messages (the span may include idle hours). */
    private void printSummary() {
        final long first = clock.firstObserved();
        final double span = first == Long.MIN_VALUE ? 0 : (clock.now() + 1 - first) / TICKS_PER_SECOND;
        final double active = activeTicks / TICKS_PER_SECOND;
        out.printf(Locale.ROOT, "== summary %s .. %s (%.3f s, %.3f s with messages): read %d commands, %d reports, "
                        + "%d deliveries%n", first == Long.MIN_VALUE ? "-" : instant(first), instant(clock.now()), span,
                active, join.commandsRead(), join.reportsRead(), join.deliveriesRead());
        printTable(active, true);
        findings.printSummary(out, join.commandsWithoutReport());
    }

    /** @return whether there was anything to print */
    private boolean printTable(final double seconds, final boolean totals) {
        long count = 0;
        for (final HopStatistics hop : hops) {
            count += (totals ? hop.total() : hop.interval()).getTotalCount();
        }
        if (count == 0) {
            out.println("no messages");
            return false;
        }
        table.header();
        for (final HopStatistics hop : hops) {
            table.rowNanos(hop.hop().label(), totals ? hop.total() : hop.interval(), seconds);
            yieldIfLive();
        }
        return true;
    }

    private static Instant instant(final long ticks) {
        return Instant.ofEpochSecond(0, ticks * SluiceClock.NANOS_PER_TICK);
    }

    private static IdleConfig sleep10ms() {
        return IdleConfig.sleepNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
}
