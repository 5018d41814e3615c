package io.sluice.engine.scenario;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.EngineInput;
import io.sluice.engine.EngineService;
import io.sluice.engine.JournalingInput;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.ExcerptComparison;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.recovery.RecordedInputs;
import io.sluice.engine.snapshot.SnapshotMain;
import io.sluice.engine.snapshot.SnapshotRestore;
import io.sluice.runtime.admin.AdminJournal;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every engine scenario ({@code src/test/resources/scenarios/}, and {@code risk-scenarios/} with firm limits), cut at
 * every input. The scenario's commands are
 * written to real gateway journals and answered by the engine process's loop; the snapshotter writes a snapshot after
 * every input; then, for each snapshot, a fresh engine restored from it re-runs the rest of the scenario and must
 * give, report for report, what the engine recorded. Admin commands of a scenario go to the admin journal, which the
 * engine reads beside the gateway journals. So every rule the scenarios state (priority, partial fills,
 * replaces in place, self-match prevention, capacity, forgetting completed orders; each firm limit, rate window, live
 * limit change and kill switch) survives a snapshot at any point.
 */
final class SnapshotAtEveryInputTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.sluice.engine.scenario.EngineScenarioTest#scenarios")
    void aSnapshotAfterAnyInputRestoresAnEngineThatAnswersTheRestAsRecorded(final Path file) throws Exception {
        cutAtEveryInput(file, "/scenario-engine.yaml");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.sluice.engine.scenario.EngineScenarioTest#riskScenarios")
    void aSnapshotAfterAnyInputRestoresTheFirmsLimitsExposureAndKillSwitches(final Path file) throws Exception {
        cutAtEveryInput(file, "/scenario-risk-engine.yaml");
    }

    private void cutAtEveryInput(final Path file, final String configResource) throws Exception {
        final Path root = dir.resolve(file.getFileName().toString().replace(".yaml", ""));
        final EngineConfig config = EngineConfig.load(
                Path.of(SnapshotAtEveryInputTest.class.getResource(configResource).toURI()))
                .journalRoot(root).pretouch(false);
        final int inputs = writeGatewayJournals(Scenario.parse(Files.readString(file)).input(), root);
        try (EngineService engine = EngineService.launch(config)) {
            while (engine.processed() < inputs) {
                engine.poll();
            }
        }
        final SnapshotMain.Summary summary = SnapshotMain.run(config, root, 1, false);
        assertEquals(inputs, summary.written(), summary.describe());

        final List<Long> engineIndexes = new ArrayList<>();
        try (ChronicleQueue journal = Journals.openReadOnly(Journals.engineJournal(root));
             ConsumptionOrder order = new ConsumptionOrder(journal)) {
            while (order.next()) {
                engineIndexes.add(order.index());
            }
        }
        for (int k = 0; k < inputs; k++) {
            assertEquals(inputs - k - 1, restoreAndReRunTheRest(config, root, engineIndexes.get(k)),
                    "inputs re-run after the snapshot taken after input " + (k + 1));
        }
    }

    /** @return how many inputs after the snapshot at {@code engineIndex} were re-run, each giving the recorded reports */
    private static long restoreAndReRunTheRest(final EngineConfig config, final Path root, final long engineIndex) {
        try (ChronicleQueue journal = Journals.openReadOnly(Journals.engineJournal(root));
             InputSources sources = new InputSources(root, true, config.gatewayIds());
             ConsumptionOrder order = new ConsumptionOrder(journal)) {
            final Wire rerun = WireType.BINARY_LIGHT.apply(Bytes.allocateElasticDirect(4096));
            final Engine engine = new Engine(config, rerun.methodWriter(EngineToGateway.class));
            final SnapshotRestore.Restored restored = SnapshotRestore.restore(root, config, engine, order, sources,
                    engineIndex, SystemNanoClock.INSTANCE, problem -> fail("snapshot refused: " + problem));
            assertEquals(engineIndex, restored.engineIndex());
            final ExcerptComparison comparison = new ExcerptComparison(false);
            return RecordedInputs.recover(journal, order, sources, new JournalingInput(rerun, engine, comparison),
                    comparison, rerun, RecordedInputs.Recovered.NONE);
        }
    }

    /** Writes the scenario's commands, numbered as the scenario runner numbers them, to their gateways' journals. */
    private static int writeGatewayJournals(final String input, final Path root) {
        final Map<Integer, ChronicleQueue> queues = new HashMap<>();
        final Map<Integer, GatewayToEngine> writers = new HashMap<>();
        final AdminJournal[] admin = {null};
        final int[] count = {0};
        final EngineInput bySource = new EngineInput() {
            @Override
            public void newOrder(final NewOrder order) {
                writer(order.metaData().sourceId()).newOrder(order);
            }

            @Override
            public void cancelOrder(final CancelOrder cancel) {
                writer(cancel.metaData().sourceId()).cancelOrder(cancel);
            }

            @Override
            public void replaceOrder(final ReplaceOrder replace) {
                writer(replace.metaData().sourceId()).replaceOrder(replace);
            }

            @Override
            public void massCancel(final MassCancel massCancel) {
                writer(massCancel.metaData().sourceId()).massCancel(massCancel);
            }

            @Override
            public void adminCommand(final AdminCommand command) {
                count[0]++;
                if (admin[0] == null) {
                    admin[0] = AdminJournal.open(root, SystemNanoClock.INSTANCE);
                }
                final long eventId = command.metaData().eventId();
                assertEquals(eventId, admin[0].append(command), "admin commands numbered as the scenario runner does");
            }

            private GatewayToEngine writer(final int sourceId) {
                count[0]++;
                return writers.computeIfAbsent(sourceId, id -> {
                    final ChronicleQueue queue = Journals.open(Journals.gatewayJournal(root, id));
                    queues.put(id, queue);
                    return Journals.methodWriter(queue.createAppender(), GatewayToEngine.class);
                });
            }
        };
        final MethodReader reader = WireType.YAML_ONLY.apply(Bytes.from(input))
                .methodReader(new Scenario.NumberingInputs(bySource));
        while (reader.readOne()) {
            // one command per document
        }
        queues.values().forEach(ChronicleQueue::close);
        if (admin[0] != null) {
            admin[0].close();
        }
        return count[0];
    }
}
