package io.sluice.engine.process;

import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.engine.load.MixedOrderFlow;
import net.openhft.chronicle.queue.ChronicleQueue;

import java.nio.file.Path;

/**
 * Plays a gateway without FIX in tests: appends the seeded command mix of {@link MixedOrderFlow} to gateway {@code
 * id}'s journal. The commands are over the instruments of {@link TwoInstrumentMarket}, with MetaData naming this
 * gateway and event ids 1, 2, 3 ...
 */
public final class GatewayJournalWriter implements AutoCloseable {
    private final ChronicleQueue queue;
    private final GatewayToEngine writer;
    private final MixedOrderFlow flow;

    public GatewayJournalWriter(final Path root, final int gatewayId, final long seed) {
        this(root, gatewayId, seed, 3);
    }

    /** @param sessions how many sessions send, in turn (each its own firm: none names one) */
    public GatewayJournalWriter(final Path root, final int gatewayId, final long seed, final int sessions) {
        queue = Journals.open(Journals.gatewayJournal(root, gatewayId));
        writer = queue.methodWriter(GatewayToEngine.class);
        flow = new MixedOrderFlow(seed, gatewayId, TwoInstrumentMarket.config(root).instruments(), sessions);
    }

    /** Appends the next {@code count} commands of the mix. */
    public void write(final long count) {
        for (long i = 0; i < count; i++) {
            flow.next(writer);
        }
    }

    /** @return how many commands this writer has appended. */
    public long written() {
        return flow.eventId();
    }

    @Override
    public void close() {
        queue.close();
    }
}
