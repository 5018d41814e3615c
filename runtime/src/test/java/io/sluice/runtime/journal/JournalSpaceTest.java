package io.sluice.runtime.journal;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.process.PollUntil;
import io.sluice.testkit.Tmpfs;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a real, small filesystem (a tmpfs) that fills up while a journal is written: the writer sees its reserve
 * run down (AMPLE, LOW, then EXHAUSTED) and every excerpt it writes meanwhile lands in blocks reserved before the
 * disk filled, so the process never dies of SIGBUS; once space is freed the reserve is kept again.
 */
final class JournalSpaceTest {
    private static final long RESERVE = 1L << 20;
    private static final long FILESYSTEM = 8L << 20;

    @TempDir
    Path dir;

    @Test
    void aFullDiskRunsTheReserveDownToExhaustedWithoutAFaultAndSpaceComesBack() throws Exception {
        try (Tmpfs disk = Tmpfs.mount(dir.resolve("disk"), FILESYSTEM);
             ChronicleQueue journal = Journals.open(disk.dir().resolve("engine"))) {
            final JournalSpace space = new JournalSpace(journal, RESERVE, FILESYSTEM);
            try (AgentThread ignored = AgentThread.startBackground(
                    new JournalSpaceKeeper("test keeper", List.of(space), SystemNanoClock.INSTANCE))) {
                final ExcerptAppender appender = journal.createAppender();
                final EngineToGateway writer = Journals.methodWriter(appender, EngineToGateway.class);
                final ExecutionReport report = EventFixtures.executionReport();
                assertEquals(SpaceLevel.AMPLE, space.level(), "room for a new cycle file at the start");
                writer.executionReport(report);
                space.follow(appender);
                await(() -> space.level() == SpaceLevel.AMPLE, "the keeper to reserve in the new cycle file");

                disk.fill();
                long written = 0;
                SpaceLevel level;
                final long start = appender.wire().bytes().writePosition();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while ((level = space.level()) != SpaceLevel.EXHAUSTED) {
                    assertTrue(System.nanoTime() - deadline < 0, "the reserve to run out; still " + level);
                    if (level != SpaceLevel.PENDING) {
                        writer.executionReport(report);
                        written++;
                        space.follow(appender);
                    }
                }
                final long bytes = appender.wire().bytes().writePosition() - start;
                assertTrue(bytes >= RESERVE / 2 && bytes <= RESERVE, "wrote " + written + " excerpts, " + bytes
                        + " bytes, into the reserve after the disk filled, up to the last eighth of it");
                assertTrue(space.describeShortage().contains(disk.dir().resolve("engine").toString()),
                        space.describeShortage());

                disk.free();
                await(() -> space.level() == SpaceLevel.AMPLE, "the reserve to be kept again once space is freed");
            }
        }
    }

    @Test
    void journalsHandedToARunningKeeperAreKeptByItsOneThread() throws Exception {
        try (ChronicleQueue first = Journals.open(dir.resolve("gateway-1"));
             ChronicleQueue second = Journals.open(dir.resolve("engine"))) {
            final JournalSpaceKeeper keeper = new JournalSpaceKeeper("test keeper", List.of(), SystemNanoClock.INSTANCE);
            try (AgentThread ignored = AgentThread.startBackground(keeper)) {
                for (final ChronicleQueue journal : List.of(first, second)) {
                    final JournalSpace space = new JournalSpace(journal, RESERVE, FILESYSTEM);
                    keeper.add(space);
                    final ExcerptAppender appender = journal.createAppender();
                    Journals.methodWriter(appender, EngineToGateway.class).executionReport(EventFixtures.executionReport());
                    space.follow(appender);
                    await(() -> space.level() == SpaceLevel.AMPLE, "the keeper to reserve ahead of " + journal.file());
                }
            }
        }
    }

    @Test
    void aJournalIsNotCreatedOnAFilesystemWithoutRoomForItsReserve() throws Exception {
        try (Tmpfs disk = Tmpfs.mount(dir.resolve("disk"), FILESYSTEM)) {
            disk.fill();
            final Path journal = disk.dir().resolve("gateway-1");
            final JournalDiskFullException refused = assertThrows(JournalDiskFullException.class,
                    () -> JournalSpace.requireRoomToCreate(journal, RESERVE));
            assertTrue(refused.getMessage().startsWith("journal disk full: cannot create journal " + journal)
                    && refused.getMessage().contains(" bytes free on "), refused.getMessage());
        }
    }

    private static void await(final BooleanSupplier condition, final String what) {
        PollUntil.await(condition, Duration.ofSeconds(10), () -> what);
    }
}
