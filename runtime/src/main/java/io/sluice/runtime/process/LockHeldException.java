package io.sluice.runtime.process;

import java.nio.file.Path;

/**
 * A {@link ProcessLock} another process holds: the job it guards (writing a journal, shipping a root) is being done
 * there. The message names the lock's file, or the journal, and the holder as it wrote itself: its name and pid.
 */
public final class LockHeldException extends RuntimeException {
    private final Path file;
    private final String holder;

    LockHeldException(final String message, final Path file, final String holder) {
        super(message);
        this.file = file;
        this.holder = holder;
    }

    /** @return the lock file */
    public Path file() {
        return file;
    }

    /** @return the holder as written into the file, e.g. {@code gateway 1 pid 4242} */
    public String holder() {
        return holder;
    }
}
