package io.sluice.runtime.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JDK AOT cache a run of {@code ./sluice engine} or {@code ./sluice gateway} records (see {@code aot.options}). The
 * JVM writes the cache whenever it exits, so a first run that stopped at a bad config or a damaged journal would leave
 * a cache trained on nothing but that failure, and every later start would map it. The launcher therefore names the
 * cache's key file in {@link #KEY_FILE_PROPERTY} while it records; a run that exits with an error deletes that file,
 * and the next start, finding no key for its build, records a new cache.
 */
public final class AotRecording {
    /** The system property that names the key file of the cache this run records (unset when it records none). */
    public static final String KEY_FILE_PROPERTY = "sluice.aot.recordingKeyFile";

    private AotRecording() {
    }

    /**
     * Call with the process's exit code just before {@code System.exit}.
     *
     * @return {@code exitCode}, after discarding this run's AOT recording if the code says the run failed
     */
    public static int exit(final int exitCode) {
        final String keyFile = System.getProperty(KEY_FILE_PROPERTY);
        if (exitCode != 0 && keyFile != null) {
            try {
                if (Files.deleteIfExists(Path.of(keyFile))) {
                    System.err.println("sluice: this run failed (exit " + exitCode + "): the AOT cache it records is"
                            + " discarded; the next start records a new one");
                }
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot discard the AOT cache key " + keyFile, e);
            }
        }
        return exitCode;
    }
}
