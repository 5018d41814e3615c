package io.sluice.runtime.journal;

import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.concurrent.Agent;

import java.io.File;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * Faults in the pages of a journal's cycle file ahead of its appender, on a thread of its own. So the appending thread
 * does not stop in the kernel each time it first writes a page; it is an Agrona {@link Agent} run by an {@link
 * io.sluice.runtime.agent.AgentThread}, alone or beside a {@link JournalSpaceKeeper}. On the 2-core VM the engine
 * thread spent 40-50 % of its time in the kernel on those faults (8 µs a page); with this pretoucher beside it
 * that fell to 2-4 % and the engine ran about 1.5 times as fast (3 M commands: 470-480 k/s without, 720-770 k/s
 * with). Chronicle Queue's own pretoucher is an Enterprise feature.
 * <p>
 * The pretoucher maps the cycle file itself and touches one long per page, a compare-and-set of 0 with 0:
 * atomic, so a byte the appender wrote is never changed, and a page still all zero becomes resident and
 * writable. It never grows the file (Chronicle does) and never touches what lies behind the appender.
 * It touches only pages with disk blocks reserved behind them ({@link FileReservation}, before touching): a
 * touch of a page of a sparse file on a full filesystem would otherwise kill the process with SIGBUS. Where no
 * block can be reserved it stops touching, says so once, and tries again on later rounds.
 * <p>
 * The appending thread calls {@link #follow(ExcerptAppender)} now and then, e.g. once per poll: it publishes
 * the cycle file and the write position, which is all that crosses threads. A failure to map or touch is
 * printed once and ends the pretouching, never the appender's work nor the process. A round ({@link #doWork()})
 * touches at most {@value #PAGES_PER_ROUND} pages, so an agent sharing the thread waits a few milliseconds at most.
 */
public final class JournalPretoucher implements Agent, AutoCloseable {
    /** How far ahead of the appender pages are touched by default: 64 MiB, a Chronicle mapping chunk. */
    public static final long DEFAULT_AHEAD_BYTES = 64L << 20;
    private static final long PAGE_BYTES = 4096;
    private static final long WINDOW_BYTES = 256L << 20;
    private static final int PAGES_PER_ROUND = 1024;
    private static final long RESERVE_STEP_BYTES = 4L << 20;
    private static final int RETRY_ROUNDS = 100;
    private static final VarHandle POSITION;
    private static final VarHandle PAGE_WORD = ValueLayout.JAVA_LONG.varHandle();

    static {
        try {
            POSITION = MethodHandles.lookup().findVarHandle(JournalPretoucher.class, "position", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long aheadBytes;
    private final String name;
    private volatile File file;
    @SuppressWarnings("unused") // written and read through POSITION
    private long position;

    // The appending thread's own state.
    private int followedCycle = Integer.MIN_VALUE;

    // The pretouching thread's own state (and the test's, which drives touchAhead() itself).
    private File mappedFile;
    private FileChannel channel;
    private FileReservation reservation;
    private long reservedUpTo;
    private boolean reserveRefused;
    private long refusedRounds;
    private Arena arena;
    private MemorySegment window;
    private long windowStart;
    private long touchedUpTo;
    private long pagesTouched;
    private boolean failed;

    /**
     * @param name       names the thread and the messages, e.g. {@code engine journal pretoucher}
     * @param aheadBytes how far ahead of the appender's position to keep pages touched
     */
    public JournalPretoucher(final String name, final long aheadBytes) {
        if (aheadBytes < PAGE_BYTES) {
            throw new IllegalArgumentException("touch at least a page ahead, not " + aheadBytes + " bytes");
        }
        this.name = name;
        this.aheadBytes = aheadBytes;
    }

    /**
     * Called by the appending thread, which owns {@code appender}: publishes its cycle file and the position
     * after its last excerpt. Cheap: two field reads and an ordered store, and a file lookup when the cycle rolls.
     */
    public void follow(final ExcerptAppender appender) {
        final int cycle = appender.cycle();
        if (cycle != followedCycle) {
            final File current = appender.currentFile();
            if (current == null) {
                return;
            }
            followedCycle = cycle;
            file = current;
        }
        POSITION.setRelease(this, appender.wire().bytes().writePosition());
    }

    /**
     * One round of the pretouching thread: touches the pages from the appender's position, or where the last
     * round stopped, to {@code aheadBytes} beyond the position, as far as the file reaches.
     *
     * @return how many pages were touched
     * @throws IOException if the cycle file cannot be opened, sized or mapped
     */
    long touchAhead() throws IOException {
        return touchAhead(Long.MAX_VALUE);
    }

    /** As {@link #touchAhead()}, touching at most {@code maxPages} pages. */
    long touchAhead(final long maxPages) throws IOException {
        final File current = file;
        if (current == null) {
            return 0;
        }
        final long at = (long) POSITION.getAcquire(this);
        if (!current.equals(mappedFile)) {
            unmap();
            channel = FileChannel.open(current.toPath(), StandardOpenOption.READ, StandardOpenOption.WRITE);
            reservation = new FileReservation(current.toPath());
            mappedFile = current;
            touchedUpTo = 0;
            reservedUpTo = 0;
        }
        touchedUpTo = Math.max(touchedUpTo, at & -PAGE_BYTES);
        final long end = reserveUpTo(Math.min(at + aheadBytes, channel.size()));
        long touched = 0;
        while (touchedUpTo + Long.BYTES <= end && touched < maxPages) {
            if (window == null || touchedUpTo < windowStart || touchedUpTo + Long.BYTES > windowStart + window.byteSize()) {
                mapWindow(touchedUpTo, channel.size());
            }
            PAGE_WORD.compareAndSet(window, touchedUpTo - windowStart, 0L, 0L);
            touchedUpTo += PAGE_BYTES;
            touched++;
        }
        pagesTouched += touched;
        return touched;
    }

    /**
     * @return how far up to {@code end} disk blocks are reserved in the current cycle file, reserving what is
     * missing a step at a time; after a refusal it tries again only every {@value #RETRY_ROUNDS} rounds, so a full
     * disk costs a failing system call now and then, not a large allocation and its undoing every round
     */
    private long reserveUpTo(final long end) {
        final long from = Math.max(reservedUpTo, touchedUpTo);
        if (from < end && (!reserveRefused || ++refusedRounds % RETRY_ROUNDS == 0)) {
            // from < end: the writer can stand at the very end of the file as sized so far, where there is nothing to
            // reserve; asking fallocate for 0 bytes there is EINVAL, which is no refusal.
            final long to = Math.min(end, from + RESERVE_STEP_BYTES);
            final int errno = reservation.reserve(from, to - from);
            if (errno == 0) {
                reservedUpTo = to;
                reserveRefused = false;
            } else if (!reserveRefused) {
                reserveRefused = true;
                System.err.println(name + ": cannot reserve disk blocks in " + mappedFile + " from offset " + from
                        + " (errno " + errno + (errno == FileReservation.ENOSPC ? ", disk full" : "")
                        + "): touching no further until they can be");
            }
        }
        return Math.min(end, reservedUpTo);
    }

    /** @return how far into the current cycle file pages have been touched (for tests and reports) */
    long touchedUpTo() {
        return touchedUpTo;
    }

    /** @return pages touched since the start, across cycle files (read after {@link #close()}, or by tests) */
    public long pagesTouched() {
        return pagesTouched;
    }

    /**
     * One round of the pretouching thread. A failure to map or touch (an {@link InternalError} is a fault on a mapped
     * page, which the JDK reports instead of dying of SIGBUS) is printed, and the pretoucher touches nothing more.
     *
     * @return how many pages were touched
     */
    @Override
    public int doWork() {
        if (failed) {
            return 0;
        }
        try {
            return (int) touchAhead(PAGES_PER_ROUND);
        } catch (final IOException | RuntimeException | InternalError e) {
            failed = true;
            System.err.println(name + ": stopped pretouching " + mappedFile + " at offset " + touchedUpTo + ": " + e);
            unmap();
            return 0;
        }
    }

    /** Releases the mapping, on the thread that made it. */
    @Override
    public void onClose() {
        unmap();
    }

    @Override
    public String roleName() {
        return name;
    }

    /** Releases the mapping of a pretoucher driven by its caller ({@link #touchAhead()}), never run on a thread. */
    @Override
    public void close() {
        unmap();
    }

    private void mapWindow(final long from, final long fileSize) throws IOException {
        if (arena != null) {
            arena.close();
        }
        arena = Arena.ofConfined();
        windowStart = from;
        window = channel.map(FileChannel.MapMode.READ_WRITE, from, Math.min(WINDOW_BYTES, fileSize - from), arena);
    }

    private void unmap() {
        if (arena != null) {
            arena.close();
            arena = null;
            window = null;
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (final IOException ignored) {
                // Closing a read-write channel we only mapped: nothing was written through it.
            }
            channel = null;
        }
        if (reservation != null) {
            reservation.close();
            reservation = null;
        }
        mappedFile = null;
    }
}
