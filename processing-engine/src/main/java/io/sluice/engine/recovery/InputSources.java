package io.sluice.engine.recovery;

import io.sluice.contracts.journal.Journals;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The input journals one engine reads, found by source id: the admin journal first (source
 * {@code Journals.ADMIN_SOURCE_ID}), then the gateway journals in configuration order. The engine polls them
 * round-robin; recovery and replay follow a recorded {@link ConsumptionOrder} through them.
 * <p>
 * Read-only (replay, the snapshotter), a root without an admin journal has none here (it was recorded by an engine
 * that never started, or is a replica that has not received it yet); it is opened when first asked for by source id,
 * if it has appeared by then.
 */
public final class InputSources implements AutoCloseable {
    private final Path journalRoot;
    private final boolean readOnly;
    private InputSource[] sources;

    /** Opens the admin journal and the journal of each of {@code gatewayIds} under {@code journalRoot}. */
    public InputSources(final Path journalRoot, final int... gatewayIds) {
        this(journalRoot, false, gatewayIds);
    }

    /**
     * Opens the admin journal (see {@link InputSource#admin}) and the journal of each of {@code gatewayIds}, read-only
     * if {@code readOnly} (see {@link InputSource}).
     *
     * @throws IllegalStateException if the admin journal is open to others or owned by another user
     */
    public InputSources(final Path journalRoot, final boolean readOnly, final int... gatewayIds) {
        this.journalRoot = journalRoot;
        this.readOnly = readOnly;
        final boolean admin = !readOnly || adminJournalExists();
        sources = new InputSource[gatewayIds.length + (admin ? 1 : 0)];
        try {
            if (admin) {
                sources[0] = InputSource.admin(journalRoot, readOnly);
            }
            for (int i = 0; i < gatewayIds.length; i++) {
                sources[i + (admin ? 1 : 0)] = new InputSource(journalRoot, gatewayIds[i], readOnly);
            }
        } catch (final RuntimeException e) {
            close();
            throw e;
        }
    }

    /** @return how many journals there are. */
    public int count() {
        return sources.length;
    }

    /** @return the {@code i}-th journal, in configuration order. */
    public InputSource get(final int i) {
        return sources[i];
    }

    /**
     * @return the journal of source {@code sourceId} (a gateway's id, or {@code Journals.ADMIN_SOURCE_ID}), or null if
     * it is not one of these
     */
    public InputSource bySourceId(final int sourceId) {
        for (final InputSource source : sources) {
            if (source.sourceId() == sourceId) {
                return source;
            }
        }
        if (sourceId == Journals.ADMIN_SOURCE_ID && readOnly && adminJournalExists()) {
            final InputSource admin = InputSource.admin(journalRoot, true);
            final InputSource[] more = new InputSource[sources.length + 1];
            more[0] = admin;
            System.arraycopy(sources, 0, more, 1, sources.length);
            sources = more;
            return admin;
        }
        return null;
    }

    /** Forgets which thread has read each journal ({@link InputSource#singleThreadedCheckReset}). */
    public void singleThreadedCheckReset() {
        for (final InputSource source : sources) {
            source.singleThreadedCheckReset();
        }
    }

    private boolean adminJournalExists() {
        return Files.exists(Journals.adminJournal(journalRoot).resolve("metadata.cq4t"));
    }

    @Override
    public void close() {
        for (final InputSource source : sources) {
            if (source != null) {
                source.close();
            }
        }
    }
}
