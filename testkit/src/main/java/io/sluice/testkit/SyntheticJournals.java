package io.sluice.testkit;

import io.sluice.contracts.MetaData;
import io.sluice.contracts.latency.Hop;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.nio.file.Path;

/**
 * A complete journal set with known latencies. {@code gateways} gateways each send new orders from one session, the
 * engine answers each with one report (every fourth input with two, in one excerpt), and each gateway delivers its
 * reports. Input n of gateway g arrives at
 * {@code startTicks + n * SPACING_TICKS + g}; every hop then takes what the {@link LatencyPattern} says.
 */
public final class SyntheticJournals {
    /** 2026-01-01T00:00:00Z in ticks. */
    public static final long START_TICKS = 1_767_225_600L * 10_000_000L;
    /** Ticks between two inputs of one gateway: 5 µs, i.e. 200 k inputs/s per gateway. */
    public static final long SPACING_TICKS = 50;

    private final int gateways;
    private final LatencyPattern pattern;
    private final long startTicks;

    /** Journals starting at {@link #START_TICKS}. */
    public SyntheticJournals(final int gateways, final LatencyPattern pattern) {
        this(gateways, pattern, START_TICKS);
    }

    /** Journals whose input 0 (were there one) would arrive at {@code startTicks}. */
    public SyntheticJournals(final int gateways, final LatencyPattern pattern, final long startTicks) {
        this.gateways = gateways;
        this.pattern = pattern;
        this.startTicks = startTicks;
    }

    /** @return how many reports the engine writes for input {@code eventId}. */
    public static int reportsFor(final long eventId) {
        return eventId % 4 == 0 ? 2 : 1;
    }

    /** @return the one session gateway {@code gatewayId} carries, as a packed SenderCompID ("CLIENTn"). */
    public static long session(final int gatewayId) {
        return ShortTextLongConverter.INSTANCE.parse("CLIENT" + gatewayId);
    }

    /** Writes inputs {@code firstEventId} to {@code lastEventId} of every gateway, and what follows from them, under {@code root}. */
    public void write(final Path root, final long firstEventId, final long lastEventId) {
        final MetaData metaData = new MetaData();
        try (JournalSetWriter writer = new JournalSetWriter(root)) {
            for (long eventId = firstEventId; eventId <= lastEventId; eventId++) {
                for (int gatewayId = 1; gatewayId <= gateways; gatewayId++) {
                    final long session = session(gatewayId);
                    command(metaData, gatewayId, eventId);
                    writer.newOrder(gatewayId, session, metaData);
                    final int reports = reportsFor(eventId);
                    try (DocumentContext ignored = writer.engineExcerpt()) {
                        for (int report = 0; report < reports; report++) {
                            report(metaData, gatewayId, eventId, report);
                            writer.executionReport(gatewayId, session, execId(eventId, report), metaData);
                        }
                    }
                    for (int report = 0; report < reports; report++) {
                        delivery(metaData, gatewayId, eventId, report);
                        writer.delivery(gatewayId, session, execId(eventId, report), metaData);
                    }
                }
            }
        }
    }

    /** Fills {@code metaData} as gateway {@code gatewayId} writes command {@code eventId}. */
    public MetaData command(final MetaData metaData, final int gatewayId, final long eventId) {
        final long fixReceived = startTicks + eventId * SPACING_TICKS + gatewayId;
        return metaData.clearTimestamps().sourceId(gatewayId).eventId(eventId).fixReceived(fixReceived)
                .commandWriting(fixReceived + pattern.ticks(Hop.GATEWAY_IN, gatewayId, eventId, 0));
    }

    /** Fills {@code metaData} as the engine writes report {@code report} of that command. */
    public MetaData report(final MetaData metaData, final int gatewayId, final long eventId, final int report) {
        command(metaData, gatewayId, eventId);
        final long engineRead = metaData.commandWriting() + pattern.ticks(Hop.JOURNAL_IN, gatewayId, eventId, 0);
        return metaData.engineRead(engineRead)
                .reportWriting(engineRead + pattern.ticks(Hop.ENGINE, gatewayId, eventId, report));
    }

    /** Fills {@code metaData} as the gateway records delivering that report. */
    public MetaData delivery(final MetaData metaData, final int gatewayId, final long eventId, final int report) {
        report(metaData, gatewayId, eventId, report);
        final long gatewayRead = metaData.reportWriting() + pattern.ticks(Hop.JOURNAL_OUT, gatewayId, eventId, report);
        return metaData.gatewayRead(gatewayRead)
                .fixSent(gatewayRead + pattern.ticks(Hop.GATEWAY_OUT, gatewayId, eventId, report));
    }

    private static long execId(final long eventId, final int report) {
        return eventId * 4 + report;
    }
}
