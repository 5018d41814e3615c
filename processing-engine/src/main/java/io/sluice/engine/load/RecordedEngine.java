package io.sluice.engine.load;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.JournalOutput;
import io.sluice.engine.JournalingInput;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A real engine writing a real engine journal under a root, in this process: the input of market-data tests and benchmarks.
 * It writes as the engine process does (one excerpt per input, through {@link JournalingInput} and {@link JournalOutput}).
 * It trades {@link TwoInstrumentMarket} with a {@link MixedOrderFlow} and an operator's turn (halt, resume, close,
 * open) on one instrument now and then.
 */
public final class RecordedEngine implements AutoCloseable {
    private final EngineConfig config;
    private final ChronicleQueue journal;
    private final ExcerptAppender appender;
    private final Engine engine;
    private final JournalingInput input;
    private final MixedOrderFlow flow;
    private final AdminTurns turns;
    private final AdminCommand admin = new AdminCommand();
    private long adminEventId = 1_000_000;

    public RecordedEngine(final Path root, final long seed) {
        config = TwoInstrumentMarket.config(root).maxOpenOrders(100_000);
        journal = Journals.open(Journals.engineJournal(root));
        appender = journal.createAppender();
        final JournalOutput output = new JournalOutput();
        output.goLive(appender);
        engine = new Engine(config, output);
        input = new JournalingInput(appender, engine);
        flow = new MixedOrderFlow(seed, 1, config.instruments(), 4);
        turns = new AdminTurns(config.instruments().get(1).symbol());
    }

    /** @return {@code to}, a root holding a copy of the engine journal under {@code from} */
    public static Path copyJournal(final Path from, final Path to) throws IOException {
        final Path target = Files.createDirectories(Journals.engineJournal(to));
        try (Stream<Path> files = Files.list(Journals.engineJournal(from))) {
            for (final Path file : files.toList()) {
                Files.copy(file, target.resolve(file.getFileName()));
            }
        }
        return to;
    }

    /** Runs {@code commands} commands of the mixed flow, an operator's turn after every {@code turnEvery}. */
    public RecordedEngine trade(final long commands, final long turnEvery) {
        for (long i = 1; i <= commands; i++) {
            flow.next(input);
            if (i % turnEvery == 0) {
                turns.next(input);
            }
        }
        return this;
    }

    /** One admin command, as the admin journal hands it to the engine. */
    public RecordedEngine admin(final AdminAction action, final String symbol) {
        admin.metaData().clearTimestamps();
        admin.metaData().sourceId(Journals.ADMIN_SOURCE_ID).eventId(++adminEventId);
        admin.action(action).symbol(symbol == null ? 0 : ShortTextLongConverter.INSTANCE.parse(symbol));
        input.adminCommand(admin);
        return this;
    }

    public Engine engine() {
        return engine;
    }

    public EngineConfig config() {
        return config;
    }

    @Override
    public void close() {
        appender.close();
        journal.close();
    }
}
