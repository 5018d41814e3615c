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
 * engine excerpt waits for the command it answers, a gateway's sent-report record for the engine excerpt it carries,
 * a command for nothing.
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
        gate.gatewayAcknowledged(1, 1);
        assertTrue(gate.mayShip(engineName, read(engine.bytes().get(0))));
        assertFalse(gate.mayShip(engineName, read(engine.bytes().get(1))), "gateway 2's event is not acknowledged");
        assertFalse(gate.mayShip(engineName, read(engine.bytes().get(2))), "gateway 1's event 2 is not acknowledged");
        gate.gatewayAcknowledged(2, 1);
        assertTrue(gate.mayShip(engineName, read(engine.bytes().get(1))));
        assertEquals("gateway-1 event 2", gate.waitingFor(engineName, read(engine.bytes().get(2))));

        // gateway-2-out: the sent record of engine excerpt 1's report, then its delivery
        final ExcerptCall sent = read(out2.bytes().get(0));
        assertEquals(RecordLayout.SENT, sent.methodId());
        assertEquals(engine.indexes().get(1), sent.longAt(RecordLayout.SENT_ENGINE_INDEX));
        assertFalse(gate.mayShip(out2Name, sent));
        gate.engineAcknowledged(engine.indexes().get(0));
        assertFalse(gate.mayShip(out2Name, read(out2.bytes().get(0))), "the engine is acknowledged below its report");
        gate.engineAcknowledged(engine.indexes().get(1));
        assertTrue(gate.mayShip(out2Name, read(out2.bytes().get(0))));
        assertEquals(RecordLayout.DELIVERED, read(out2.bytes().get(1)).methodId());
    }

    private ExcerptCall read(final byte[] bytes) {
        assertTrue(call.read(new UnsafeBuffer(bytes), bytes.length), "a method-writer call");
        return call;
    }
}
