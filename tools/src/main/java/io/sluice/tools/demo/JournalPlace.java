package io.sluice.tools.demo;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the demo and the benchmarks put their throw-away journals, and what that filesystem does to their latencies. On a disk filesystem
 * the writers' page faults and reservations can wait for the filesystem (its journal commits, on ext4), about 20 ms
 * every second on the 2-core VM's root disk, and the demo's per-second max shows nothing else (bench/README.md, "Why
 * the demo stalls on 2 cores"). The demo deletes its journals when it ends, so by default they go to memory ({@code /dev/shm}) where
 * there is room; {@code --journals DIR} puts them on the disk under test.
 */
public record JournalPlace(Path parent, String filesystem, boolean inMemory) {
    /** Memory for the journals: a 20 s run at full speed writes about 1 GB. */
    static final long MEMORY_NEEDED_BYTES = 4L << 30;
    private static final Path SHARED_MEMORY = Path.of("/dev/shm");

    /**
     * @param chosen the directory the user named, or null for the default: /dev/shm when it is tmpfs with
     *               {@link #MEMORY_NEEDED_BYTES} free, else the JVM's temporary directory
     */
    public static JournalPlace of(final Path chosen) throws IOException {
        if (chosen != null) {
            Files.createDirectories(chosen);
            return at(chosen);
        }
        if (Files.isDirectory(SHARED_MEMORY) && Files.isWritable(SHARED_MEMORY)) {
            final JournalPlace memory = at(SHARED_MEMORY);
            if (memory.inMemory() && Files.getFileStore(SHARED_MEMORY).getUsableSpace() >= MEMORY_NEEDED_BYTES) {
                return memory;
            }
        }
        return at(Path.of(System.getProperty("java.io.tmpdir")));
    }

    private static JournalPlace at(final Path parent) throws IOException {
        final FileStore store = Files.getFileStore(parent);
        return new JournalPlace(parent, store.type(), "tmpfs".equals(store.type()) || "ramfs".equals(store.type()));
    }

    /** @return one line for the demo's start: where, and what to expect of the per-second max there */
    public String describe() {
        return inMemory
                ? "journals in memory (" + filesystem + " " + parent + "; --journals DIR puts them on a disk, where the"
                        + " filesystem can add stalls of up to ~20 ms each second: bench/README.md, \"Why the demo"
                        + " stalls on 2 cores\")"
                : "journals on " + filesystem + " under " + parent + (filesystem.startsWith("ext")
                        ? ": expect each second's max to be several ms, near 20 on some disks, the filesystem"
                        + " blocking the writers (bench/README.md, \"Why the demo stalls on 2 cores\")" : "");
    }
}
