package io.sluice.contracts.journal;

import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.core.util.InvocationTargetRuntimeException;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.ExcerptContext;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;

/**
 * A method reader on one journal's tailer that never lets damage pass unnamed. An excerpt whose records fail their
 * checksum, do not decode, or name a method the handlers do not have stops reading with a {@link
 * CorruptJournalException} naming the journal, its cycle file, the excerpt's index and the byte offset.
 * What the handlers themselves throw passes through unchanged. Allocation-free per excerpt; single-threaded,
 * like the tailer.
 */
public final class JournalReader implements AutoCloseable {
    private final ChronicleQueue journal;
    private final ExcerptTailer tailer;
    private final MethodReader reader;

    /**
     * @param journal  the journal {@code tailer} reads
     * @param tailer   where to read, in its direction
     * @param handlers what the excerpts' method calls are dispatched to
     */
    public JournalReader(final ChronicleQueue journal, final ExcerptTailer tailer, final Object... handlers) {
        this.journal = journal;
        this.tailer = tailer;
        reader = tailer.methodReaderBuilder()
                .defaultParselet((name, in) -> {
                    throw new IllegalStateException("unknown message '" + name + "' in journal " + journal.fileAbsolutePath());
                })
                .build(handlers);
    }

    /**
     * Reads the next excerpt and dispatches its calls.
     *
     * @return false if there is none (yet)
     * @throws CorruptJournalException if the excerpt is damaged
     */
    public boolean readOne() {
        final long index = tailer.index();
        try {
            return reader.readOne();
        } catch (final InvocationTargetRuntimeException handlerFailure) {
            throw handlerFailure.getCause() instanceof RuntimeException runtime ? runtime : handlerFailure;
        } catch (final RuntimeException e) {
            throw CorruptJournalException.reading(journal, index, e);
        }
    }

    /**
     * Reads the next excerpt as {@link #readOne} does; where there is none, proves that the tailer stands at the
     * journal's end, not before an excerpt it cannot read while the journal holds later ones (a damaged header). Safe
     * while a writer appends: an excerpt it completes meanwhile is read, not taken for damage. Not for a live loop:
     * finding nothing costs a look-up of the journal's last index.
     *
     * @return false at the journal's end
     * @throws CorruptJournalException if an excerpt is damaged, its header included: the journal, cycle file, index and
     *                                 byte offset of the excerpt, and the last index the journal holds
     */
    public boolean readOneToEnd() {
        return readOneToEnd(journal, tailer, JournalReader::readOne, this);
    }

    /**
     * Reads the next excerpt with {@code step}; where there is none, proves that {@code tailer} stands at the journal's
     * end, as {@link #readOneToEnd()} does for method calls: the one place that tells a journal's end from a damaged
     * excerpt header, for every reader of a journal, whatever its excerpts hold.
     *
     * @param journal the journal {@code tailer} reads
     * @param tailer  the tailer {@code step} reads with
     * @param step    reads one excerpt on {@code tailer} into its handler
     * @param handler what {@code step} reads into
     * @param <H>     the handler's type
     * @return false at the journal's end
     * @throws CorruptJournalException if an excerpt is damaged, its header included
     */
    public static <H> boolean readOneToEnd(final ChronicleQueue journal, final ExcerptTailer tailer, final ReadStep<H> step,
                                           final H handler) {
        if (step.readOne(handler)) {
            return true;
        }
        if (!standsBeforeLast(journal, tailer)) {
            return false;
        }
        // The journal holds an excerpt here: if a writer completed it just now, it reads now; if not, it is damaged.
        if (step.readOne(handler)) {
            return true;
        }
        throw unreadable(journal, tailer);
    }

    /**
     * Moves {@code tailer} over every excerpt to the journal's last, without decoding them (their checksums are for the
     * reader that acts on them), proving that every excerpt header up to there is readable: as {@link #readOneToEnd}
     * does, safe while a writer appends.
     *
     * @throws CorruptJournalException at the first excerpt the journal holds that cannot be read
     */
    public static void skipToEnd(final ChronicleQueue journal, final ExcerptTailer tailer) {
        final ReadStep<ExcerptTailer> skip = skipping -> skipOne(journal, skipping);
        while (readOneToEnd(journal, tailer, skip, tailer)) {
            // every excerpt header up to here is readable
        }
    }

    private static boolean skipOne(final ChronicleQueue journal, final ExcerptTailer tailer) {
        final long index = tailer.index();
        try (DocumentContext dc = tailer.readingDocument(true)) {
            return dc.isPresent();
        } catch (final RuntimeException e) {
            throw CorruptJournalException.reading(journal, index, e);
        }
    }

    /**
     * For a tailer that found nothing to read in a journal no one is writing (its writer lock held by the caller):
     * @throws CorruptJournalException if the tailer stands before the journal's last excerpt, at one it cannot read
     */
    public static void requireEnd(final ChronicleQueue journal, final ExcerptTailer tailer) {
        if (standsBeforeLast(journal, tailer)) {
            throw unreadable(journal, tailer);
        }
    }

    private static boolean standsBeforeLast(final ChronicleQueue journal, final ExcerptTailer tailer) {
        final long last = journal.lastIndex();
        final long index = tailer.index();
        return last >= 0 && index != 0 && index <= last;
    }

    /** @return the damage at the excerpt {@code tailer} stands at: its header, where the tailer's wire is */
    private static CorruptJournalException unreadable(final ChronicleQueue journal, final ExcerptTailer tailer) {
        final Wire wire = tailer instanceof ExcerptContext context ? context.wire() : null;
        return CorruptJournalException.at(journal, tailer.index(), wire == null ? -1 : wire.bytes().readPosition(),
                "the excerpt cannot be read (its header is damaged), though the journal holds excerpts up to index 0x"
                        + Long.toHexString(journal.lastIndex()), null);
    }

    /**
     * Reads one excerpt into a handler, for {@link #readOneToEnd(ChronicleQueue, ExcerptTailer, ReadStep, Object)}.
     *
     * @param <H> the handler's type
     */
    @FunctionalInterface
    public interface ReadStep<H> {
        /** @return false if there is no excerpt to read (yet) */
        boolean readOne(H handler);
    }

    @Override
    public void close() {
        reader.close();
    }
}
