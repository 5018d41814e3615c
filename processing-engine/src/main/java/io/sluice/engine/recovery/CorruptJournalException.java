package io.sluice.engine.recovery;

import net.openhft.chronicle.queue.RollCycle;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;

/**
 * A journal cannot be read on: an excerpt does not decode, names an unknown method, breaks the order of
 * event ids, or a recorded input is missing. The engine stops on it rather than skip anything; the
 * message names the journal directory, its cycle file and the excerpt's index.
 */
public final class CorruptJournalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private CorruptJournalException(final String message, final Throwable cause) {
        super(message, cause);
    }

    /**
     * @param dir       the journal's directory
     * @param rollCycle its roll cycle, to turn {@code index} into a cycle file and a sequence number
     * @param index     the excerpt's index
     * @param problem   what is wrong there
     * @param cause     the exception that showed it, or null
     */
    public static CorruptJournalException at(final Path dir, final RollCycle rollCycle, final long index,
                                             final String problem, final Throwable cause) {
        final int cycle = rollCycle.toCycle(index);
        final String file = LocalDate.ofEpochDay(cycle).format(DateTimeFormatter.BASIC_ISO_DATE) + ".cq4";
        return new CorruptJournalException("journal " + dir.toAbsolutePath() + ", file " + file + ", excerpt index 0x"
                + Long.toHexString(index) + " (sequence " + rollCycle.toSequenceNumber(index) + " of cycle " + cycle
                + "): " + problem, cause);
    }
}
