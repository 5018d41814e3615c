package io.sluice.engine.process;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.TwoInstrumentMarket;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * An engine starting at the very moment its gateways create the journals they share with it (the engine
 * journal, which every gateway tails, and each gateway's command journal) finds, like them, well-formed
 * journals: nothing needs creating first. Each party opens its own queue instances, as separate processes do,
 * released together round after round: opening a new journal at once used to corrupt its {@code metadata.cq4t}
 * (two writers adding the journal-format key, or the engine's stale-lock check initialising the file without
 * the queue's metadata), after which no process could open it, or waited forever on a half-written entry.
 * End to end, with real processes: {@code SimultaneousStartTest} in the replay module.
 */
final class SimultaneousJournalCreationTest {
    private static final int ROUNDS = 60;
    private static final int GATEWAYS = 3;

    @TempDir
    Path dir;

    @Test
    void anEngineAndGatewaysCreatingTheirJournalsAtOnceAllOpenThemIntact() throws Exception {
        for (int round = 1; round <= ROUNDS; round++) {
            final Path root = dir.resolve("round-" + round);
            final CyclicBarrier start = new CyclicBarrier(1 + GATEWAYS);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Thread> parties = new ArrayList<>();
            parties.add(party("engine", start, failure, () -> EngineService.launch(TwoInstrumentMarket.config(root)).close()));
            for (int id = 1; id <= GATEWAYS; id++) {
                final int gatewayId = id;
                parties.add(party("gateway-" + id, start, failure, () -> openAsAGatewayDoes(root, gatewayId)));
            }
            for (final Thread party : parties) {
                party.join(TimeUnit.SECONDS.toMillis(60));
                assertFalse(party.isAlive(), "round " + round + ": " + party.getName() + " still opening its journals after 60 s");
            }
            if (failure.get() != null) {
                throw new AssertionError("round " + round + ": " + failure.get(), failure.get());
            }
            try (ChronicleQueue engineJournal = Journals.openReadOnly(Journals.engineJournal(root))) {
                assertEquals(Journals.FORMAT_VERSION, Journals.formatOf(engineJournal), "round " + round);
            }
        }
    }

    /** What a gateway opens on start: its command journal and the engine journal, whose reports it tails. */
    private static void openAsAGatewayDoes(final Path root, final int gatewayId) {
        try (ChronicleQueue commands = Journals.open(Journals.gatewayJournal(root, gatewayId));
             ChronicleQueue reports = Journals.open(Journals.engineJournal(root))) {
            commands.createTailer().close();
            reports.createTailer().close();
        }
    }

    private static Thread party(final String name, final CyclicBarrier start, final AtomicReference<Throwable> failure,
                                final Runnable opening) {
        final Thread thread = new Thread(() -> {
            try {
                start.await();
                opening.run();
            } catch (final Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, name);
        thread.start();
        return thread;
    }
}
