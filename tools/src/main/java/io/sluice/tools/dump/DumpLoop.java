package io.sluice.tools.dump;

import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The read, print and idle loop of {@code ./sluice dump}, one for every kind of journal.
 * It opens the journal read-only, starts at an index if asked, prints excerpt after excerpt through the journal kind's
 * {@link ExcerptPrinter}, and either follows new excerpts or proves the journal's end: a damaged excerpt, its header
 * included, stops the dump naming journal, file, index and offset, exit code {@value JournalDump#EXIT_CORRUPT}.
 */
final class DumpLoop {

    /** What one read of an excerpt gave. */
    enum Read {
        /** No excerpt: the journal's end, or nothing new yet when following. */
        NONE,
        /** An excerpt with nothing to print (metadata, or calls the printer leaves out). */
        SILENT,
        /** An excerpt, printed. */
        PRINTED
    }

    /** Reads and prints the excerpts of one kind of journal, on the tailer it was opened with. */
    interface ExcerptPrinter extends AutoCloseable {
        /**
         * @param toEnd     read as at rest: where there is no excerpt, prove the journal's end (else: read live)
         * @param showIndex print each excerpt's index before it
         * @param out       where to print the excerpt
         * @return what the read gave
         * @throws CorruptJournalException if the excerpt is damaged
         */
        Read printOne(boolean toEnd, boolean showIndex, PrintStream out);

        @Override
        default void close() {
        }
    }

    /** Opens the {@link ExcerptPrinter} for one journal kind. */
    @FunctionalInterface
    interface PrinterFactory {
        ExcerptPrinter open(ChronicleQueue journal, ExcerptTailer tailer);
    }

    private DumpLoop() {
    }

    /**
     * @param start the index to start at, or a negative number for the first excerpt
     * @param max   at most this many excerpts printed
     * @return the exit code: 0, 1 (no excerpt at {@code start}) or {@value JournalDump#EXIT_CORRUPT} (damaged)
     */
    static int run(final Path dir, final PrinterFactory printers, final boolean showIndex, final boolean follow,
                   final long start, final long max, final PrintStream out, final PrintStream err) {
        try (ChronicleQueue journal = Journals.openReadOnly(dir); ExcerptTailer tailer = journal.createTailer()) {
            if (start >= 0 && !tailer.moveToIndex(start)) {
                err.println("dump: no excerpt at index 0x" + Long.toHexString(start) + " in " + dir.toAbsolutePath());
                return 1;
            }
            final IdleStrategy idle = new BackoffIdleStrategy();
            try (ExcerptPrinter printer = printers.open(journal, tailer)) {
                long printed = 0;
                while (printed < max) {
                    final Read read = printer.printOne(!follow, showIndex, out);
                    if (read == Read.NONE) {
                        if (!follow) {
                            break;
                        }
                        idle.idle();
                    } else {
                        printed += read == Read.PRINTED ? 1 : 0;
                        idle.reset();
                    }
                }
            }
            out.flush();
            return 0;
        } catch (final CorruptJournalException e) {
            out.flush();
            err.println("dump: stopped on a damaged journal: " + e.getMessage());
            return JournalDump.EXIT_CORRUPT;
        }
    }
}
