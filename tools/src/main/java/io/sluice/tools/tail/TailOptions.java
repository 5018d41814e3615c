package io.sluice.tools.tail;

import io.sluice.contracts.time.SluiceClock;

import java.nio.file.Path;

/**
 * What a {@link Tail} follows and what it writes. The journal root, the mode (live from now, live from the start, or
 * offline over a finished journal set), filters, and the optional interval log and plot.
 * Filled fluently, like an Aeron context; defaults are live from now with 1 s intervals.
 */
public final class TailOptions {
    /** Inputs remembered per gateway for matching: enough for any lag between journals seen in practice. */
    public static final int DEFAULT_JOIN_WINDOW = 1 << 16;

    private Path root;
    private long intervalTicks = 1_000 * 1_000 * SluiceClock.TICKS_PER_MICRO;
    private boolean fromStart;
    private boolean offline;
    private int[] gateways = {};
    private long[] sessions = {};
    private long sinceTicks = Long.MIN_VALUE;
    private long untilTicks = Long.MAX_VALUE;
    private Path hlog;
    private Path plot;
    private int joinWindow = DEFAULT_JOIN_WINDOW;

    public Path root() {
        return root;
    }

    /** The directory holding the journals ({@code gateway-N}, {@code gateway-N-out}, {@code engine}). */
    public TailOptions root(final Path root) {
        this.root = root;
        return this;
    }

    public long intervalTicks() {
        return intervalTicks;
    }

    public TailOptions intervalTicks(final long intervalTicks) {
        this.intervalTicks = intervalTicks;
        return this;
    }

    public boolean fromStart() {
        return fromStart || offline;
    }

    /** Read the journals from their start, then keep following them. */
    public TailOptions fromStart(final boolean fromStart) {
        this.fromStart = fromStart;
        return this;
    }

    public boolean offline() {
        return offline;
    }

    /** Read a finished journal set from its start and stop at its end. */
    public TailOptions offline(final boolean offline) {
        this.offline = offline;
        return this;
    }

    public int[] gateways() {
        return gateways;
    }

    /** Follow only these gateways' messages; none means all. */
    public TailOptions gateways(final int... gateways) {
        this.gateways = gateways.clone();
        return this;
    }

    public long[] sessions() {
        return sessions;
    }

    /** Follow only these sessions (packed SenderCompIDs); none means all. */
    public TailOptions sessions(final long... sessions) {
        this.sessions = sessions.clone();
        return this;
    }

    public long sinceTicks() {
        return sinceTicks;
    }

    /** Count only messages whose FIX bytes arrived at or after this time. */
    public TailOptions sinceTicks(final long sinceTicks) {
        this.sinceTicks = sinceTicks;
        return this;
    }

    public long untilTicks() {
        return untilTicks;
    }

    /** Count only messages whose FIX bytes arrived before this time. */
    public TailOptions untilTicks(final long untilTicks) {
        this.untilTicks = untilTicks;
        return this;
    }

    public Path hlog() {
        return hlog;
    }

    /** Write an HdrHistogram interval log here, one tag per hop; null for none. */
    public TailOptions hlog(final Path hlog) {
        this.hlog = hlog;
        return this;
    }

    public Path plot() {
        return plot;
    }

    /** Draw the run's percentile distribution into this PNG file at the end; null for none. */
    public TailOptions plot(final Path plot) {
        this.plot = plot;
        return this;
    }

    public int joinWindow() {
        return joinWindow;
    }

    /** Inputs remembered per gateway for matching, a power of two. */
    public TailOptions joinWindow(final int joinWindow) {
        this.joinWindow = joinWindow;
        return this;
    }
}
