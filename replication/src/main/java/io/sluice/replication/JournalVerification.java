package io.sluice.replication;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.NoOpGatewayRecords;
import io.sluice.contracts.NoOpGatewayToEngine;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.ExcerptCount;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Every journal under a root read with every record's checksum checked, continued from where the last read stopped.
 * {@code ./sluice promote} reads each journal once, to its end; a {@link Standby} reads on while its receiver writes,
 * so that its promotion has only the last excerpts left to check. The market-data journal holds batches, not calls: it
 * is counted, not decoded (its checksums are not checked here). Reads as a writer appends are safe
 * ({@link JournalReader#readOneToEnd}).
 */
final class JournalVerification implements AutoCloseable {
    private final Path root;
    private final List<Verified> journals = new ArrayList<>();

    /** One journal: its reader, where it stands, and how many excerpts it read. */
    private static final class Verified implements AutoCloseable {
        private final String name;
        private final ChronicleQueue journal;
        private final ExcerptTailer tailer;
        private final JournalReader reader;
        private long count;

        Verified(final String name, final ChronicleQueue journal, final boolean holdsCalls) {
            this.name = name;
            this.journal = journal;
            this.tailer = holdsCalls ? journal.createTailer() : null;
            this.reader = holdsCalls ? new JournalReader(journal, tailer, discardEverything()) : null;
        }

        @Override
        public void close() {
            if (reader != null) {
                reader.close();
                tailer.close();
            }
            journal.close();
        }
    }

    JournalVerification(final Path root) {
        this.root = root;
    }

    /**
     * Reads on in every journal found under the root, at most {@code limit} excerpts in all.
     *
     * @return the excerpts read: fewer than {@code limit} when every journal was read to its end
     * @throws CorruptJournalException naming journal, file, index and offset of a damaged record
     */
    int readOn(final int limit) {
        discover();
        int read = 0;
        for (final Verified verified : journals) {
            while (verified.reader != null && read < limit && verified.reader.readOneToEnd()) {
                verified.count++;
                read++;
            }
        }
        return read;
    }

    /** Reads every journal to its end. @throws CorruptJournalException as {@link #readOn} does */
    void readToEnd() {
        readOn(Integer.MAX_VALUE);
    }

    /** @return each journal's excerpt count, by name: those read, or for the market-data journal those it holds */
    Map<String, Long> counts() {
        final Map<String, Long> counts = new TreeMap<>();
        for (final Verified verified : journals) {
            counts.put(verified.name, verified.reader == null ? ExcerptCount.of(verified.journal) : verified.count);
        }
        return counts;
    }

    /** @return the classes of the method readers it reads the journals with, one per journal that holds calls */
    List<Class<?>> readerClasses() {
        return journals.stream().filter(verified -> verified.reader != null)
                .<Class<?>>map(verified -> verified.reader.methodReaderClass()).toList();
    }

    /** Opens each journal that appeared under the root since the last look. */
    private void discover() {
        if (!Files.isDirectory(root)) {
            return; // a standby's receiver has not created it yet
        }
        try (Stream<Path> children = Files.list(root)) {
            // A journal's directory without a created journal holds only the writer lock of a process that was refused
            // before it created one, or a journal the receiver is creating now (opened once created).
            for (final Path dir : children.sorted().toList()) {
                final String name = dir.getFileName().toString();
                final JournalName journal = JournalName.parse(name);
                if (journal != null && !opened(name) && Journals.isCreated(dir)) {
                    journals.add(new Verified(name, Journals.openReadOnly(dir), journal.holdsCalls()));
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + root.toAbsolutePath(), e);
        }
    }

    private boolean opened(final String name) {
        for (final Verified verified : journals) {
            if (verified.name.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Takes every record of every journal type and keeps nothing: reading is the check. */
    private static Object[] discardEverything() {
        final AdminCommands adminCommands = new AdminCommands() {
            @Override
            public void adminCommand(final AdminCommand command) {
            }
        };
        return new Object[] {new NoOpEngineToGateway(), new NoOpGatewayToEngine(), new NoOpGatewayRecords(),
            adminCommands};
    }

    @Override
    public void close() {
        journals.forEach(Verified::close);
        journals.clear();
    }
}
