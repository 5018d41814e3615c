package io.sluice.testkit;

import io.sluice.contracts.Delivery;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.GatewayDeliveries;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.Int2ObjectHashMap;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a journal set the way gateways and engine do, through the contracts' method writers. Commands to {@code
 * gateway-N}, reports to {@code engine}, deliveries to {@code gateway-N-out}, each with the MetaData it is given. Each
 * journal has one appender, so calls made while one of its {@link #excerpt excerpts} is
 * open land in that excerpt, as when the engine answers an input with several reports or a gateway records
 * a message sent together with its delivery. For synthetic journals with known latencies (tests, the
 * offline benchmark); not a simulator.
 */
public final class JournalSetWriter implements AutoCloseable {
    private final Path root;
    private final Map<Path, ChronicleQueue> queues = new LinkedHashMap<>();
    private final Map<Path, ExcerptAppender> appenders = new LinkedHashMap<>();
    private final Int2ObjectHashMap<GatewayToEngine> commands = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<GatewayDeliveries> deliveries = new Int2ObjectHashMap<>();
    private final EngineToGateway reports;
    private final NewOrder order = new NewOrder();
    private final ExecutionReport report = new ExecutionReport();
    private final Delivery delivery = new Delivery();

    public JournalSetWriter(final Path root) {
        this.root = root;
        reports = writer(Journals.engineJournal(root), EngineToGateway.class);
        order.side(Side.BUY).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY).orderQty(100).price(Price.of(10));
        report.execType(ExecType.NEW).side(Side.BUY).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY)
                .orderQty(100).price(Price.of(10)).leavesQty(100);
        report.ordStatus(OrdStatus.NEW);
    }

    /** Appends a new order from {@code session} to gateway {@code gatewayId}'s command journal. */
    public void newOrder(final int gatewayId, final long session, final MetaData metaData) {
        order.metaData().copyFrom(metaData);
        order.session(session).clOrdId(metaData.eventId());
        GatewayToEngine writer = commands.get(gatewayId);
        if (writer == null) {
            writer = writer(Journals.gatewayJournal(root, gatewayId), GatewayToEngine.class);
            commands.put(gatewayId, writer);
        }
        writer.newOrder(order);
    }

    /** Appends an execution report for {@code session} of gateway {@code ownerGatewayId} to the engine journal. */
    public void executionReport(final int ownerGatewayId, final long session, final long execId, final MetaData metaData) {
        report.metaData().copyFrom(metaData);
        report.execId(execId);
        report.gatewayId(ownerGatewayId).session(session).orderId(metaData.eventId()).clOrdId(metaData.eventId());
        reports.executionReport(report);
    }

    /** Appends a delivery to {@code session} to gateway {@code gatewayId}'s own journal. */
    public void delivery(final int gatewayId, final long session, final long execId, final MetaData metaData) {
        delivery.metaData().copyFrom(metaData);
        delivery.session(session).execId(execId);
        GatewayDeliveries writer = deliveries.get(gatewayId);
        if (writer == null) {
            writer = writer(Journals.gatewayDeliveries(root, gatewayId), GatewayDeliveries.class);
            deliveries.put(gatewayId, writer);
        }
        writer.delivered(delivery);
    }

    /** @return a method writer of {@code type} appending to the journal in {@code dir}, e.g. for other record types. */
    public <T> T writer(final Path dir, final Class<T> type) {
        return Journals.methodWriter(appender(dir), type);
    }

    /** Opens one excerpt of the journal in {@code dir}: whatever is written to it until it is closed lands in it. */
    public DocumentContext excerpt(final Path dir) {
        return appender(dir).writingDocument();
    }

    /** Opens one engine-journal excerpt, as the engine does to answer one input with several reports. */
    public DocumentContext engineExcerpt() {
        return excerpt(Journals.engineJournal(root));
    }

    private ExcerptAppender appender(final Path dir) {
        return appenders.computeIfAbsent(dir, journal -> queue(journal).createAppender());
    }

    private ChronicleQueue queue(final Path dir) {
        return queues.computeIfAbsent(dir, Journals::open);
    }

    @Override
    public void close() {
        for (final ExcerptAppender appender : appenders.values()) {
            appender.close();
        }
        for (final ChronicleQueue queue : queues.values()) {
            queue.close();
        }
    }
}
