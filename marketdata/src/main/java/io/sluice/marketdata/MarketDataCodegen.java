package io.sluice.marketdata;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.marketdata.derive.MarketDataService;
import io.sluice.runtime.codegen.CodegenExercise;
import net.openhft.chronicle.queue.ChronicleQueue;

import java.nio.file.Path;
import java.util.List;

/**
 * The market-data process's {@link CodegenExercise}: a {@link MarketDataService} reading one report of a scratch
 * engine journal builds the engine-journal method reader the process uses. Run by the build (see marketdata/pom.xml).
 */
public final class MarketDataCodegen implements CodegenExercise {
    @Override
    public void buildWritersAndReaders(final Path scratch) {
        try (ChronicleQueue engine = Journals.open(Journals.engineJournal(scratch))) {
            Journals.methodWriter(engine.createAppender(), EngineToGateway.class).executionReport(new ExecutionReport());
        }
        final MarketDataConfig config = new MarketDataConfig().journalRoot(scratch).instruments(List.of("VOD.L"))
                .incremental(List.of("127.0.0.1:9"));
        try (MarketDataService service = new MarketDataService(config)) {
            service.doWork();
        }
    }
}
