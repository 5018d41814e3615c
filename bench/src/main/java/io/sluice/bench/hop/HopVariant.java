package io.sluice.bench.hop;

import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.NewOrder;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.lang.reflect.Proxy;

/**
 * The two ways the hop moves a {@link NewOrder}: through Sluice's contract (a generated Chronicle method
 * writer and method reader on {@link GatewayToEngine}), and the baseline, raw {@link DocumentContext} writes
 * and reads of the same DTO's binary form. Both hand a reused DTO to the same receiver, so the only
 * difference measured is the contract layer.
 */
enum HopVariant {
    /** {@code queue.methodWriter(GatewayToEngine.class)} and {@code tailer.methodReader(receiver)}. */
    CONTRACT("contract") {
        @Override
        HopWriter writer(final ChronicleQueue queue) {
            return new ContractWriter(requireGenerated(queue.methodWriter(GatewayToEngine.class), "method writer"));
        }

        @Override
        HopReader reader(final ExcerptTailer tailer, final GatewayToEngine receiver) {
            return new ContractReader(requireGenerated(tailer.methodReader(receiver), "method reader"));
        }
    },
    /** {@code appender.writingDocument()} / {@code tailer.readingDocument()} with the DTO's own bytes. */
    RAW("raw") {
        @Override
        HopWriter writer(final ChronicleQueue queue) {
            return new RawWriter(queue.createAppender());
        }

        @Override
        HopReader reader(final ExcerptTailer tailer, final GatewayToEngine receiver) {
            return new RawReader(tailer, receiver, new NewOrder());
        }
    };

    private final String label;

    HopVariant(final String label) {
        this.label = label;
    }

    /** @return the name used in tables and JSON. */
    String label() {
        return label;
    }

    /** Creates the writing end on the calling thread, which must be the only thread to use it. */
    abstract HopWriter writer(ChronicleQueue queue);

    /** Creates the reading end on {@code tailer}, dispatching every order to {@code receiver}. */
    abstract HopReader reader(ExcerptTailer tailer, GatewayToEngine receiver);

    /**
     * A JDK proxy or Chronicle's reflective reader means Chronicle could not compile its generated class
     * (missing JVM flags): the figures would measure reflection, not Sluice, so the bench refuses to run.
     */
    private static <T> T requireGenerated(final T implementation, final String what) {
        final Class<?> type = implementation.getClass();
        if (Proxy.isProxyClass(type) || type.getSimpleName().startsWith("VanillaMethodReader")) {
            throw new IllegalStateException("the " + what + " is " + type.getName()
                    + ", not a generated class: run with the flags in jvm.options (./sluice bench ...)");
        }
        return implementation;
    }

    private record ContractWriter(GatewayToEngine writer) implements HopWriter {
        @Override
        public void write(final NewOrder order) {
            writer.newOrder(order);
        }

        @Override
        public String implementation() {
            return writer.getClass().getName();
        }
    }

    private record ContractReader(MethodReader reader) implements HopReader {
        @Override
        public boolean readOne() {
            return reader.readOne();
        }

        @Override
        public String implementation() {
            return reader.getClass().getName();
        }
    }

    private record RawWriter(ExcerptAppender appender) implements HopWriter {
        @Override
        public void write(final NewOrder order) {
            try (DocumentContext dc = appender.writingDocument()) {
                order.writeMarshallable(dc.wire().bytes());
            }
        }

        @Override
        public String implementation() {
            return "ExcerptAppender.writingDocument()";
        }
    }

    private record RawReader(ExcerptTailer tailer, GatewayToEngine receiver, NewOrder order) implements HopReader {
        @Override
        public boolean readOne() {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return false;
                }
                order.readMarshallable(dc.wire().bytes());
                receiver.newOrder(order);
                return true;
            }
        }

        @Override
        public String implementation() {
            return "ExcerptTailer.readingDocument()";
        }
    }
}
