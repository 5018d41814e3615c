package io.sluice.replication;

import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Every excerpt of a journal, index and bytes, read read-only: what the replication tests compare. */
record Excerpts(List<Long> indexes, List<byte[]> bytes) {
    static Excerpts of(final Path dir) {
        final List<Long> indexes = new ArrayList<>();
        final List<byte[]> bytes = new ArrayList<>();
        if (!Files.exists(dir.resolve("metadata.cq4t"))) {
            return new Excerpts(indexes, bytes);
        }
        try (ChronicleQueue queue = Journals.openReadOnly(dir); ExcerptTailer tailer = queue.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    final Bytes<?> content = dc.wire().bytes();
                    final byte[] copy = new byte[(int) content.readRemaining()];
                    content.read(copy);
                    indexes.add(dc.index());
                    bytes.add(copy);
                }
            }
        }
        return new Excerpts(indexes, bytes);
    }

    int size() {
        return indexes.size();
    }

    /** @return the journal directories under {@code root}, by name */
    static TreeMap<String, Path> journals(final Path root) throws IOException {
        final TreeMap<String, Path> journals = new TreeMap<>();
        try (Stream<Path> entries = Files.list(root)) {
            entries.filter(dir -> JournalName.parse(dir.getFileName().toString()) != null)
                    .forEach(dir -> journals.put(dir.getFileName().toString(), dir));
        }
        return journals;
    }

    /** @return the excerpt count of every journal under {@code root}, by name */
    static TreeMap<String, Integer> counts(final Path root) throws IOException {
        final TreeMap<String, Integer> counts = new TreeMap<>();
        for (final var journal : journals(root).entrySet()) {
            counts.put(journal.getKey(), of(journal.getValue()).size());
        }
        return counts;
    }

    /**
     * Asserts that the replica holds every journal of the primary with the same excerpts at the same indexes, byte
     * for byte, and that each journal's sequence numbers within a cycle are strictly consecutive (no gap, no duplicate).
     */
    static void assertIdentical(final Path primary, final Path replica) throws IOException {
        final TreeMap<String, Path> journals = journals(primary);
        assertFalse(journals.isEmpty(), "no journals under " + primary);
        assertEquals(journals.keySet(), journals(replica).keySet(), "the replica's journals");
        for (final var journal : journals.entrySet()) {
            final Excerpts expected = of(journal.getValue());
            final Excerpts actual = of(replica.resolve(journal.getKey()));
            assertTrue(expected.size() > 0, journal.getKey() + " is empty");
            assertEquals(expected.indexes(), actual.indexes(), journal.getKey() + ": the indexes");
            for (int i = 0; i < expected.size(); i++) {
                if (!Arrays.equals(expected.bytes().get(i), actual.bytes().get(i))) {
                    fail(journal.getKey() + ": the excerpt at index 0x" + Long.toHexString(expected.indexes().get(i))
                            + " differs");
                }
            }
            assertConsecutive(journal.getKey(), actual.indexes());
        }
    }

    /** Asserts that {@code indexes} step by one within a cycle and start each cycle at sequence 0. */
    static void assertConsecutive(final String what, final List<Long> indexes) {
        for (int i = 1; i < indexes.size(); i++) {
            final long previous = indexes.get(i - 1);
            final long index = indexes.get(i);
            final boolean sameCycle = (index >>> 32) == (previous >>> 32);
            assertTrue(sameCycle ? index == previous + 1 : (index & 0xFFFF_FFFFL) == 0,
                    what + ": index 0x" + Long.toHexString(index) + " after 0x" + Long.toHexString(previous));
        }
    }
}
