package io.sluice.runtime.admin;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.process.LockHeldException;
import io.sluice.runtime.process.ProcessLock;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The deployment's admin journal ({@link Journals#adminJournal}), as its writers see it. {@code ./sluice admin} and the
 * trading-session scheduler append {@link AdminCommand}s here, possibly from several processes at once, and the engine
 * and the gateways read them as inputs. Two rules live here and nowhere else:
 * <ul>
 * <li><b>Only the deployment's own OS user may write it.</b> The directory is created owner-only ({@code rwx------});
 *     {@link #requireOwnerOnly} refuses one owned by another user or open to group or others, naming the directory,
 *     its owner and its mode. Every process that opens the admin journal calls it first, at start.</li>
 * <li><b>Event ids count 1, 2, 3... with no gap</b>, as the engine expects of every input source, however many
 *     writers there are: {@link #append} holds the journal's writer lock ({@link ProcessLock#journalWriter}'s file, as
 *     every journal's appender does) while it reads the last id and appends the next, waiting up to
 *     {@value #APPEND_WAIT_SECONDS} s for another append to finish. Admin commands are rare: a lock is right here. A
 *     process that holds the lock for its whole run (a receiver rebuilding a replica's admin journal) refuses every
 *     append, naming itself.</li>
 * </ul>
 */
public final class AdminJournal implements AutoCloseable {
    /** The longest an append waits for another process's append to release the journal's writer lock. */
    public static final long APPEND_WAIT_SECONDS = 5;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private final ChronicleQueue queue;
    private final ExcerptAppender appender;
    private final AdminCommands writer;
    private final Path dir;
    private final NanoClock clock;
    /** Reads the newest command, backwards from the end: one tailer and reader for every append, not one each. */
    private final ExcerptTailer newest;
    private final MethodReader newestReader;
    private long newestEventId;
    /** The tailer of {@link #follow}'s reader, if one was asked for: closed with the journal. */
    private ExcerptTailer following;

    private AdminJournal(final Path root, final NanoClock clock) {
        dir = Journals.adminJournal(root);
        this.clock = clock;
        createOwnerOnly(root);
        requireOwnerOnly(root);
        queue = Journals.open(dir);
        appender = queue.createAppender();
        writer = Journals.methodWriter(appender, AdminCommands.class);
        newest = queue.createTailer().direction(TailerDirection.BACKWARD);
        newestReader = newest.methodReader((AdminCommands) command -> newestEventId = command.metaData().eventId());
    }

    /**
     * Opens the admin journal under {@code root} for appending, creating it owner-only if there is none;
     * {@code clock}, the process's, times an append's wait for another's.
     *
     * @throws IllegalStateException if it exists with a wider mode or another owner ({@link #requireOwnerOnly})
     */
    public static AdminJournal open(final Path root, final NanoClock clock) {
        return new AdminJournal(root, clock);
    }

    /**
     * Creates the admin journal under {@code root} owner-only if there is none, as {@link #open} does, appending
     * nothing: for the engine, which may start before any command was written.
     *
     * @throws IllegalStateException if it exists with a wider mode or another owner ({@link #requireOwnerOnly})
     */
    public static void create(final Path root) {
        createOwnerOnly(root);
        requireOwnerOnly(root);
        try (ChronicleQueue queue = Journals.open(Journals.adminJournal(root))) {
            queue.createAppender(); // as the constructor does; closed with the queue
        }
    }

    /**
     * Appends {@code command} with the next event id, stamping its MetaData's sourceId ({@link Journals#ADMIN_SOURCE_ID})
     * and eventId; other MetaData fields are the caller's.
     *
     * @return the event id the command was given: its outcomes carry it
     * @throws LockHeldException if another process kept the journal's writer lock for {@value #APPEND_WAIT_SECONDS} s,
     *                           naming it
     */
    public long append(final AdminCommand command) {
        try (ProcessLock ignored = ProcessLock.takeWithin(dir.resolve(ProcessLock.JOURNAL_WRITER_FILE), "admin append",
                TimeUnit.SECONDS.toNanos(APPEND_WAIT_SECONDS), clock)) {
            final long eventId = lastEventId() + 1;
            command.metaData().sourceId(Journals.ADMIN_SOURCE_ID).eventId(eventId);
            writer.adminCommand(command);
            return eventId;
        }
    }

    /**
     * Hands every command in the journal, oldest first, to {@code reader} (the argument is reused): for a process that
     * must know what it appended before it last stopped.
     */
    public void readAll(final AdminCommands reader) {
        try (ExcerptTailer tailer = queue.createTailer()) {
            final MethodReader all = tailer.methodReader(reader);
            while (all.readOne()) {
                // each command handed to the reader
            }
        }
    }

    /**
     * @return a reader that hands each command to {@code reader}, oldest first, one per {@code readOne()}, and then each
     * one appended later (by any process): for a process that follows what the engine is told. One per journal
     */
    public MethodReader follow(final AdminCommands reader) {
        if (following != null) {
            throw new IllegalStateException("the admin journal " + dir + " is followed already");
        }
        following = queue.createTailer();
        return following.methodReader(reader);
    }

    /** @return the event id of the newest command in the journal, 0 if it has none. */
    private long lastEventId() {
        newestEventId = 0;
        newest.toEnd();
        newestReader.readOne();
        return newestEventId;
    }

    /**
     * Refuses an admin journal under {@code root} that anyone but this process's OS user could write: owned by another
     * user, or with any group or other permission. A missing one passes (it is created owner-only when first written).
     *
     * @throws IllegalStateException naming the directory, its owner and its mode
     */
    public static void requireOwnerOnly(final Path root) {
        final Path dir = Journals.adminJournal(root);
        if (!Files.exists(dir)) {
            return;
        }
        try {
            final UserPrincipal owner = Files.getOwner(dir);
            final Set<PosixFilePermission> mode = Files.getPosixFilePermissions(dir);
            final String me = System.getProperty("user.name");
            if (!owner.getName().equals(me) || !OWNER_ONLY.containsAll(mode)) {
                throw new IllegalStateException("admin journal " + dir.toAbsolutePath() + " is owned by " + owner.getName()
                        + " with mode " + PosixFilePermissions.toString(mode) + ": it must belong to " + me
                        + ", the deployment's user, with no group or other access (chmod 700 " + dir + ")");
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot check the permissions of " + dir.toAbsolutePath(), e);
        }
    }

    /**
     * Creates the admin journal's directory under {@code root} owner-only ({@code rwx------}) if there is none: for
     * every process that may be first to make it (its writers, and a replica's receiver).
     */
    public static void createOwnerOnly(final Path root) {
        final Path dir = Journals.adminJournal(root);
        if (Files.exists(dir)) {
            return;
        }
        try {
            Files.createDirectories(dir.getParent());
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (final FileAlreadyExistsException raced) {
            // another writer made it first: requireOwnerOnly checks what it made
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create the admin journal " + dir.toAbsolutePath(), e);
        }
    }

    @Override
    public void close() {
        if (following != null) {
            following.close();
        }
        newest.close();
        queue.close();
    }
}
