package io.sluice.bench.tail;

import io.sluice.contracts.MetaData;

/**
 * The stretches of a message's path that the tail times, each between two {@link MetaData} timestamps,
 * plus the whole path. Which journal a hop is measured from, and how often, is up to {@link LatencyJoin}.
 */
public enum Hop {
    /** FIX bytes received to command written: the gateway's inbound work. */
    GATEWAY_IN("gateway in", "gateway-in"),
    /** Command written to engine read: the gateway journal hop. */
    JOURNAL_IN("journal in", "journal-in"),
    /** Engine read to report written: validation, matching and the report append. */
    ENGINE("engine", "engine"),
    /** Report written to gateway read: the engine journal hop. */
    JOURNAL_OUT("journal out", "journal-out"),
    /** Gateway read to FIX bytes sent: the gateway's outbound work. */
    GATEWAY_OUT("gateway out", "gateway-out"),
    /** FIX bytes received to FIX report sent. */
    END_TO_END("end to end", "end-to-end");

    private static final Hop[] VALUES = values();

    private final String label;
    private final String tag;

    Hop(final String label, final String tag) {
        this.label = label;
        this.tag = tag;
    }

    /** @return every hop, in path order; a shared array: do not modify. */
    static Hop[] all() {
        return VALUES;
    }

    /** @return the name shown in tables and plots. */
    public String label() {
        return label;
    }

    /** @return the tag of this hop's histograms in an HdrHistogram interval log (no spaces or commas). */
    public String tag() {
        return tag;
    }

    /** @return the timestamp this hop starts at, in ticks; 0 when not reached. */
    public long start(final MetaData metaData) {
        return switch (this) {
            case GATEWAY_IN, END_TO_END -> metaData.fixReceived();
            case JOURNAL_IN -> metaData.commandWritten();
            case ENGINE -> metaData.engineRead();
            case JOURNAL_OUT -> metaData.reportWritten();
            case GATEWAY_OUT -> metaData.gatewayRead();
        };
    }

    /** @return the timestamp this hop ends at, in ticks; 0 when not reached. */
    public long end(final MetaData metaData) {
        return switch (this) {
            case GATEWAY_IN -> metaData.commandWritten();
            case JOURNAL_IN -> metaData.engineRead();
            case ENGINE -> metaData.reportWritten();
            case JOURNAL_OUT -> metaData.gatewayRead();
            case GATEWAY_OUT, END_TO_END -> metaData.fixSent();
        };
    }
}
