package io.sluice.bench.tail;

import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.core.onoes.ExceptionHandler;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

import java.nio.file.Path;

/**
 * One journal the tail follows: opened read-only (so the tail can never disturb a writer), read by a
 * Chronicle method reader one excerpt at a time, from its start or from its end at the time of opening.
 * Methods the reader's interface does not know (a gateway's private records) are skipped silently.
 */
abstract class JournalStream implements AutoCloseable {
    private final ChronicleQueue queue;
    private final ExcerptTailer tailer;
    private MethodReader reader;

    JournalStream(final Path dir, final boolean fromStart) {
        this.queue = Journals.openReadOnly(dir);
        this.tailer = queue.createTailer();
        if (!fromStart) {
            tailer.toEnd();
        }
    }

    /** Dispatches what is read to {@code handler}; subclasses call this once, at the end of construction. */
    final void readInto(final Object handler) {
        reader = tailer.methodReaderBuilder()
                .exceptionHandlerOnUnknownMethod(ExceptionHandler.ignoresEverything())
                .build(handler);
    }

    /** @return whether an excerpt was read (and dispatched); false when the journal has nothing more now. */
    final boolean readOne() {
        return reader.readOne();
    }

    @Override
    public void close() {
        queue.close();
    }
}
