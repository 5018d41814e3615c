package io.sluice.tools.tail;

import io.sluice.contracts.MetaData;
import io.sluice.contracts.latency.Hop;
import io.sluice.contracts.time.SluiceClock;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Counts of every {@link Finding}, per interval and in total, with a few example lines naming the journal,
 * gateway and eventId involved. Counting never allocates; an example line is built only while fewer than
 * {@link #EXAMPLES_PER_INTERVAL} were kept in the interval, so a flood of bad records costs counts only.
 */
public final class Findings {
    /** How many example lines each interval keeps. */
    public static final int EXAMPLES_PER_INTERVAL = 5;
    /** How many example lines the whole run keeps for its summary. */
    public static final int EXAMPLES_IN_SUMMARY = 10;

    private final long[] interval = new long[Finding.all().length];
    private final long[] total = new long[Finding.all().length];
    private final List<String> intervalExamples = new ArrayList<>();
    private final List<String> summaryExamples = new ArrayList<>();

    /** @return how many of {@code finding} the run has seen so far. */
    public long total(final Finding finding) {
        return total[finding.ordinal()];
    }

    /** @return the example lines kept for the summary. */
    public List<String> examples() {
        return summaryExamples;
    }

    void missingEventIds(final int gatewayId, final long previous, final long next) {
        if (count(Finding.MISSING_EVENT_IDS, next - previous - 1)) {
            example("gateway-%d: eventId %d follows %d (%d missing)", gatewayId, next, previous, next - previous - 1);
        }
    }

    void repeatedEventId(final int gatewayId, final long previous, final long next) {
        if (count(Finding.REPEATED_EVENT_IDS, 1)) {
            example("gateway-%d: eventId %d follows %d", gatewayId, next, previous);
        }
    }

    void foreignSourceId(final int gatewayId, final MetaData metaData) {
        if (count(Finding.FOREIGN_SOURCE_IDS, 1)) {
            example("gateway-%d: command %d names sourceId %d", gatewayId, metaData.eventId(), metaData.sourceId());
        }
    }

    void skippedInputs(final int sourceId, final long previous, final long next, final long skipped) {
        if (count(Finding.SKIPPED_INPUTS, skipped)) {
            example("engine: reports for gateway-%d input %d follow input %d (%d commands in between unanswered)",
                    sourceId, next, previous, skipped);
        }
    }

    void reorderedInput(final int sourceId, final long previous, final long next) {
        if (count(Finding.REORDERED_INPUTS, 1)) {
            example("engine: reports for gateway-%d input %d follow input %d", sourceId, next, previous);
        }
    }

    void negativeHop(final Hop hop, final MetaData metaData, final long ticks) {
        if (count(Finding.NEGATIVE_HOPS, 1)) {
            example("%s of gateway-%d input %d: %.1f µs", hop.label(), metaData.sourceId(), metaData.eventId(),
                    SluiceClock.ticksToMicros(ticks));
        }
    }

    void missingTimestamp(final Hop hop, final MetaData metaData) {
        if (count(Finding.MISSING_TIMESTAMPS, 1)) {
            example("%s of gateway-%d input %d: a timestamp is 0", hop.label(), metaData.sourceId(), metaData.eventId());
        }
    }

    void unsentDelivery(final int gatewayId, final MetaData metaData) {
        if (count(Finding.UNSENT_DELIVERIES, 1)) {
            example("gateway-%d-out: report for gateway-%d input %d was stored for resend, not sent", gatewayId,
                    metaData.sourceId(), metaData.eventId());
        }
    }

    void reportWithoutCommand(final MetaData metaData) {
        if (count(Finding.REPORTS_WITHOUT_COMMAND, 1)) {
            example("engine: report for gateway-%d input %d, which no gateway journal holds",
                    metaData.sourceId(), metaData.eventId());
        }
    }

    void deliveryWithoutReport(final int gatewayId, final MetaData metaData) {
        if (count(Finding.DELIVERIES_WITHOUT_REPORT, 1)) {
            example("gateway-%d-out: delivery for gateway-%d input %d, which the engine journal has no report for",
                    gatewayId, metaData.sourceId(), metaData.eventId());
        }
    }

    void uncheckedJoin(final MetaData metaData) {
        if (count(Finding.UNCHECKED_JOINS, 1)) {
            example("gateway-%d input %d is older than the join window", metaData.sourceId(), metaData.eventId());
        }
    }

    void unreadableRecord(final String journal, final long index, final long methodId) {
        if (count(Finding.UNREADABLE_RECORDS, 1)) {
            example("%s: excerpt index 0x%x, method id %d: payload not in Sluice's binary layout", journal, index, methodId);
        }
    }

    void damagedRecord(final String journal, final String file, final long index, final long fileOffset, final long methodId) {
        if (count(Finding.DAMAGED_RECORDS, 1)) {
            example("%s: file %s, excerpt index 0x%x, byte offset %d, method id %d: checksum mismatch", journal, file, index,
                    fileOffset, methodId);
        }
    }

    /** Prints the interval's findings, if any, as lines starting with "! ", then starts a new interval. */
    void printInterval(final PrintStream out) {
        print(out, interval, intervalExamples);
        Arrays.fill(interval, 0);
        intervalExamples.clear();
    }

    /** Prints the run's findings; says so plainly when there were none. */
    void printSummary(final PrintStream out, final long commandsWithoutReport) {
        boolean any = print(out, total, summaryExamples);
        if (commandsWithoutReport > 0) {
            out.printf(Locale.ROOT, "! %d commands without a report (yet)%n", commandsWithoutReport);
            any = true;
        }
        if (!any) {
            out.println("no eventId gaps, negative hops, missing timestamps or unmatched reports and deliveries");
        }
    }

    private static boolean print(final PrintStream out, final long[] counts, final List<String> examples) {
        boolean any = false;
        for (final Finding finding : Finding.all()) {
            final long count = counts[finding.ordinal()];
            if (count > 0) {
                out.printf(Locale.ROOT, "! %d %s%n", count, finding.description());
                any = true;
            }
        }
        for (final String example : examples) {
            out.println("!   " + example);
        }
        return any;
    }

    /** @return whether to build an example line for this occurrence. */
    private boolean count(final Finding finding, final long count) {
        interval[finding.ordinal()] += count;
        total[finding.ordinal()] += count;
        return intervalExamples.size() < EXAMPLES_PER_INTERVAL;
    }

    private void example(final String format, final Object... args) {
        final String line = String.format(Locale.ROOT, format, args);
        intervalExamples.add(line);
        if (summaryExamples.size() < EXAMPLES_IN_SUMMARY) {
            summaryExamples.add(line);
        }
    }
}
