package io.sluice.replication;

import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.journal.Journals;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The causal rule on real excerpts, as a {@link JournalFlow} writes them through the contracts' method writers: an
 * engine excerpt waits for the command it answers, a gateway's sent-report record and a market-data batch for the
 * engine excerpt they name, a command for nothing; a cause counts once it is earlier in the log (shipped before, or learnt from the log as a
 * journal resumes), and after an aborted transaction nothing counts until the journals resume from the log again.
 */
final class CausalGateTest {
    @TempDir
    Path root;

    private final ExcerptCall call = new ExcerptCall();

    @Test
    void anEngineExcerptWaitsForItsCommandAndASentReportForItsEngineExcerpt() {
        JournalFlow.write(root, 4, 1, null); // events 0..3: gateways 1, 2, 1, 2, each its command, report, sent, delivery
        final Excerpts commands1 = Excerpts.of(Journals.gatewayJournal(root, 1));
        final Excerpts engine = Excerpts.of(Journals.engineJournal(root));
        final Excerpts out2 = Excerpts.of(Journals.gatewayDeliveries(root, 2));
        final JournalName engineName = JournalName.parse("engine");
        final JournalName out2Name = JournalName.parse("gateway-2-out");
        final CausalGate gate = new CausalGate();

        assertTrue(gate.mayShip(JournalName.parse("gateway-1"), read(commands1.bytes().getFirst())), "a command waits for nothing");

        // engine excerpt 0 answers gateway 1's event 1; excerpt 1 gateway 2's event 1; excerpt 2 gateway 1's event 2
        assertFalse(gate.mayShip(engineName, read(engine.bytes().get(0))));
        gate.commandShipped(1, 1);
        assertTrue(gate.mayShip(engineName, read(engine.bytes().get(0))));
        assertFalse(gate.mayShip(engineName, read(engine.bytes().get(1))), "gateway 2's event is not shipped");
        assertFalse(gate.mayShip(engineName, read(engine.bytes().get(2))), "gateway 1's event 2 is not shipped");
        gate.commandShipped(2, 1);
        assertTrue(gate.mayShip(engineName, read(engine.bytes().get(1))));
        assertEquals("gateway-1 event 2", gate.waitingFor(engineName, read(engine.bytes().get(2))));

        // gateway-2-out: the sent record of engine excerpt 1's report, then its delivery
        final ExcerptCall sent = read(out2.bytes().get(0));
        assertEquals(RecordLayout.SENT, sent.methodId());
        assertEquals(engine.indexes().get(1), sent.longAt(RecordLayout.SENT_ENGINE_INDEX));
        assertFalse(gate.mayShip(out2Name, sent));
        gate.shipped(engineName, null, engine.indexes().get(0));
        assertFalse(gate.mayShip(out2Name, read(out2.bytes().get(0))), "the engine is shipped below its report");
        gate.shipped(engineName, null, engine.indexes().get(1));
        assertTrue(gate.mayShip(out2Name, read(out2.bytes().get(0))));
        assertEquals(RecordLayout.DELIVERED, read(out2.bytes().get(1)).methodId());
    }

    @Test
    void aMarketDataBatchWaitsForTheEngineExcerptItWasDerivedFrom() {
        JournalFlow.write(root, 4, 1, null); // a batch naming no engine excerpt, then one per engine excerpt
        final Excerpts engine = Excerpts.of(Journals.engineJournal(root));
        final Excerpts marketData = Excerpts.of(Journals.marketDataJournal(root));
        final JournalName marketDataName = JournalName.parse("marketdata");
        final CausalGate gate = new CausalGate();

        assertTrue(gate.mayShip(marketDataName, batch(marketData.bytes().get(0))), "the statuses answer no engine excerpt");
        assertFalse(gate.mayShip(marketDataName, batch(marketData.bytes().get(1))), "engine excerpt 0 is not shipped");
        assertEquals("engine " + IndexText.of(engine.indexes().get(0)),
                gate.waitingFor(marketDataName, batch(marketData.bytes().get(1))));
        gate.shipped(JournalName.parse("engine"), null, engine.indexes().get(0));
        assertTrue(gate.mayShip(marketDataName, batch(marketData.bytes().get(1))), "its engine excerpt is in the log");
        assertFalse(gate.mayShip(marketDataName, batch(marketData.bytes().get(2))), "engine excerpt 1 is not");
    }

    @Test
    void aCauseShippedBeforeLetsItsEffectFollowItInTheLog() {
        final Flow flow = new Flow(root);
        final CausalGate gate = new CausalGate();

        assertFalse(gate.mayShip(flow.engineName, read(flow.engine(0))), "gateway 1's event 1 is not shipped yet");
        gate.shipped(flow.commands1Name, read(flow.commands1(0)), flow.commands1Index(0));
        assertTrue(gate.mayShip(flow.engineName, read(flow.engine(0))), "its command is earlier in the log");
        assertFalse(gate.mayShip(flow.engineName, read(flow.engine(2))), "gateway 1's event 2 is not shipped");
        assertFalse(gate.mayShip(flow.out1Name, read(flow.out1(0))), "the engine excerpt of the report is not shipped");

        gate.shipped(flow.engineName, read(flow.engine(0)), flow.engineIndex(0));
        assertTrue(gate.mayShip(flow.out1Name, read(flow.out1(0))), "its engine excerpt is earlier in the log");
        assertTrue(gate.mayShip(flow.out1Name, read(flow.out1(1))), "a delivered record waits for nothing of the engine");
        assertFalse(gate.mayShip(flow.out2Name, read(flow.out2(0))), "engine excerpt 1 is not shipped");
    }

    @Test
    void afterAnAbortNothingCountsUntilTheJournalsResumeFromTheLog() {
        final Flow flow = new Flow(root);
        final CausalGate gate = new CausalGate();
        gate.shipped(flow.commands1Name, read(flow.commands1(1)), flow.commands1Index(1)); // gateway 1's event 2
        gate.shipped(flow.engineName, read(flow.engine(2)), flow.engineIndex(2));            // its engine excerpt
        assertTrue(gate.mayShip(flow.engineName, read(flow.engine(2))));
        assertTrue(gate.mayShip(flow.out1Name, read(flow.out1(2))), "the sent record of engine excerpt 2");

        gate.forget();
        assertFalse(gate.mayShip(flow.engineName, read(flow.engine(2))), "relearnt from the log, not remembered");
        assertFalse(gate.mayShip(flow.out1Name, read(flow.out1(2))));

        // The journals resume: the log holds gateway 1's commands up to event 2 and the engine up to excerpt 0.
        gate.commandShipped(1, 2);
        gate.shipped(flow.engineName, null, flow.engineIndex(0));
        assertTrue(gate.mayShip(flow.engineName, read(flow.engine(2))), "its command is in the log");
        assertTrue(gate.mayShip(flow.out1Name, read(flow.out1(0))), "engine excerpt 0 is in the log");
        assertFalse(gate.mayShip(flow.out1Name, read(flow.out1(2))), "engine excerpt 2 is not");
    }

    /** The journals of four events of a {@link JournalFlow}: gateways 1, 2, 1, 2, each command, report, sent, delivery. */
    private static final class Flow {
        final JournalName commands1Name = JournalName.parse("gateway-1");
        final JournalName commands2Name = JournalName.parse("gateway-2");
        final JournalName engineName = JournalName.parse("engine");
        final JournalName out1Name = JournalName.parse("gateway-1-out");
        final JournalName out2Name = JournalName.parse("gateway-2-out");
        private final Excerpts commands1;
        private final Excerpts commands2;
        private final Excerpts engine;
        private final Excerpts out1;
        private final Excerpts out2;

        Flow(final Path root) {
            JournalFlow.write(root, 4, 1, null);
            commands1 = Excerpts.of(Journals.gatewayJournal(root, 1));
            commands2 = Excerpts.of(Journals.gatewayJournal(root, 2));
            engine = Excerpts.of(Journals.engineJournal(root));
            out1 = Excerpts.of(Journals.gatewayDeliveries(root, 1));
            out2 = Excerpts.of(Journals.gatewayDeliveries(root, 2));
        }

        byte[] commands1(final int i) {
            return commands1.bytes().get(i);
        }

        long commands1Index(final int i) {
            return commands1.indexes().get(i);
        }

        byte[] commands2(final int i) {
            return commands2.bytes().get(i);
        }

        long commands2Index(final int i) {
            return commands2.indexes().get(i);
        }

        /** Engine excerpt {@code i} answers gateway {@code 1 + i % 2}'s event {@code 1 + i / 2}. */
        byte[] engine(final int i) {
            return engine.bytes().get(i);
        }

        long engineIndex(final int i) {
            return engine.indexes().get(i);
        }

        /** gateway-1-out: the sent record of engine excerpt 0, its delivery, the sent record of engine excerpt 2, ... */
        byte[] out1(final int i) {
            return out1.bytes().get(i);
        }

        long out1Index(final int i) {
            return out1.indexes().get(i);
        }

        byte[] out2(final int i) {
            return out2.bytes().get(i);
        }

        long out2Index(final int i) {
            return out2.indexes().get(i);
        }
    }

    private ExcerptCall read(final byte[] bytes) {
        assertTrue(call.read(new UnsafeBuffer(bytes), bytes.length), "a method-writer call");
        return call;
    }

    /** @return the gate's view of a market-data batch: no call, its bytes read as the shipper reads them */
    private ExcerptCall batch(final byte[] bytes) {
        call.read(new UnsafeBuffer(bytes), bytes.length);
        return call;
    }
}
