package io.sluice.runtime.journal;

/**
 * A journal's writer cannot have the disk space it needs ({@link JournalSpace}), so its process stops before writing.
 * The message names the journal, its directory or file, and the free space. Thrown once, at the stop.
 */
public final class JournalDiskFullException extends RuntimeException {
    public JournalDiskFullException(final String message) {
        super(message);
    }
}
