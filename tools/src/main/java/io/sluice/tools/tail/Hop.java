package io.sluice.tools.tail;

/**
 * The stretches of a message's path that the tail times, each between two MetaData timestamps (named in
 * each constant's comment), plus the whole path. Which journal a hop is measured from, and how often, is up
 * to {@link LatencyJoin}.
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
    public static Hop[] all() {
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
}
