package io.sluice.tools.tail;

import io.sluice.contracts.MetaData;
import io.sluice.contracts.latency.Hop;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * Matches what the journals say about each message and records its hops. Commands come from the gateway
 * journals, reports from the engine journal (each carrying its command's MetaData), deliveries from the
 * gateways' own journals (carrying their report's MetaData); the key is MetaData (sourceId, eventId).
 * <p>
 * Hops are recorded where their timestamps are first complete: gateway in once per command; journal in
 * once per input (its first report); engine once per report; journal out, gateway out and end to end once
 * per delivery, the last two only for a delivery that went out to a socket (fixSent not 0). Before a record is
 * matched, the journal it refers to is read up to it (a delivery pulls the engine journal, a report pulls the
 * gateway journal), so matching never waits and memory stays fixed.
 * Allocation-free per record once every gateway has been seen.
 */
public final class LatencyJoin {
    private final TailFilter filter;
    private final Findings findings;
    private final IntervalClock clock;
    private final int windowCapacity;
    private final HopStatistics[] hops = new HopStatistics[Hop.all().length];
    private final Int2ObjectHashMap<Source> sources = new Int2ObjectHashMap<>();
    private ReportStream reports;
    private long commandsRead;
    private long reportsRead;
    private long deliveriesRead;

    LatencyJoin(final TailFilter filter, final Findings findings, final IntervalClock clock, final int windowCapacity) {
        this.filter = filter;
        this.findings = findings;
        this.clock = clock;
        this.windowCapacity = JoinWindow.requireCapacity(windowCapacity);
        for (final Hop hop : Hop.all()) {
            hops[hop.ordinal()] = new HopStatistics(hop, findings);
        }
    }

    /** @return the statistics of {@code hop}. */
    public HopStatistics statistics(final Hop hop) {
        return hops[hop.ordinal()];
    }

    void attach(final ReportStream reports) {
        this.reports = reports;
    }

    void attach(final CommandStream commands) {
        source(commands.gatewayId()).attach(commands);
    }

    void onCommand(final int gatewayId, final MetaData metaData, final long session) {
        clock.observe(metaData.commandWriting());
        commandsRead++;
        if (metaData.sourceId() != gatewayId) {
            findings.foreignSourceId(gatewayId, metaData);
        }
        source(metaData.sourceId()).commandRead(metaData.eventId(), session, findings);
        if (filter.inWindow(metaData.fixReceived()) && filter.accepts(gatewayId, session)) {
            record(Hop.GATEWAY_IN, metaData, metaData.fixReceived(), metaData.commandWriting());
        }
    }

    /** A report of the input {@code metaData} names, for {@code session} of gateway {@code gatewayId}. */
    void onReport(final MetaData metaData, final int gatewayId, final long session) {
        clock.observe(metaData.reportWriting());
        final long sequence = ++reportsRead;
        final long eventId = metaData.eventId();
        final Source source = source(metaData.sourceId());
        source.readCommandsUpTo(eventId);
        final boolean firstForInput = source.reportRead(eventId, findings);
        final JoinWindow.Match match = source.window().report(eventId, sequence);
        if (firstForInput && match == JoinWindow.Match.FOUND) {
            source.commandAnswered();
        }
        if (!filter.inWindow(metaData.fixReceived())) {
            return;
        }
        if (firstForInput) {
            final long inputSession = match == JoinWindow.Match.FOUND ? source.window().session(eventId) : session;
            if (filter.accepts(metaData.sourceId(), inputSession)) {
                record(Hop.JOURNAL_IN, metaData, metaData.commandWriting(), metaData.engineRead());
            }
        }
        if (filter.accepts(gatewayId, session)) {
            if (match == JoinWindow.Match.MISSING) {
                findings.reportWithoutCommand(metaData);
            } else if (match == JoinWindow.Match.FORGOTTEN) {
                findings.uncheckedJoin(metaData);
            }
            record(Hop.ENGINE, metaData, metaData.engineRead(), metaData.reportWriting());
        }
    }

    /** A delivery, read from {@code from}, of a report of the input {@code metaData} names, to {@code session}. */
    void onDelivery(final DeliveryStream from, final MetaData metaData, final long session) {
        clock.observe(metaData.fixSent() != 0 ? metaData.fixSent() : metaData.gatewayRead());
        deliveriesRead++;
        final long eventId = metaData.eventId();
        final Source source = source(metaData.sourceId());
        while (!source.inputReached(eventId) && reports != null && reports.readOne()) {
            // each report read moves the source's last input on
        }
        final JoinWindow.Match match = source.window().delivery(eventId);
        if (match == JoinWindow.Match.FOUND) {
            from.reportSequence(source.window().reportSequence(eventId));
        }
        if (!filter.inWindow(metaData.fixReceived()) || !filter.accepts(from.gatewayId(), session)) {
            return;
        }
        if (match == JoinWindow.Match.MISSING) {
            findings.deliveryWithoutReport(from.gatewayId(), metaData);
        } else if (match == JoinWindow.Match.FORGOTTEN) {
            findings.uncheckedJoin(metaData);
        }
        record(Hop.JOURNAL_OUT, metaData, metaData.reportWriting(), metaData.gatewayRead());
        if (metaData.fixSent() == 0) {
            findings.unsentDelivery(from.gatewayId(), metaData);
            return;
        }
        record(Hop.GATEWAY_OUT, metaData, metaData.gatewayRead(), metaData.fixSent());
        record(Hop.END_TO_END, metaData, metaData.fixReceived(), metaData.fixSent());
    }

    /** @return commands read from every gateway journal so far. */
    public long commandsRead() {
        return commandsRead;
    }

    /** @return reports read from the engine journal so far. */
    public long reportsRead() {
        return reportsRead;
    }

    /** @return deliveries read from the gateways' journals so far. */
    public long deliveriesRead() {
        return deliveriesRead;
    }

    /** @return commands read whose input has no report in the engine journal (yet). */
    public long commandsWithoutReport() {
        long total = 0;
        for (final Source source : sources.values()) {
            total += source.commandsWithoutReport();
        }
        return total;
    }

    private void record(final Hop hop, final MetaData metaData, final long start, final long end) {
        hops[hop.ordinal()].record(metaData, start, end);
    }

    private Source source(final int id) {
        Source source = sources.get(id);
        if (source == null) {
            source = new Source(id, windowCapacity);
            sources.put(id, source);
        }
        return source;
    }
}
