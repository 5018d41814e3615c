package io.sluice.bench.engine;

import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.load.MixedOrderFlow;
import io.sluice.runtime.agent.IdleConfig;
import net.openhft.chronicle.queue.ChronicleQueue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What the engine benchmarks share: an engine config and gateway journals pre-written with the {@link MixedOrderFlow}
 * mix. The config has the instruments of {@code engine-example.yaml} and capacities sized for a benchmark; the measured
 * run only reads and processes. Public for the replay benchmark, which measures the engine
 * beside replay over the same journals.
 */
public final class PreWrittenJournals {
    /** The gateways whose journals hold the commands. */
    public static final int[] GATEWAYS = {1, 2};

    private PreWrittenJournals() {
    }

    /** @return the example config's instruments, journals under {@code root}, capacities for a long run. */
    public static EngineConfig config(final Path root, final IdleConfig idle) {
        try (InputStream in = PreWrittenJournals.class.getResourceAsStream("/engine-example.yaml")) {
            final String yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return EngineConfig.parse(yaml, "engine-example.yaml").journalRoot(root).gatewayIds(GATEWAYS)
                    .idle(idle).maxOpenOrders(200_000).completedOrderMemory(100_000);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends {@code commands} commands, alternating between the gateway journals, under {@code root}. */
    public static void write(final EngineConfig config, final Path root, final long commands) {
        write(config, root, commands, 0);
    }

    /**
     * Appends {@code commands} commands, alternating between the gateway journals, under {@code root}; every
     * {@code massCancelEvery}-th command of each gateway a mass cancel ({@link MixedOrderFlow#massCancel}), none if 0.
     */
    public static void write(final EngineConfig config, final Path root, final long commands, final int massCancelEvery) {
        final ChronicleQueue[] queues = new ChronicleQueue[GATEWAYS.length];
        final GatewayToEngine[] writers = new GatewayToEngine[GATEWAYS.length];
        final MixedOrderFlow[] flows = new MixedOrderFlow[GATEWAYS.length];
        for (int i = 0; i < GATEWAYS.length; i++) {
            queues[i] = Journals.open(Journals.gatewayJournal(root, GATEWAYS[i]));
            writers[i] = Journals.methodWriter(queues[i].createAppender(), GatewayToEngine.class);
            flows[i] = new MixedOrderFlow(42, GATEWAYS[i], config.instruments(), 64);
        }
        for (long n = 0; n < commands; n++) {
            final int i = (int) (n % GATEWAYS.length);
            if (massCancelEvery > 0 && (flows[i].eventId() + 1) % massCancelEvery == 0) {
                flows[i].massCancel(writers[i]);
            } else {
                flows[i].next(writers[i]);
            }
        }
        for (final ChronicleQueue queue : queues) {
            queue.close();
        }
    }

    /** Deletes {@code dir} and everything in it. */
    public static void delete(final Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (final Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
