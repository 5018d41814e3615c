package io.sluice.tools.tail;

/**
 * What can make latency figures lie, as the tail finds it in the journals. Each is counted and shown next
 * to the figures instead of being silently dropped or smoothed over.
 */
public enum Finding {
    /** eventIds a gateway journal skips: the count is of missing ids. */
    MISSING_EVENT_IDS("eventIds missing from gateway journals"),
    /** Commands whose eventId repeats or goes backwards within their gateway journal. */
    REPEATED_EVENT_IDS("commands whose eventId repeats or goes backwards"),
    /** Commands whose MetaData names another gateway than the journal they are in. */
    FOREIGN_SOURCE_IDS("commands whose sourceId is not their journal's gateway"),
    /** Commands the engine journal skips: it answers later inputs of their gateway (every input yields a report). */
    SKIPPED_INPUTS("commands skipped by the engine journal"),
    /** Inputs of a gateway appearing out of order in the engine journal. */
    REORDERED_INPUTS("inputs out of order in the engine journal"),
    /** A hop whose end is before its start: a clock went backwards between two processes. */
    NEGATIVE_HOPS("negative hops (a clock went backwards), not recorded"),
    /** A hop with a timestamp of 0, i.e. a stage its writer says was not reached. */
    MISSING_TIMESTAMPS("hops with a timestamp of 0, not recorded"),
    /**
     * Deliveries of reports that did not go out to a socket when delivered (the client was offline, or the
     * connection closed first): fixSent 0, so they are in journal out but not in gateway out or end to end.
     */
    UNSENT_DELIVERIES("deliveries not sent to a socket (client offline or connection closed): "
            + "not in gateway out or end to end"),
    /** Reports whose command is not in the gateway journals. */
    REPORTS_WITHOUT_COMMAND("reports without a command"),
    /** Deliveries whose report is not in the engine journal. */
    DELIVERIES_WITHOUT_REPORT("deliveries without a report"),
    /** Reports or deliveries whose input is older than the join window, so they could not be checked. */
    UNCHECKED_JOINS("reports or deliveries older than the join window, not checked"),
    /** Commands, reports or deliveries whose bytes are not in the layout the tail reads (another journal format?). */
    UNREADABLE_RECORDS("commands, reports or deliveries not in Sluice's binary layout, skipped"),
    /** Commands, reports or deliveries whose bytes fail their checksum: damaged after they were written. */
    DAMAGED_RECORDS("commands, reports or deliveries failing their checksum (damaged), skipped");

    private static final Finding[] VALUES = values();

    private final String description;

    Finding(final String description) {
        this.description = description;
    }

    static Finding[] all() {
        return VALUES;
    }

    /** @return what the count of this finding counts. */
    public String description() {
        return description;
    }
}
