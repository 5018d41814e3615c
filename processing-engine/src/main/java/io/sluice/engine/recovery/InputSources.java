package io.sluice.engine.recovery;

import java.nio.file.Path;

/**
 * The gateway journals one engine reads, in configuration order, found by gateway id. The engine polls
 * them round-robin; recovery and replay follow a recorded {@link ConsumptionOrder} through them.
 */
public final class InputSources implements AutoCloseable {
    private final InputSource[] sources;

    /** Opens the journal of each of {@code gatewayIds} under {@code journalRoot}. */
    public InputSources(final Path journalRoot, final int... gatewayIds) {
        this(journalRoot, false, gatewayIds);
    }

    /** Opens the journal of each of {@code gatewayIds}, read-only if {@code readOnly} (see {@link InputSource}). */
    public InputSources(final Path journalRoot, final boolean readOnly, final int... gatewayIds) {
        sources = new InputSource[gatewayIds.length];
        try {
            for (int i = 0; i < gatewayIds.length; i++) {
                sources[i] = new InputSource(journalRoot, gatewayIds[i], readOnly);
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

    /** @return the journal of gateway {@code gatewayId}, or null if it is not one of these. */
    public InputSource byGatewayId(final int gatewayId) {
        for (final InputSource source : sources) {
            if (source.gatewayId() == gatewayId) {
                return source;
            }
        }
        return null;
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
