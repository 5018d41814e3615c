package io.sluice.contracts.journal;

import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.RollCycle;

import java.nio.file.Path;

/**
 * A journal cannot be read on. A record fails its checksum, an excerpt does not decode or names an unknown method,
 * event ids break their order, a recorded input is missing, or re-running the inputs does not give the reports
 * recorded. Whoever meets it stops rather than skip or trust anything. The message names the
 * journal directory, its real cycle file ({@link Journals#cycleFile}), the excerpt's index and the byte offset
 * in that file, which the accessors give too.
 */
public final class CorruptJournalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Path file;
    private final long index;
    private final long fileOffset;

    private CorruptJournalException(final String message, final Path file, final long index, final long fileOffset,
                                    final Throwable cause) {
        super(message, cause);
        this.file = file;
        this.index = index;
        this.fileOffset = fileOffset;
    }

    /**
     * @param journal    the journal (open)
     * @param index      the damaged excerpt's index
     * @param fileOffset the byte offset of the damage in the excerpt's cycle file, or -1 to use the excerpt's
     *                   own (found by moving a tailer there: an error path, not for a loop)
     * @param problem    what is wrong there
     * @param cause      the exception that showed it, or null
     */
    public static CorruptJournalException at(final ChronicleQueue journal, final long index, final long fileOffset,
                                             final String problem, final Throwable cause) {
        final Path dir = Path.of(journal.fileAbsolutePath());
        final RollCycle rollCycle = journal.rollCycle();
        final int cycle = rollCycle.toCycle(index);
        final Path file = Journals.cycleFile(journal, cycle);
        final long offset = fileOffset >= 0 ? fileOffset : Journals.excerptOffset(journal, index);
        return new CorruptJournalException("journal " + dir + ", file " + file.getFileName() + ", excerpt index 0x"
                + Long.toHexString(index) + " (sequence " + rollCycle.toSequenceNumber(index) + " of cycle " + cycle
                + "), byte offset " + (offset >= 0 ? Long.toString(offset) : "unknown") + ": " + problem,
                file, index, offset, cause);
    }

    /**
     * @return {@code failure} if it already says where it happened; a checksum failure, or any other failure to
     * decode the excerpt at {@code index} of {@code journal}, as a {@link CorruptJournalException} naming it
     */
    public static CorruptJournalException reading(final ChronicleQueue journal, final long index,
                                                  final RuntimeException failure) {
        if (failure instanceof CorruptJournalException located) {
            return located;
        }
        if (failure instanceof RecordChecksumException checksum) {
            return at(journal, index, checksum.fileOffset(), checksum.problem(), checksum);
        }
        return at(journal, index, -1, "cannot decode the excerpt: " + failure, failure);
    }

    /** @return the cycle file the damage is in */
    public Path file() {
        return file;
    }

    /** @return the damaged excerpt's index */
    public long index() {
        return index;
    }

    /** @return the byte offset of the damage in {@link #file()}, or -1 if unknown */
    public long fileOffset() {
        return fileOffset;
    }
}
