package io.sluice.replay;

/**
 * The recorded journals cannot be replayed as asked. A journal is missing, from another Sluice journal format, or does
 * not fit the engine config, or the output directory is unusable. The message names the
 * file or directory. (A journal that is corrupt inside surfaces as the engine's
 * {@link io.sluice.contracts.journal.CorruptJournalException}, which names the file and excerpt.)
 */
public final class ReplayException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ReplayException(final String message) {
        super(message);
    }

    public ReplayException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
