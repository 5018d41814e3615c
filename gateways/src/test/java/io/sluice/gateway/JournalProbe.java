package io.sluice.gateway;

import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.Delivery;
import io.sluice.contracts.GatewayDeliveries;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.NoOpGatewayToEngine;
import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.process.PollUntil;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.BinaryWireCode;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Reads what a gateway wrote, as the engine and the latency tail will: the commands in its journal and
 * the deliveries in its own journal, copied out (as YAML text of the DTOs) for assertions.
 */
final class JournalProbe {
    private JournalProbe() {
    }

    /** @return every command in gateway {@code id}'s journal, as the DTOs' YAML. */
    static List<String> commands(final Path root, final int id) {
        final List<String> commands = new ArrayList<>();
        final Path dir = Journals.gatewayJournal(root, id);
        if (!Files.exists(dir.resolve("metadata.cq4t"))) {
            return commands;
        }
        try (ChronicleQueue queue = Journals.openReadOnly(dir)) {
            final MethodReader reader = queue.createTailer().methodReader(new NoOpGatewayToEngine() {
                @Override
                public void newOrder(final NewOrder order) {
                    commands.add(order.toString());
                }

                @Override
                public void cancelOrder(final CancelOrder cancel) {
                    commands.add(cancel.toString());
                }

                @Override
                public void replaceOrder(final ReplaceOrder replace) {
                    commands.add(replace.toString());
                }

                @Override
                public void massCancel(final MassCancel massCancel) {
                    commands.add(massCancel.toString());
                }
            });
            while (reader.readOne()) {
                // collecting
            }
        }
        return commands;
    }

    /** @return every mass cancel in gateway {@code id}'s journal, copied out. */
    static List<MassCancel> massCancels(final Path root, final int id) {
        final List<MassCancel> cancels = new ArrayList<>();
        final Path dir = Journals.gatewayJournal(root, id);
        if (!Files.exists(dir.resolve("metadata.cq4t"))) {
            return cancels;
        }
        try (ChronicleQueue queue = Journals.openReadOnly(dir)) {
            final MethodReader reader = queue.createTailer().methodReader(new NoOpGatewayToEngine() {
                @Override
                public void massCancel(final MassCancel massCancel) {
                    final MassCancel copy = new MassCancel()
                            .session(massCancel.session()).clOrdId(massCancel.clOrdId()).scope(massCancel.scope())
                            .symbol(massCancel.symbol()).side(massCancel.side()).cause(massCancel.cause())
                            .routing(massCancel.onBehalfOfCompId(), massCancel.deliverToCompId());
                    copy.metaData().copyFrom(massCancel.metaData());
                    cancels.add(copy);
                }
            });
            while (reader.readOne()) {
                // collecting
            }
        }
        return cancels;
    }

    /** @return every delivery recorded in gateway {@code id}'s own journal. */
    static List<Delivery> deliveries(final Path root, final int id) {
        final List<Delivery> deliveries = new ArrayList<>();
        final Path dir = Journals.gatewayDeliveries(root, id);
        if (!Files.exists(dir.resolve("metadata.cq4t"))) {
            return deliveries;
        }
        try (ChronicleQueue queue = Journals.openReadOnly(dir)) {
            final MethodReader reader = queue.createTailer().methodReader((GatewayDeliveries) delivery -> {
                final Delivery copy = new Delivery().session(delivery.session()).execId(delivery.execId());
                copy.metaData().copyFrom(delivery.metaData());
                deliveries.add(copy);
            });
            while (reader.readOne()) {
                // collecting
            }
        }
        return deliveries;
    }

    /**
     * @return the journal index of every {@code sent} record in gateway {@code id}'s own journal, in order: one per
     *         message the gateway sent (journaled before the message is queued on its connection)
     */
    static List<Long> sentIndexes(final Path root, final int id) {
        final List<Long> indexes = new ArrayList<>();
        final Path dir = Journals.gatewayDeliveries(root, id);
        if (!Files.exists(dir.resolve("metadata.cq4t"))) {
            return indexes;
        }
        try (ChronicleQueue queue = Journals.openReadOnly(dir)) {
            final ExcerptTailer tailer = queue.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return indexes;
                    }
                    final Bytes<?> bytes = dc.wire().bytes();
                    if (bytes.readUnsignedByte() == BinaryWireCode.FIELD_NUMBER
                            && bytes.readStopBit() == RecordLayout.SENT) {
                        indexes.add(dc.index());
                    }
                }
            }
        }
    }

    /**
     * Polls {@code condition} until it holds, failing after 60 s with {@code what}: a bound for a broken gateway, not a
     * speed target (10 s ran out for a journaled cancel-on-disconnect on a host at load 40-70).
     */
    static void await(final String what, final BooleanSupplier condition) {
        await(what, 60, condition);
    }

    /** Polls {@code condition} until it holds, failing after {@code seconds} with {@code what}. */
    static void await(final String what, final int seconds, final BooleanSupplier condition) {
        PollUntil.await(condition, Duration.ofSeconds(seconds), () -> what);
    }
}
