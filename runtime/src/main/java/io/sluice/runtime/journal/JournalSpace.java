package io.sluice.runtime.journal;

import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Disk space kept reserved ahead of one journal's appender. So a full disk is an error at allocation time and never a
 * SIGBUS on a store. A Chronicle cycle file is sparse: its pages get disk blocks only when first
 * written through the mapping, and a store into a page the filesystem has no block for kills the process. So a
 * keeper thread ({@link JournalSpaceKeeper}) keeps {@code reserveBytes} of real blocks allocated ahead of the
 * appender's write position ({@link FileReservation}), checks the free space before the writer may start a new
 * cycle file (after a start, or when the day rolls), and warns once when the free space falls below
 * {@code warningBytes}.
 * <p>
 * The appending thread calls {@link #follow(ExcerptAppender)} after writing, which publishes its cycle file and
 * write position, and {@link #level()} before writing, which reads what the keeper published: no system call,
 * lock or allocation on that thread. The keeper publishes the cycle it reserved for and how far, packed in one
 * long, so the writer never reads a reservation of one cycle file against a position in another.
 */
public final class JournalSpace {
    /** Default reserve ahead of each writer: 64 MiB, one Chronicle mapping chunk. */
    public static final long DEFAULT_RESERVE_BYTES = 64L << 20;
    /** Default free space below which a warning is logged: 1 GiB. */
    public static final long DEFAULT_WARNING_BYTES = 1L << 30;
    /** The smallest reserve: a few excerpts of the largest size Sluice writes, and Chronicle's index blocks. */
    public static final long MIN_RESERVE_BYTES = 1L << 20;

    private static final int NO_CYCLE = Integer.MIN_VALUE;
    private static final int RESERVED_BITS = 44;
    private static final long RESERVED_MASK = (1L << RESERVED_BITS) - 1;
    private static final int CYCLE_TAGS = (1 << (Long.SIZE - RESERVED_BITS)) - 1;
    private static final long FRESH = 0;
    private static final long PAGE_BYTES = 4096;
    private static final long CHECK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final VarHandle POSITION;
    private static final VarHandle RESERVATION;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            POSITION = lookup.findVarHandle(JournalSpace.class, "position", long.class);
            RESERVATION = lookup.findVarHandle(JournalSpace.class, "reservation", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SingleChronicleQueue journal;
    private final Path dir;
    private final FileStore store;
    private final long reserveBytes;
    private final long warningBytes;

    // Crossing threads: the appender's cycle file and position one way, the reservation and the outcome the other.
    private volatile CycleFile current;
    @SuppressWarnings("unused") // written and read through POSITION
    private long position;
    @SuppressWarnings("unused") // written and read through RESERVATION: a cycle tag above, reserved-up-to below
    private long reservation;
    private volatile boolean refused;
    private volatile String refusal = "";
    private volatile long freeBytes = Long.MAX_VALUE;

    // The appending thread's own state.
    private int followedCycle = NO_CYCLE;
    private long followedPosition;

    // The keeper's own state (the constructor's, before the keeper starts).
    private FileReservation blocks;
    private int reservedCycle = NO_CYCLE;
    private long reservedUpTo;
    private long preparedPosition;
    private boolean fallocateUnsupported;
    private long nextCheckNanos;
    private boolean checkScheduled;
    private boolean warned;

    /**
     * Call on the appending thread before it writes. Checks the free space and prepares the cycle file the writer
     * will write next (today's, created if there is room for it) with its reserve, so that {@link #level()}
     * answers from the start; a journal restarted on a full disk goes on in the reserve its cycle file still has.
     *
     * @param journal      the journal whose appender this reserves for, opened by {@link Journals#open}
     * @param reserveBytes how far ahead of the writer to keep disk blocks reserved (at least {@link #MIN_RESERVE_BYTES})
     * @param warningBytes free space on the journal's filesystem below which to warn
     */
    public JournalSpace(final ChronicleQueue journal, final long reserveBytes,
                        final long warningBytes) {
        if (reserveBytes < MIN_RESERVE_BYTES || reserveBytes > RESERVED_MASK / 2) {
            throw new IllegalArgumentException("a journal reserve is " + MIN_RESERVE_BYTES + " bytes or more, not "
                    + reserveBytes);
        }
        this.journal = (SingleChronicleQueue) journal;
        this.dir = this.journal.file().toPath();
        try {
            this.store = Files.getFileStore(dir);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot find the filesystem of journal " + dir, e);
        }
        this.reserveBytes = reserveBytes;
        this.warningBytes = warningBytes;
        checkFreeSpace();
        preparedPosition = prepareCycle();
        followedPosition = preparedPosition;
    }

    /**
     * Before a journal is opened: a journal not created yet needs {@code reserveBytes} free on its filesystem, or
     * creating it would store into pages the filesystem has no blocks for.
     *
     * @throws JournalDiskFullException naming the directory and the free space if there is not
     */
    public static void requireRoomToCreate(final Path dir, final long reserveBytes) {
        if (Files.exists(dir.resolve("metadata.cq4t"))) {
            return;
        }
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            final FileStore store = Files.getFileStore(existing);
            final long free = store.getUsableSpace();
            if (free < reserveBytes) {
                throw new JournalDiskFullException("journal disk full: cannot create journal " + dir.toAbsolutePath()
                        + ": " + free + " bytes free on " + store + ", " + reserveBytes + " needed");
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot find the filesystem of journal " + dir, e);
        }
    }

    /** @return the journal's directory */
    public Path dir() {
        return dir;
    }

    /**
     * Called by the appending thread after it wrote: publishes its cycle file and the position after its last
     * excerpt. Cheap: two field reads and an ordered store, and one small object when the cycle rolls.
     */
    public void follow(final ExcerptAppender appender) {
        if (appender.wire() == null) {
            return; // nothing written through it yet
        }
        final int cycle = appender.cycle();
        if (cycle != followedCycle) {
            final File file = appender.currentFile();
            if (file == null) {
                return;
            }
            followedCycle = cycle;
            current = new CycleFile(cycle, file);
        }
        followedPosition = appender.wire().bytes().writePosition();
        POSITION.setRelease(this, followedPosition);
    }

    /**
     * Called by the appending thread before it writes: how much is reserved ahead of its last followed position.
     * Reads one published long and a flag; never blocks, allocates or calls the system.
     */
    public SpaceLevel level() {
        final long packed = (long) RESERVATION.getAcquire(this);
        final long tag = packed >>> RESERVED_BITS;
        if (tag == FRESH) {
            return refused ? SpaceLevel.EXHAUSTED : SpaceLevel.PENDING;
        }
        if (followedCycle != NO_CYCLE && tag != tag(followedCycle)) {
            return SpaceLevel.PENDING;
        }
        final long ahead = (packed & RESERVED_MASK) - followedPosition;
        if (ahead >= reserveBytes / 2) {
            return SpaceLevel.AMPLE;
        }
        if (ahead >= reserveBytes / 8) {
            return SpaceLevel.LOW;
        }
        return refused ? SpaceLevel.EXHAUSTED : SpaceLevel.PENDING;
    }

    /** @return why space could not be reserved, naming the journal, its file and the free space (off the hot path) */
    public String describeShortage() {
        long free;
        try {
            free = store.getUsableSpace();
        } catch (final IOException e) {
            free = freeBytes;
        }
        return "journal " + dir + ": cannot reserve " + reserveBytes + " bytes of disk ahead of its writer ("
                + refusal + "); " + free + " bytes free on " + store;
    }

    /**
     * One round of the keeper: reserves up to {@code reserveBytes} beyond the writer's position in its cycle file,
     * and at most every 100 ms checks the free space (for a new cycle file, and the warning) and retries a
     * refused reservation; the first round schedules the first check (the constructor has just made one).
     *
     * @param nowNanos the keeper's clock
     * @return true if it did anything worth not idling for
     */
    boolean keep(final long nowNanos) {
        if (!checkScheduled) {
            checkScheduled = true;
            nextCheckNanos = nowNanos + CHECK_INTERVAL_NANOS;
        }
        final boolean check = nowNanos - nextCheckNanos >= 0;
        if (check) {
            nextCheckNanos = nowNanos + CHECK_INTERVAL_NANOS;
            checkFreeSpace();
        }
        final CycleFile file = current;
        if (file == null && reservedCycle == NO_CYCLE) {
            if (check) {
                preparedPosition = prepareCycle();
            }
            return false;
        }
        if (file != null && file.cycle != reservedCycle && !openBlocks(file.cycle, file.file)) {
            return false;
        }
        final long at = file == null ? preparedPosition : (long) POSITION.getAcquire(this);
        final boolean worked = (reservedUpTo < at + reserveBytes) && (!refused || check) && reserveFrom(at);
        if (check && !worked) {
            final boolean rollDue = journal.cycle() != reservedCycle && freeBytes < reserveBytes;
            outcome(!rollDue && reservedUpTo >= at + reserveBytes,
                    rollDue ? "not " + reserveBytes + " bytes free for the next cycle file" : refusal);
            publish(tag(reservedCycle), rollDue ? 0 : reservedUpTo);
        }
        return worked;
    }

    /**
     * Finds the cycle file the writer will write next (today's), creating it if there is room for a new one, and
     * reserves ahead of the position where writing will go on.
     *
     * @return that position, or 0 if there is no such file and no room to create it
     */
    private long prepareCycle() {
        final int cycle = journal.cycle();
        final SingleChronicleQueueStore cycleStore = journal.storeForCycle(cycle, journal.epoch(),
                freeBytes >= reserveBytes, null);
        if (cycleStore == null) {
            outcome(false, "not " + reserveBytes + " bytes free for a new cycle file");
            publish(FRESH, 0);
            return 0;
        }
        final File file;
        final long start;
        try {
            file = cycleStore.file();
            start = cycleStore.writePosition();
        } finally {
            journal.closeStore(cycleStore);
        }
        if (openBlocks(cycle, file)) {
            reserveFrom(start);
        }
        return start;
    }

    /**
     * Reserves from {@code at} (the writer's position) to {@code reserveBytes} beyond it, in sixteenths, so that
     * what can be had counts even when the whole cannot (a journal restarted on a full disk keeps the reserve its
     * cycle file already has). @return true if all of it is reserved
     */
    private boolean reserveFrom(final long at) {
        final long target = at + reserveBytes;
        final long step = Math.max(PAGE_BYTES, reserveBytes / 16);
        long from = Math.max(reservedUpTo, at & -PAGE_BYTES);
        int errno = 0;
        while (from < target && errno == 0) {
            final long length = Math.min(step, target - from);
            errno = fallocateUnsupported ? roomFor(length) : blocks.reserve(from, length);
            if (errno == FileReservation.EOPNOTSUPP) {
                fallocateUnsupported = true;
                System.err.println("journal " + dir + ": " + store + " cannot reserve blocks (no fallocate): "
                        + "falling back to checking the free space, which does not protect the writer from a "
                        + "disk filled by another process");
                errno = roomFor(length);
            }
            if (errno == 0) {
                from += length;
                reservedUpTo = from;
            }
        }
        if (errno == 0) {
            outcome(true, null); // no reason to build: this runs whenever the writer moved, on a reserving thread
        } else {
            outcome(false, errno == FileReservation.ENOSPC ? "disk full in " + blocks.file()
                    : "fallocate of " + blocks.file() + " failed with errno " + errno);
        }
        publish(tag(reservedCycle), reservedUpTo);
        return errno == 0;
    }

    /** @return 0 if the filesystem has {@code length} bytes free, else {@link FileReservation#ENOSPC} */
    private int roomFor(final long length) {
        try {
            return store.getUsableSpace() >= length ? 0 : FileReservation.ENOSPC;
        } catch (final IOException e) {
            return FileReservation.ENOSPC;
        }
    }

    /** Releases the keeper's file handle; call once the keeper has stopped. */
    void close() {
        if (blocks != null) {
            blocks.close();
            blocks = null;
        }
    }

    private boolean openBlocks(final int cycle, final File file) {
        close();
        try {
            blocks = new FileReservation(file.toPath());
        } catch (final IOException e) {
            outcome(false, e.getMessage());
            return false;
        }
        reservedCycle = cycle;
        reservedUpTo = 0;
        return true;
    }

    /** Records whether the reserve is whole; logs a change. @param why the refusal (unused, may be null, when reserved) */
    private void outcome(final boolean reserved, final String why) {
        if (reserved == !refused) {
            return;
        }
        if (reserved) {
            refused = false;
            System.out.println("journal " + dir + ": disk space reserved again");
        } else {
            refusal = why;
            refused = true;
            System.err.println("journal disk full: " + describeShortage());
        }
    }

    private void checkFreeSpace() {
        try {
            freeBytes = store.getUsableSpace();
        } catch (final IOException e) {
            return; // the last reading stands; the reservation itself is what protects the writer
        }
        if (freeBytes < warningBytes && !warned) {
            warned = true;
            System.err.println("disk space warning: journal " + dir + ": " + freeBytes + " bytes free on " + store
                    + ", below the warning threshold of " + warningBytes + " bytes");
        } else if (freeBytes >= warningBytes && warned) {
            warned = false;
            System.out.println("journal " + dir + ": " + freeBytes + " bytes free on " + store
                    + ", above the warning threshold of " + warningBytes + " bytes again");
        }
    }

    private void publish(final long tag, final long reservedUpTo) {
        RESERVATION.setRelease(this, tag << RESERVED_BITS | reservedUpTo);
    }

    private static long tag(final int cycle) {
        return cycle == NO_CYCLE ? -1 : (cycle & Integer.MAX_VALUE) % CYCLE_TAGS + 1;
    }

    /** A cycle file the appender writes, published by the appending thread when the cycle rolls. */
    private record CycleFile(int cycle, File file) {
    }
}
