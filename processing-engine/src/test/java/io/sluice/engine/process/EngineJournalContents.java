package io.sluice.engine.process;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.Event;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.EngineInput;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.recovery.RecordedInputs;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an engine journal says, excerpt by excerpt, with the run's timestamps cleared so two journals of
 * the same inputs compare equal as text. Also produces the same for a fresh, uninterrupted engine fed the
 * recorded inputs in the recorded order: the reference an interrupted run must match.
 */
public final class EngineJournalContents {
    private EngineJournalContents() {
    }

    /** One excerpt: the (source, event) it answers and its reports as YAML. */
    public record Excerpt(int sourceId, long eventId, List<String> reports) {
    }

    /** @return the excerpts of the engine journal under {@code root}. */
    public static List<Excerpt> read(final Path root) {
        final List<Excerpt> excerpts = new ArrayList<>();
        final List<Event> current = new ArrayList<>();
        try (ChronicleQueue queue = Journals.open(Journals.engineJournal(root))) {
            final MethodReader reader = queue.createTailer().methodReader(collector(current));
            while (reader.readOne()) {
                if (!current.isEmpty()) {
                    excerpts.add(excerpt(current));
                    current.clear();
                }
            }
        }
        return excerpts;
    }

    /** @return the excerpts a fresh engine writes for the inputs the journal under {@code root} records. */
    public static List<Excerpt> freshRun(final EngineConfig config, final Path root) {
        final List<Excerpt> excerpts = new ArrayList<>();
        final List<Event> current = new ArrayList<>();
        final Engine engine = new Engine(config, collector(current));
        final EngineToGatewayCounter counter = new EngineToGatewayCounter(engine, current, excerpts);
        try (ChronicleQueue recorded = Journals.open(Journals.engineJournal(root));
             InputSources sources = new InputSources(root, config.gatewayIds())) {
            RecordedInputs.replay(recorded, sources, counter);
        }
        return excerpts;
    }

    /**
     * Asserts every input of every source was answered exactly once and in per-source order.
     *
     * @param written commands written per gateway id
     */
    public static void assertExactlyOnceInOrder(final List<Excerpt> excerpts, final Map<Integer, Long> written) {
        final Map<Integer, Long> last = new HashMap<>();
        for (final Excerpt excerpt : excerpts) {
            final long previous = last.getOrDefault(excerpt.sourceId(), 0L);
            assertEquals(previous + 1, excerpt.eventId(),
                    "gateway " + excerpt.sourceId() + ": after event " + previous + " the engine answered " + excerpt.eventId());
            last.put(excerpt.sourceId(), excerpt.eventId());
            assertTrue(excerpt.reports().size() >= 1);
        }
        assertEquals(written, last, "last event answered per gateway");
    }

    private static Excerpt excerpt(final List<Event> reports) {
        final List<String> texts = new ArrayList<>();
        for (final Event report : reports) {
            assertEquals(reports.get(0).metaData().sourceId(), report.metaData().sourceId());
            assertEquals(reports.get(0).metaData().eventId(), report.metaData().eventId());
            texts.add(report.toString());
        }
        return new Excerpt(reports.get(0).metaData().sourceId(), reports.get(0).metaData().eventId(), texts);
    }

    private static EngineToGateway collector(final List<Event> into) {
        return new EngineToGateway() {
            @Override
            public void executionReport(final ExecutionReport report) {
                final ExecutionReport copy = report.deepCopy();
                copy.metaData().clearTimestamps();
                into.add(copy);
            }

            @Override
            public void cancelReject(final CancelReject reject) {
                final CancelReject copy = reject.deepCopy();
                copy.metaData().clearTimestamps();
                into.add(copy);
            }

            @Override
            public void massCancelReport(final MassCancelReport report) {
                final MassCancelReport copy = report.deepCopy();
                copy.metaData().clearTimestamps();
                into.add(copy);
            }

            @Override
            public void adminOutcome(final AdminOutcome outcome) {
                final AdminOutcome copy = outcome.deepCopy();
                copy.metaData().clearTimestamps();
                into.add(copy);
            }
        };
    }

    /** Closes an excerpt after each input the fresh engine processes. */
    private static final class EngineToGatewayCounter implements EngineInput {
        private final Engine engine;
        private final List<Event> current;
        private final List<Excerpt> excerpts;

        EngineToGatewayCounter(final Engine engine, final List<Event> current, final List<Excerpt> excerpts) {
            this.engine = engine;
            this.current = current;
            this.excerpts = excerpts;
        }

        @Override
        public void newOrder(final NewOrder order) {
            engine.newOrder(order);
            close();
        }

        @Override
        public void cancelOrder(final CancelOrder cancel) {
            engine.cancelOrder(cancel);
            close();
        }

        @Override
        public void replaceOrder(final ReplaceOrder replace) {
            engine.replaceOrder(replace);
            close();
        }

        @Override
        public void massCancel(final MassCancel massCancel) {
            engine.massCancel(massCancel);
            close();
        }

        @Override
        public void adminCommand(final AdminCommand command) {
            engine.adminCommand(command);
            close();
        }

        private void close() {
            excerpts.add(excerpt(current));
            current.clear();
        }
    }
}
