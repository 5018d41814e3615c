package io.sluice.engine;

import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.config.TradingScheduleConfig;
import io.sluice.engine.load.MixedOrderFlow;
import io.sluice.engine.recovery.ExcerptText;
import io.sluice.engine.schedule.TradingSchedule;
import io.sluice.engine.schedule.TradingScheduler;
import io.sluice.engine.snapshot.SnapshotMain;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.codegen.CodegenExercise;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.WireType;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

/**
 * The engine's {@link CodegenExercise}: runs the engine process's journal work once so that every Chronicle class it
 * needs is generated. It launches (and so recovers) an {@link EngineService} on empty journals (its journal output and
 * recovery writers, its gateway-journal and consumption-order readers), has it process one command, snapshots that
 * ({@link SnapshotMain}: the snapshot writer and readers) and restarts from the snapshot, builds the reader that prints
 * reports when recovery finds a mismatch, and has a {@link TradingScheduler} append to an admin journal. Run by the
 * build (see processing-engine/pom.xml).
 */
public final class EngineCodegen implements CodegenExercise {
    @Override
    public void buildWritersAndReaders(final Path scratch) throws IOException {
        final String example;
        try (InputStream in = EngineCodegen.class.getResourceAsStream("/engine-example.yaml")) {
            example = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        final String yaml = example
                .replaceFirst("journalRoot: [^,\\n]+", Matcher.quoteReplacement("journalRoot: \"" + scratch + "\""))
                .replaceFirst("pretouch: true", "pretouch: false");
        final EngineConfig config = EngineConfig.parse(yaml, "engine-example.yaml");
        try (EngineService service = EngineService.launch(config)) {
            try (ChronicleQueue gateway = Journals.open(Journals.gatewayJournal(scratch, config.gatewayIds()[0]))) {
                new MixedOrderFlow(1, config.gatewayIds()[0], config.instruments(), 1)
                        .next(Journals.methodWriter(gateway.createAppender(), GatewayToEngine.class));
            }
            while (service.poll() == 0) {
                Thread.onSpinWait();
            }
        }
        // The snapshotter's writer and readers, then a restart from its snapshot (the snapshot readers).
        SnapshotMain.run(config, scratch, 0, true);
        EngineService.launch(config).close();
        ExcerptText.reports(WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap(64)), false);
        // The trading scheduler's admin journal writer (and the reader that finds the last event id).
        final TradingScheduleConfig schedule = new TradingScheduleConfig().timeZone("UTC").hours("08:00", "16:30");
        schedule.validate(config.instruments().stream().map(InstrumentConfig::symbol).collect(Collectors.toSet()));
        final TradingScheduler scheduler = new TradingScheduler(TradingSchedule.of(schedule, config.instruments()),
                AdminJournal.open(scratch, SystemNanoClock.INSTANCE), SystemEpochClock.INSTANCE);
        scheduler.doWork();
        scheduler.doWork();
        scheduler.onClose();
    }
}
