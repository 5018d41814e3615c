package io.sluice.engine.process;

import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TradingScheduleConfig;
import io.sluice.runtime.agent.AgentThread;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static io.sluice.engine.process.EngineServiceTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The engine process's trading day on real journals: the engine service, running as the engine process runs it, with
 * a trading schedule and a test clock in place of the wall clock; its background thread appends the schedule's
 * commands to the admin journal as the clock crosses the open and the close.
 */
final class ScheduledTradingDayTest {
    @TempDir
    Path root;

    private final CachedEpochClock clock = new CachedEpochClock();

    private EngineConfig config() {
        return EngineServiceTest.config(root).tradingSchedule(new TradingScheduleConfig().timeZone("Europe/London")
                .hours("08:00", "16:30"));
    }

    private void clockAt(final String utc) {
        clock.update(Instant.parse(utc).toEpochMilli());
    }

    /** @return every command of the admin journal as "eventId action symbol user" */
    private List<String> adminJournal() {
        final List<String> commands = new ArrayList<>();
        if (!Files.exists(Journals.adminJournal(root))) {
            return commands;
        }
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.adminJournal(root))) {
            final MethodReader reader = queue.createTailer().methodReader((AdminCommands) c -> commands.add(
                    c.metaData().eventId() + " " + c.action() + " " + c.symbol() + " "
                            + ShortTextLongConverter.INSTANCE.asString(c.user())));
            while (reader.readOne()) {
                // collecting
            }
        }
        return commands;
    }

    @Test
    void theBackgroundThreadWritesTheScheduleIntoTheAdminJournal() throws Exception {
        clockAt("2026-11-26T12:00:00Z");
        AgentThread engine = EngineServiceTest.start(new EngineService(config(), UnaryOperator.identity(), clock));
        awaitTrue(() -> adminJournal().size() == 1, "the state of now at start");
        clockAt("2026-11-26T16:30:00Z");
        awaitTrue(() -> adminJournal().size() == 2, "the close");
        engine.close();
        assertNull(engine.failure());

        clockAt("2026-11-27T09:00:00Z"); // down through the open: a restart opens with one command
        engine = EngineServiceTest.start(new EngineService(config(), UnaryOperator.identity(), clock));
        awaitTrue(() -> adminJournal().size() == 3, "the state of now after the restart");
        engine.close();
        assertNull(engine.failure());
        assertEquals(List.of("1 OPEN_TRADING 0 schedule", "2 CLOSE_TRADING 0 schedule", "3 OPEN_TRADING 0 schedule"),
                adminJournal());
    }
}
