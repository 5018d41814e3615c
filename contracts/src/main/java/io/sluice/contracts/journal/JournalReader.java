package io.sluice.contracts.journal;

import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

/**
 * A method reader on one journal's tailer that never lets damage pass unnamed: an excerpt whose records fail
 * their checksum, do not decode, or name a method the handlers do not have stops reading with a
 * {@link CorruptJournalException} naming the journal, its cycle file, the excerpt's index and the byte offset.
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
        } catch (final net.openhft.chronicle.core.util.InvocationTargetRuntimeException handlerFailure) {
            throw handlerFailure.getCause() instanceof RuntimeException runtime ? runtime : handlerFailure;
        } catch (final RuntimeException e) {
            throw CorruptJournalException.reading(journal, index, e);
        }
    }

    @Override
    public void close() {
        reader.close();
    }
}
