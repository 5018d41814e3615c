package io.sluice.testkit;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small real filesystem for disk-full tests: a tmpfs of a given size mounted on a directory. The tests run as root;
 * where mounting is not allowed the test is skipped with the reason; a test fills it to the last block with a file and
 * frees it again. Always unmounted on {@link #close()}, lazily if a process still holds a file.
 */
public final class Tmpfs implements AutoCloseable {
    private static final int CHUNK = 64 * 1024;

    private final Path dir;
    private final Path filler;

    private Tmpfs(final Path dir) {
        this.dir = dir;
        this.filler = dir.resolve("filler");
    }

    /** Mounts a tmpfs of {@code bytes} on {@code dir} (created if needed), or skips the test saying why not. */
    public static Tmpfs mount(final Path dir, final long bytes) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        final String output = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", dir.toString()));
        Assumptions.assumeTrue(output == null, () -> "disk-full tests need to mount a small tmpfs (root): " + output);
        return new Tmpfs(dir);
    }

    public Path dir() {
        return dir;
    }

    /** @return the bytes free on the filesystem */
    public long freeBytes() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    /** Fills every free block with a file of zeros, written for real (not sparse); @return the bytes it took. */
    public long fill() throws IOException {
        final ByteBuffer zeros = ByteBuffer.allocate(CHUNK);
        long written = 0;
        try (FileChannel channel = FileChannel.open(filler, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            while (true) {
                zeros.clear();
                written += channel.write(zeros); // a short write takes the last blocks, the next one fails
            }
        } catch (final IOException full) {
            if (freeBytes() > 0) {
                throw full;
            }
            return written;
        }
    }

    /** Deletes the file {@link #fill()} wrote: the space is free again. */
    public void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (run(List.of("umount", dir.toString())) != null) {
            run(List.of("umount", "-l", dir.toString()));
        }
    }

    /** @return null if the command succeeded, else what it printed */
    private static String run(final List<String> command) throws IOException, InterruptedException {
        final Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (final IOException e) {
            return e.getMessage();
        }
        final String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return command + " did not finish in 30 s";
        }
        return process.exitValue() == 0 ? null : command + " exited " + process.exitValue() + ": " + output;
    }
}
