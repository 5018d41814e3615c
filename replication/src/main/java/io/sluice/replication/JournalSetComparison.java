package io.sluice.replication;

import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Whether a replica root holds the same journals as its primary, excerpt by excerpt. The same journals ({@code engine},
 * {@code gateway-N}, {@code gateway-N-out}), each with the same excerpts at the same indexes, byte for byte. What the
 * demo's {@code --replicate} summary and the multi-host scenario say at their end; both journals are
 * read read-only, in step, so a root of any size is compared in constant memory. While a replica is still catching up
 * it differs by holding fewer excerpts, so a caller polls {@link #of} until {@link #identical()} or a deadline.
 *
 * @param journals   how many journals were compared
 * @param excerpts   how many excerpts were found equal
 * @param difference the first difference, or null when the roots are identical
 */
public record JournalSetComparison(int journals, long excerpts, String difference) {

    /** @return true when every journal of the primary is in the replica with exactly its excerpts */
    public boolean identical() {
        return difference == null;
    }

    /** @return "identical: N journals, M excerpts" or the first difference */
    public String describe() {
        return identical() ? String.format(Locale.ROOT, "identical: %d journals, %,d excerpts", journals, excerpts)
                : "not identical: " + difference;
    }

    /** Compares every journal under {@code primary} with the one of the same name under {@code replica}. */
    public static JournalSetComparison of(final Path primary, final Path replica) {
        final TreeSet<String> names = journalNames(primary);
        final TreeSet<String> replicaNames = journalNames(replica);
        if (names.isEmpty()) {
            return new JournalSetComparison(0, 0, "no journals under " + primary);
        }
        if (!names.equals(replicaNames)) {
            return new JournalSetComparison(0, 0, "the primary has journals " + names + ", the replica " + replicaNames);
        }
        long excerpts = 0;
        for (final String name : names) {
            final long[] equal = {0};
            final String difference = compare(name, primary.resolve(name), replica.resolve(name), equal);
            excerpts += equal[0];
            if (difference != null) {
                return new JournalSetComparison(names.size(), excerpts, difference);
            }
        }
        return new JournalSetComparison(names.size(), excerpts, null);
    }

    private static String compare(final String name, final Path primary, final Path replica, final long[] equal) {
        try {
            return compareOpened(name, primary, replica, equal);
        } catch (final IllegalStateException notReadableYet) {
            // A journal its writer has just created can lack the keys of its table store for a moment, and a read-only
            // open refuses it: a difference for now (a caller polls again), never a failure of the comparison.
            return name + ": not readable yet (" + notReadableYet.getMessage() + ")";
        }
    }

    private static String compareOpened(final String name, final Path primary, final Path replica, final long[] equal) {
        try (ChronicleQueue expected = Journals.openReadOnly(primary); ChronicleQueue actual = Journals.openReadOnly(replica);
             ExcerptTailer expectedTailer = expected.createTailer(); ExcerptTailer actualTailer = actual.createTailer()) {
            while (true) {
                try (DocumentContext left = expectedTailer.readingDocument();
                     DocumentContext right = actualTailer.readingDocument()) {
                    if (!left.isPresent() || !right.isPresent()) {
                        if (left.isPresent() || right.isPresent()) {
                            return name + ": the " + (left.isPresent() ? "replica" : "primary") + " ends after "
                                    + equal[0] + " excerpts, the other has more";
                        }
                        return null;
                    }
                    if (left.index() != right.index()) {
                        return name + ": excerpt " + equal[0] + " is at index 0x" + Long.toHexString(left.index())
                                + " in the primary, 0x" + Long.toHexString(right.index()) + " in the replica";
                    }
                    if (!Arrays.equals(contentOf(left), contentOf(right))) {
                        return name + ": the excerpt at index 0x" + Long.toHexString(left.index()) + " differs";
                    }
                    equal[0]++;
                }
            }
        }
    }

    private static byte[] contentOf(final DocumentContext document) {
        final Bytes<?> content = document.wire().bytes();
        final byte[] copy = new byte[(int) content.readRemaining()];
        content.read(copy);
        return copy;
    }

    /** @return the names of the journals directly under {@code root}: engine, gateway-N, gateway-N-out */
    private static TreeSet<String> journalNames(final Path root) {
        final TreeSet<String> names = new TreeSet<>();
        if (!Files.isDirectory(root)) {
            return names;
        }
        try (Stream<Path> entries = Files.list(root)) {
            entries.filter(dir -> Files.exists(dir.resolve("metadata.cq4t")))
                    .map(dir -> dir.getFileName().toString())
                    .filter(name -> name.equals(Journals.ENGINE) || name.startsWith(Journals.GATEWAY_PREFIX))
                    .forEach(names::add);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list the journals under " + root, e);
        }
        return names;
    }
}
