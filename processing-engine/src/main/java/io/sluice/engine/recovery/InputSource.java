package io.sluice.engine.recovery;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.NoOpGatewayToEngine;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineInput;
import io.sluice.runtime.admin.AdminJournal;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.core.util.InvocationTargetRuntimeException;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One input journal of the engine, read in order, one command at a time, into whatever {@link EngineInput} the caller
 * passes. It is a gateway's command journal ({@link Journals#gatewayJournal}, {@code GatewayToEngine} calls, its source
 * the gateway id) or the admin journal ({@link Journals#adminJournal}, {@code AdminCommands} calls, source {@link
 * Journals#ADMIN_SOURCE_ID}). It checks what it reads: every command must be of its journal's kind, name
 * this journal's source and carry a larger event id than the one before; an excerpt that fails its
 * checksum or does not decode as a call of its kind stops reading with a {@link CorruptJournalException}
 * naming the file, excerpt and byte offset. An exception from the target processing a command stops reading with an
 * {@link InputFailedException} naming the same and the command. Nothing is ever skipped silently.
 */
public final class InputSource implements AutoCloseable {
    /** Where {@link #resumeAfter} reads the command it passes over. */
    private static final EngineInput SKIP = new Skip();

    private final int sourceId;
    private final Path dir;
    private final ChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final MethodReader reader;
    private final Checker checker = new Checker();
    private EngineInput target;
    private long expectedEventId;
    private long lastEventId;
    private boolean dispatched;
    private String problem;
    private long problemIndex;

    /** Opens (creating if need be, so the engine may start before its gateways) gateway {@code gatewayId}'s journal. */
    public InputSource(final Path journalRoot, final int gatewayId) {
        this(journalRoot, gatewayId, false);
    }

    /**
     * @param readOnly true to open an existing journal without ever writing to it ({@link Journals#openReadOnly}),
     *                 as replay does with recorded journals; false to open or create it as the engine does
     */
    public InputSource(final Path journalRoot, final int gatewayId, final boolean readOnly) {
        this(gatewayId, Journals.gatewayJournal(journalRoot, gatewayId), readOnly);
    }

    /**
     * Opens the admin journal under {@code journalRoot}, having checked it is owner-only
     * ({@link AdminJournal#requireOwnerOnly}); unless {@code readOnly}, creating it (owner-only) if there is none, so
     * that the engine may start before any command was written.
     *
     * @throws IllegalStateException if it is open to others, or owned by another user (the message names the
     *                               directory, its owner and its mode)
     */
    public static InputSource admin(final Path journalRoot, final boolean readOnly) {
        AdminJournal.requireOwnerOnly(journalRoot);
        final Path dir = Journals.adminJournal(journalRoot);
        if (!readOnly && !Files.exists(dir)) {
            AdminJournal.create(journalRoot);
        }
        return new InputSource(Journals.ADMIN_SOURCE_ID, dir, readOnly);
    }

    private InputSource(final int sourceId, final Path dir, final boolean readOnly) {
        this.sourceId = sourceId;
        this.dir = dir;
        queue = readOnly ? Journals.openReadOnly(dir) : Journals.open(dir);
        tailer = queue.createTailer();
        reader = tailer.methodReaderBuilder()
                .defaultParselet((name, in) -> {
                    throw new IllegalStateException("unknown message '" + name + "' in " + journal());
                })
                .build(checker);
    }

    /**
     * Forgets which thread has read it (Chronicle binds a tailer to the first thread that uses it): for a journal
     * recovered on one thread and read live on another, called between the two.
     */
    public void singleThreadedCheckReset() {
        tailer.singleThreadedCheckReset();
    }

    /**
     * Reads the next command, if there is one yet, into {@code target}.
     *
     * @return true if a command was read and passed on, false if the journal has nothing more for now
     * @throws CorruptJournalException if the next excerpt cannot be read or breaks the event id order
     */
    public boolean poll(final EngineInput target) {
        return read(target, 0);
    }

    /**
     * Reads the next command, which must have event id {@code eventId}, into {@code target}: how a recorded
     * consumption order is followed.
     *
     * @return false if the journal has nothing more
     * @throws CorruptJournalException if the next command is not {@code eventId} or cannot be read
     */
    public boolean pollExpecting(final EngineInput target, final long eventId) {
        return read(target, eventId);
    }

    private boolean read(final EngineInput target, final long expectedEventId) {
        this.target = target;
        this.expectedEventId = expectedEventId;
        dispatched = false;
        problem = null;
        boolean read;
        do {
            final long index = tailer.index();
            try {
                read = reader.readOne();
            } catch (final InvocationTargetRuntimeException e) {
                throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
            } catch (final InputFailedException e) {
                throw e;
            } catch (final RuntimeException e) {
                throw CorruptJournalException.reading(queue, index, e);
            }
            if (problem != null) {
                throw corrupt(problemIndex, problem, null);
            }
        } while (read && !dispatched); // skips Chronicle's own metadata excerpts
        return dispatched;
    }

    /**
     * Moves over what this journal holds after the last command read, to its last excerpt, without decoding it
     * ({@link JournalReader#skipToEnd}): at the engine's start, so that a damaged excerpt header ahead (which looks like
     * the journal's end to a tailer) stops the start naming the journal, file, index and byte offset, instead of the
     * live engine waiting in front of it for ever. Records are checked as they are read, live.
     *
     * @throws CorruptJournalException at the first excerpt that cannot be read
     */
    public void checkAhead() {
        try (ExcerptTailer ahead = queue.createTailer()) {
            if (lastEventId != 0 && !ahead.moveToIndex(tailer.lastReadIndex())) {
                throw corrupt(tailer.lastReadIndex(), "the last command read cannot be found again", null);
            }
            JournalReader.skipToEnd(queue, ahead);
        }
    }

    /**
     * For a journal that ends before an input the engine journal records: @throws CorruptJournalException if it does
     * not end there but holds an excerpt this reader cannot read ({@link JournalReader#requireEnd})
     */
    public void requireEnd() {
        JournalReader.requireEnd(queue, tailer);
    }

    /** @return the index in this journal of the last command read; meaningful once one was read. */
    public long lastReadIndex() {
        return tailer.lastReadIndex();
    }

    /**
     * Positions this journal right after event {@code eventId}, which must be the command at {@code journalIndex}:
     * where a snapshot says this gateway's inputs were consumed up to. {@code eventId} 0 means none: from the start.
     *
     * @return null if done; otherwise why not (nothing there, or another event), and the journal is back at its start
     */
    public String resumeAfter(final long journalIndex, final long eventId) {
        rewind();
        if (eventId == 0) {
            return null;
        }
        String problem;
        try {
            problem = !tailer.moveToIndex(journalIndex) ? "holds no excerpt at index 0x" + Long.toHexString(journalIndex)
                    : pollExpecting(SKIP, eventId) ? null : "ends before index 0x" + Long.toHexString(journalIndex);
        } catch (final CorruptJournalException e) {
            problem = e.getMessage();
        }
        if (problem != null) {
            rewind();
            return (isAdmin() ? "admin journal " : "gateway journal ") + dir.toAbsolutePath() + " does not hold event " + eventId + " at index 0x"
                    + Long.toHexString(journalIndex) + ": " + problem;
        }
        return null;
    }

    /** Moves back before the first command, as new. */
    public void rewind() {
        tailer.toStart();
        lastEventId = 0;
    }

    /** @return the source id of this journal's commands: the gateway's id, or {@link Journals#ADMIN_SOURCE_ID} */
    public int sourceId() {
        return sourceId;
    }

    /** @return true if this is the admin journal, false if a gateway's */
    public boolean isAdmin() {
        return sourceId == Journals.ADMIN_SOURCE_ID;
    }

    /** @return "the admin journal" or "gateway N": the source, for messages */
    public String source() {
        return isAdmin() ? "the admin journal" : "gateway " + sourceId;
    }

    /** @return "the admin journal" or "gateway N's journal", for messages */
    private String journal() {
        return isAdmin() ? "the admin journal" : "gateway " + sourceId + "'s journal";
    }

    /** @return the event id of the last command read, 0 before the first. */
    public long lastEventId() {
        return lastEventId;
    }

    /** @return the journal's directory. */
    public Path directory() {
        return dir;
    }

    /** @return a {@link CorruptJournalException} at {@code index} of this journal (and that excerpt's byte offset). */
    public CorruptJournalException corrupt(final long index, final String what, final Throwable cause) {
        return CorruptJournalException.at(queue, index, -1, what, cause);
    }

    /** @return where the last command read is: journal, cycle file, excerpt index and byte offset (for messages) */
    public String lastReadPlace() {
        return place(tailer.lastReadIndex());
    }

    private String place(final long index) {
        return "journal " + dir.toAbsolutePath() + ", file "
                + Journals.cycleFile(queue, queue.rollCycle().toCycle(index)).getFileName() + ", excerpt index 0x"
                + Long.toHexString(index) + ", byte offset " + Journals.excerptOffset(queue, index);
    }

    @Override
    public void close() {
        reader.close();
        queue.close();
    }

    /** Checks each command's MetaData, then hands it to the current target (once). */
    private final class Checker implements EngineInput {
        @Override
        public void newOrder(final NewOrder order) {
            if (accept(order.metaData(), false)) {
                try {
                    target.newOrder(order);
                } catch (final RuntimeException e) {
                    throw failed(order, e);
                }
            }
        }

        @Override
        public void cancelOrder(final CancelOrder cancel) {
            if (accept(cancel.metaData(), false)) {
                try {
                    target.cancelOrder(cancel);
                } catch (final RuntimeException e) {
                    throw failed(cancel, e);
                }
            }
        }

        @Override
        public void replaceOrder(final ReplaceOrder replace) {
            if (accept(replace.metaData(), false)) {
                try {
                    target.replaceOrder(replace);
                } catch (final RuntimeException e) {
                    throw failed(replace, e);
                }
            }
        }

        @Override
        public void massCancel(final MassCancel massCancel) {
            if (accept(massCancel.metaData(), false)) {
                try {
                    target.massCancel(massCancel);
                } catch (final RuntimeException e) {
                    throw failed(massCancel, e);
                }
            }
        }

        @Override
        public void adminCommand(final AdminCommand command) {
            if (accept(command.metaData(), true)) {
                try {
                    target.adminCommand(command);
                } catch (final RuntimeException e) {
                    throw failed(command, e);
                }
            }
        }

        /**
         * @return {@code failure} itself if it is about the journals (recovery finding other reports than recorded);
         * otherwise the engine failed on this input: an {@link InputFailedException} naming where it is and what
         */
        private RuntimeException failed(final Object input, final RuntimeException failure) {
            if (failure instanceof CorruptJournalException || failure instanceof InputFailedException) {
                return failure;
            }
            return new InputFailedException(place(tailer.index()), input, failure);
        }

        /** @param adminCommand true for an admin command, false for a gateway's */
        private boolean accept(final MetaData metaData, final boolean adminCommand) {
            if (dispatched) {
                problem = "more than one command in one excerpt";
            } else if (adminCommand != isAdmin()) {
                problem = (adminCommand ? "an admin command" : "a gateway command") + " in " + journal();
            } else if (metaData.sourceId() != sourceId) {
                problem = "a command from source " + metaData.sourceId() + " in " + journal();
            } else if (metaData.eventId() <= lastEventId) {
                problem = "event id " + metaData.eventId() + " after event id " + lastEventId + ": ids must increase";
            } else if (expectedEventId != 0 && metaData.eventId() != expectedEventId) {
                problem = "the engine journal recorded event id " + expectedEventId + " as the next one consumed, but found "
                        + metaData.eventId();
            }
            if (problem != null) {
                problemIndex = tailer.index();
                return false;
            }
            lastEventId = metaData.eventId();
            dispatched = true;
            return true;
        }
    }

    /** Reads past any command: gateway commands as {@link NoOpGatewayToEngine} does, and admin commands too. */
    private static final class Skip extends NoOpGatewayToEngine implements EngineInput {
        @Override
        public void adminCommand(final AdminCommand command) {
        }
    }
}
