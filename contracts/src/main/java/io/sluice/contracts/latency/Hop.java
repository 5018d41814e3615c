package io.sluice.contracts.latency;

/**
 * The stretches of a message's path that the tail times, each between two MetaData timestamps (named in
 * each constant's comment), plus the whole path. Together the five hops cover the end-to-end path without gap
 * or overlap, and {@link #span()} says in a line what each covers, for the tail's output. A journal append is
 * in the journal hop after it (a record cannot carry the time its own append ended); the gateway's socket write
 * is in gateway out. Which journal a hop is measured from, and how often, is up to the tail's {@code LatencyJoin}.
 */
public enum Hop {
    /** fixReceived to commandWriting: FIX decode, session checks and building the command; not its append. */
    GATEWAY_IN("gateway in", "gateway-in",
            "socket read returned -> FIX decoded, session checked, command built (before its append)"),
    /** commandWriting to engineRead: the command's append to the gateway journal, and the engine reading it. */
    JOURNAL_IN("journal in", "journal-in",
            "command append to the gateway journal -> engine has read it"),
    /** engineRead to reportWriting: validation and matching, up to the start of the reports' append. */
    ENGINE("engine", "engine",
            "engine has read the command -> validated and matched (before the reports' append)"),
    /** reportWriting to gatewayRead: the reports' append to the engine journal, and the gateway reading one. */
    JOURNAL_OUT("journal out", "journal-out",
            "reports' append to the engine journal -> gateway has read the report"),
    /**
     * gatewayRead to fixSent: FIX encode, the sent message's append to the gateway's own journal, the copy into
     * the connection's send buffer, the wait for the round's flush (after up to 64 reports and the session timers)
     * and the write(2) that hands the message's last byte to the kernel.
     */
    GATEWAY_OUT("gateway out", "gateway-out",
            "gateway has read the report -> FIX encoded, stored, queued, flushed: write(2) of its last byte returned"),
    /** fixReceived to fixSent: from the socket read of the order's last byte to the socket write of the report's. */
    END_TO_END("end to end", "end-to-end",
            "socket read of the order's last byte returned -> socket write of the report's last byte returned");

    private static final Hop[] VALUES = values();

    private final String label;
    private final String tag;
    private final String span;

    Hop(final String label, final String tag, final String span) {
        this.label = label;
        this.tag = tag;
        this.span = span;
    }

    /** @return every hop, in path order; a shared array: do not modify. */
    public static Hop[] all() {
        return VALUES;
    }

    /** @return the name shown in tables and plots. */
    public String label() {
        return label;
    }

    /** @return what the hop spans, from which event to which, in one line. */
    public String span() {
        return span;
    }

    /** @return the tag of this hop's histograms in an HdrHistogram interval log (no spaces or commas). */
    public String tag() {
        return tag;
    }
}
