package io.sluice.bench.fix;

import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.LatencySamples;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.OrderTerms;
import io.sluice.tools.fix.Watchdog;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Measures several targets side by side the way every FIX benchmark here does. A fresh session per target sends {@code
 * warmup} orders whose round trips are thrown away (JIT and caches), then the {@code orders} measured ones; both go out
 * in {@code rounds} slices, target after target in turn, so that a change in the machine's background load (other
 * processes, compilers) falls on every target alike instead of on whichever happened to run at that moment. At most
 * {@code window} orders are outstanding. The same code measures Sluice
 * and the QuickFIX/J baseline.
 */
public final class FixMeasurement {
    private static final Duration LOGON_TIMEOUT = Duration.ofSeconds(30);
    private static final int BOOTSTRAP_RESAMPLES = 1_000;

    private final OrderTerms buy;
    private final Duration runTimeout;
    private final PrintStream progress;
    private final Consumer<FixTarget> beforeTurn;
    private boolean alternating;

    /**
     * @param buy        the order every NewOrderSingle carries
     * @param runTimeout the longest one slice of orders may take before the benchmark gives up
     */
    public FixMeasurement(final OrderTerms buy, final Duration runTimeout, final PrintStream progress) {
        this(buy, runTimeout, progress, target -> { });
    }

    /**
     * @param beforeTurn called before each target's turn (its warm-up, each of its slices), e.g. to resume its
     *                   processes and pause the others'
     */
    public FixMeasurement(final OrderTerms buy, final Duration runTimeout, final PrintStream progress,
                          final Consumer<FixTarget> beforeTurn) {
        this.buy = buy;
        this.runTimeout = runTimeout;
        this.progress = progress;
        this.beforeTurn = beforeTurn;
    }

    /**
     * Reverses the targets' order every other round (A B, B A, A B, ...), so that neither always goes first after
     * the other: for arms whose turns themselves change the machine (processes stopped and resumed). @return this
     */
    public FixMeasurement alternating() {
        this.alternating = true;
        return this;
    }

    /** @return one measured run per target, in the order given. */
    public List<MeasuredRun> measure(final List<FixTarget> targets, final int window, final long warmup,
                                     final long orders, final int rounds) throws IOException {
        return measure(targets, window, warmup, orders, rounds, () -> { });
    }

    /**
     * As {@link #measure(List, int, long, long, int)}, calling {@code afterWarmup} once the warm-up is done and before
     * the first measured order, e.g. to read the CPU time processes have used so far.
     */
    public List<MeasuredRun> measure(final List<FixTarget> targets, final int window, final long warmup,
                                     final long orders, final int rounds, final Runnable afterWarmup)
            throws IOException {
        final List<Subject> subjects = new ArrayList<>();
        try {
            for (final FixTarget target : targets) {
                subjects.add(new Subject(target, window, orders));
            }
            // The warm-up goes out in slices too, targets taking turns: a session left idle while a slow target warms
            // up alone would outlast the gateway's heartbeat and test request (about 66 s) and be logged out.
            for (final Subject subject : subjects) {
                progress.printf("%s: %,d warm-up orders (window %d) ...%n", subject.target.label(), warmup, window);
            }
            for (int round = 0; round < rounds; round++) {
                final long slice = warmup / rounds + (round < warmup % rounds ? 1 : 0);
                for (final Subject subject : subjects) {
                    beforeTurn.accept(subject.target);
                    subject.run(slice);
                }
            }
            afterWarmup.run();
            for (final Subject subject : subjects) {
                subject.startMeasuring();
            }
            progress.printf("%,d measured orders per target in %d rounds, targets taking turns ...%n", orders, rounds);
            for (int round = 0; round < rounds; round++) {
                final long slice = orders / rounds + (round < orders % rounds ? 1 : 0);
                for (int i = 0; i < subjects.size(); i++) {
                    final Subject subject = subjects.get(alternating && round % 2 == 1 ? subjects.size() - 1 - i : i);
                    beforeTurn.accept(subject.target);
                    subject.measureSlice(slice);
                }
            }
            final List<MeasuredRun> runs = new ArrayList<>();
            for (final Subject subject : subjects) {
                beforeTurn.accept(subject.target);
                subject.session.logout();
                runs.add(subject.result(orders));
            }
            return runs;
        } finally {
            for (final Subject subject : subjects) {
                subject.session.close();
            }
        }
    }

    /** One target under measurement: its logged-on session, its load and what it has recorded. */
    private final class Subject {
        private final FixTarget target;
        private final FixClientSession session;
        private final OrderLoad load;
        private final Recorder recorder = OrderLoad.newRecorder();
        private final LatencySamples samples;
        private final int window;
        private long filledBefore;
        private long measuredNanos;

        Subject(final FixTarget target, final int window, final long orders) throws IOException {
            this.target = target;
            this.window = window;
            this.samples = new LatencySamples((int) orders);
            this.session = new FixClientSession(target.endpoint(), target.identity());
            session.logon(LOGON_TIMEOUT);
            this.load = new OrderLoad(session, buy, window, 1, recorder);
        }

        void startMeasuring() {
            recorder.reset();
            load.samples(samples);
            filledBefore = load.filled();
        }

        void measureSlice(final long orders) throws IOException {
            final long start = System.nanoTime();
            run(orders);
            measuredNanos += System.nanoTime() - start;
        }

        void run(final long orders) throws IOException {
            final long completedBefore = load.completed();
            final boolean finished;
            try (Watchdog ignored = Watchdog.closeAfter(runTimeout.plusSeconds(10), session)) {
                finished = load.run(orders, System.nanoTime() + runTimeout.toNanos());
            }
            if (!finished || load.completed() - completedBefore != orders) {
                throw new IOException(target.label() + ": only " + (load.completed() - completedBefore) + " of "
                        + orders + " orders finished within " + runTimeout.toSeconds() + " s"
                        + (load.firstRejectText() != null ? "; first reject: " + load.firstRejectText() : ""));
            }
            if (load.rejected() > 0) {
                throw new IOException(target.label() + ": " + load.rejected() + " orders rejected, first: "
                        + load.firstRejectText());
            }
        }

        MeasuredRun result(final long orders) {
            final double[] interval = samples.bootstrapMeanInterval(0.95, BOOTSTRAP_RESAMPLES, 42);
            return new MeasuredRun(target, window, recorder.getIntervalHistogram(), samples.mean(), interval[0],
                    interval[1], orders, load.filled() - filledBefore, load.rejected(), measuredNanos);
        }
    }
}
