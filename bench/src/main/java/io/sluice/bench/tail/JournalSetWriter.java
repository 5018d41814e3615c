package io.sluice.bench.tail;

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
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a journal set the way gateways and engine do, through the contracts' method writers: commands to
 * {@code gateway-N}, reports to {@code engine}, deliveries to {@code gateway-N-out}, each with the MetaData
 * it is given. For synthetic journals with known latencies (tests, the offline benchmark); not a simulator.
 */
public final class JournalSetWriter implements AutoCloseable {
    private final Path root;
    private final List<ChronicleQueue> queues = new ArrayList<>();
    private final Int2ObjectHashMap<GatewayToEngine> commands = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<GatewayDeliveries> deliveries = new Int2ObjectHashMap<>();
    private final ExcerptAppender engine;
    private final EngineToGateway reports;
    private final NewOrder order = new NewOrder();
    private final ExecutionReport report = new ExecutionReport();
    private final Delivery delivery = new Delivery();

    public JournalSetWriter(final Path root) {
        this.root = root;
        final ChronicleQueue engineQueue = open(Journals.engineJournal(root));
        engine = engineQueue.createAppender();
        reports = engineQueue.methodWriterBuilder(EngineToGateway.class).marshallableOut(engine).build();
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
            writer = open(Journals.gatewayJournal(root, gatewayId)).methodWriter(GatewayToEngine.class);
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

    /**
     * Opens one engine-journal excerpt: reports written until it is closed land in it together, as when
     * the engine answers one input with several reports.
     */
    public DocumentContext engineExcerpt() {
        return engine.writingDocument();
    }

    /** Appends a delivery to {@code session} to gateway {@code gatewayId}'s own journal. */
    public void delivery(final int gatewayId, final long session, final long execId, final MetaData metaData) {
        delivery.metaData().copyFrom(metaData);
        delivery.session(session).execId(execId);
        GatewayDeliveries writer = deliveries.get(gatewayId);
        if (writer == null) {
            writer = queue(Journals.gatewayDeliveries(root, gatewayId)).methodWriter(GatewayDeliveries.class);
            deliveries.put(gatewayId, writer);
        }
        writer.delivered(delivery);
    }

    /** @return the journal in {@code dir}, opened once by this writer, e.g. to add records of other types. */
    public ChronicleQueue queue(final Path dir) {
        for (final ChronicleQueue queue : queues) {
            if (queue.file().toPath().equals(dir.toFile().toPath())) {
                return queue;
            }
        }
        return open(dir);
    }

    private ChronicleQueue open(final Path dir) {
        final ChronicleQueue queue = Journals.open(dir);
        queues.add(queue);
        return queue;
    }

    @Override
    public void close() {
        engine.close();
        for (final ChronicleQueue queue : queues) {
            queue.close();
        }
    }
}
