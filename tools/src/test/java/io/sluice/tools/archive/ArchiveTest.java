package io.sluice.tools.archive;

import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.NoOpGatewayToEngine;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.SessionCheckpoint;
import io.sluice.contracts.SessionProgress;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.EngineService;
import io.sluice.engine.JournalOutput;
import io.sluice.engine.JournalingInput;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.engine.load.MixedOrderFlow;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.snapshot.SnapshotMain;
import io.sluice.engine.snapshot.SnapshotRestore;
import io.sluice.gateway.JournalSessionStore;
import io.sluice.gateway.SessionStoreRecovery;
import io.sluice.replay.Replay;
import io.sluice.replay.ReplayResult;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice archive} on real journals of several days. The past days are written as the processes write them
 * (the engine's own classes consuming the gateways' commands), through a Chronicle {@code SetTimeProvider} that puts
 * each day in its own cycle file; today is written by the real engine. Then: the policy moves only what nothing
 * needs (a snapshot older than --keep-days keeps what it needs), --dry-run moves nothing, the engine restarts on what
 * is left and goes on, a replay from the snapshot on what is left is identical, and a gateway's own journal recovers
 * the same state from its newest checkpoint as from the whole.
 */
final class ArchiveTest {
    private static final LocalDate TODAY = LocalDate.now(ZoneOffset.UTC);
    private static final long SESSION = ShortTextLongConverter.INSTANCE.parse("TRADER");
    private static final int COMMANDS_PER_DAY = 400;

    @TempDir
    Path dir;

    @Test
    void archiveThenEngineRestartThenReplayFromTheSnapshotOnWhatIsLeft() throws Exception {
        final Path root = dir.resolve("journals");
        final Path archive = dir.resolve("archive");
        final EngineConfig config = config(root);
        try (PastDays days = new PastDays(config)) {
            days.day(TODAY.minusDays(6));
            days.day(TODAY.minusDays(5));
            days.day(TODAY.minusDays(4));
            final SnapshotMain.Summary snapshot = SnapshotMain.run(config, root, 0, true);
            assertEquals(1, snapshot.written(), snapshot.describe());
            days.day(TODAY.minusDays(3));
            days.day(TODAY.minusDays(2));
            days.day(TODAY.minusDays(1));
        }
        final Set<String> before = dayFiles(root);

        final Run dryRun = archive(root, archive, "--keep-days", "2", "--dry-run");
        assertEquals(0, dryRun.exit, dryRun.out);
        assertEquals(before, dayFiles(root), "a dry run moves nothing");
        assertTrue(!Files.exists(archive), "a dry run creates nothing");
        assertTrue(dryRun.out.contains("would move engine/" + file(6)), dryRun.out);

        final Run run = archive(root, archive, "--keep-days", "2");
        assertEquals(0, run.exit, run.out);
        final Set<String> moved = new TreeSet<>(Set.of("engine/" + file(6), "engine/" + file(5), "gateway-1/" + file(6),
                "gateway-1/" + file(5), "gateway-2/" + file(6), "gateway-2/" + file(5)));
        for (int daysAgo = 6; daysAgo >= 2; daysAgo--) { // the gateways' own journals: from their newest checkpoint
            moved.add("gateway-1-out/" + file(daysAgo));
            moved.add("gateway-2-out/" + file(daysAgo));
        }
        assertEquals(moved, dayFiles(archive), run.out);
        final Set<String> left = new TreeSet<>(before);
        left.removeAll(moved);
        assertEquals(left, dayFiles(root), "the rest stays");
        assertTrue(Files.exists(root.resolve("engine/metadata.cq4t")), "metadata.cq4t stays");
        assertTrue(line(run.out, "kept  engine/" + file(4)).contains("the engine's restart from the newest valid"
                + " snapshot"), "four days old, kept for the snapshot: " + run.out);
        assertTrue(line(run.out, "kept  gateway-1/" + file(4)).contains("it reads on after event"), run.out);
        assertTrue(line(run.out, "kept  engine/" + file(2)).contains("needed by"), run.out);

        // The engine restarts on what is left: from the snapshot, re-running the three days after it, then live.
        try (EngineService engine = EngineService.launch(config)) {
            final long rerun = engine.recovered();
            final SnapshotRestore.Restored from = engine.restoredFrom();
            assertNotNull(from, "restarted from the snapshot");
            assertEquals(3L * 2 * COMMANDS_PER_DAY, from.inputs());
            assertEquals(3L * 2 * COMMANDS_PER_DAY, rerun, "the three days after the snapshot, re-run and compared");
            try (LiveGateway gateway = new LiveGateway(root, 1, 6 * COMMANDS_PER_DAY)) {
                gateway.write(100);
                while (engine.processed() < 100) {
                    engine.poll();
                }
            }
        }
        // A replay from the snapshot on what is left reproduces the engine journal, today's live part included.
        final Replay replay = new Replay(root, config).output(dir.resolve("replay")).fromSnapshot(SnapshotRestore.LATEST);
        final ReplayResult result = replay.run();
        assertTrue(result.identical(), result.summary());
        assertEquals(3L * 2 * COMMANDS_PER_DAY + 100, result.inputs(), result.summary());
        // And the snapshotter goes on from there (it opens the journals read-only: the listing was refreshed).
        assertEquals(3L * 2 * COMMANDS_PER_DAY + 100, SnapshotMain.run(config, root, 0, true).rerun());
    }

    @Test
    void withoutAValidSnapshotEverythingTheEngineNeedsIsKept() throws Exception {
        final Path root = dir.resolve("journals");
        final EngineConfig config = config(root);
        try (PastDays days = new PastDays(config, false)) {
            days.day(TODAY.minusDays(9));
            days.day(TODAY.minusDays(8));
        }
        final Set<String> before = dayFiles(root);
        final Run run = archive(root, dir.resolve("archive"), "--keep-days", "1");
        assertEquals(0, run.exit, run.out);
        assertEquals(before, dayFiles(root), run.out);
        assertTrue(run.out.contains("no valid snapshot: every day of the engine and gateway journals is kept"), run.out);
        assertTrue(line(run.out, "kept  engine/" + file(9)).contains("re-runs every input from the start"), run.out);
    }

    @Test
    void aGatewaysOwnJournalRecoversTheSameStateFromItsNewestCheckpointOnceItsOldDaysAreArchived() throws Exception {
        final Path root = dir.resolve("journals");
        final EngineConfig config = config(root);
        try (PastDays days = new PastDays(config, false)) {
            days.day(TODAY.minusDays(5));
            days.day(TODAY.minusDays(4));
            days.day(TODAY.minusDays(3));
            assertEquals(1, SnapshotMain.run(config, root, 0, true).written());
        }
        final long engineIndexDelivered;
        final Path out = Journals.gatewayDeliveries(root, 1);
        final SetTimeProvider clock = new SetTimeProvider();
        try (ChronicleQueue engine = Journals.openReadOnly(Journals.engineJournal(root))) {
            engineIndexDelivered = engine.firstIndex() + 5; // a report of five days ago: delivery resumes there
        }
        try (ChronicleQueue records = Journals.open(out, clock)) {
            final GatewayRecords writer = records.methodWriter(GatewayRecords.class);
            final SentMessage sent = new SentMessage(64);
            final SessionProgress progress = new SessionProgress();
            final UnsafeBuffer body = new UnsafeBuffer("37=1\u000111=A\u0001".getBytes(StandardCharsets.US_ASCII));
            clock.currentTimeMillis(noon(TODAY.minusDays(5)));
            final long client1 = ShortTextLongConverter.INSTANCE.parse("CLIENT1");
            final long client2 = ShortTextLongConverter.INSTANCE.parse("CLIENT2");
            for (int seq = 1; seq <= 5; seq++) {
                writer.sent(sent.set(client1, seq, '8', noon(TODAY.minusDays(5)), 0, body, 0, body.capacity()));
            }
            writer.received(progress.set(client1, 6, 4, 7));
            writer.sent(sent.set(client2, 1, 'A', noon(TODAY.minusDays(5)), 0, body, 0, 0));
            clock.currentTimeMillis(noon(TODAY.minusDays(4)));
            writer.sent(sent.set(client1, 6, '8', noon(TODAY.minusDays(4)), engineIndexDelivered, body, 0, body.capacity()));
            writer.received(progress.set(client1, 7, 5, 9));
        }
        final SessionStoreRecovery whole;
        try (ChronicleQueue records = Journals.openReadOnly(out)) {
            whole = SessionStoreRecovery.read(records);
        }
        assertEquals(-1, whole.lastCheckpointIndex(), "no checkpoint yet");
        final Run withoutCheckpoint = archive(root, dir.resolve("archive-0"), "--keep-days", "1", "--dry-run");
        assertTrue(line(withoutCheckpoint.out, "kept  gateway-1-out/" + file(5)).contains("holds no checkpoint"),
                withoutCheckpoint.out);

        // The gateway starts (today, two days later) and writes down what it recovered, as Gateway does at start.
        try (JournalSessionStore store = new JournalSessionStore(Journals.open(out), 512)) {
            store.commandsRecovered(9);
            store.checkpoint();
        }
        final Run run = archive(root, dir.resolve("archive"), "--keep-days", "1");
        assertEquals(0, run.exit, run.out);
        assertTrue(dayFiles(dir.resolve("archive")).containsAll(Set.of("gateway-1-out/" + file(5),
                "gateway-1-out/" + file(4))), run.out);
        assertTrue(line(run.out, "kept  gateway-1-out/" + today()).contains("today"), run.out);
        assertTrue(line(run.out, "kept  engine/" + file(5)).contains("gateway 1's restart (it resumes delivering"
                + " reports at engine index 0x" + Long.toHexString(engineIndexDelivered)), run.out);
        try (ChronicleQueue records = Journals.openReadOnly(out)) {
            final SessionStoreRecovery left = SessionStoreRecovery.read(records);
            for (final String session : List.of("CLIENT1", "CLIENT2")) {
                final long id = ShortTextLongConverter.INSTANCE.parse(session);
                assertEquals(whole.nextSenderSeq(id), left.nextSenderSeq(id), session);
                assertEquals(whole.nextTargetSeq(id), left.nextTargetSeq(id), session);
            }
            assertEquals(7, left.nextSenderSeq(ShortTextLongConverter.INSTANCE.parse("CLIENT1")));
            assertEquals(2, left.nextSenderSeq(ShortTextLongConverter.INSTANCE.parse("CLIENT2")));
            assertEquals(engineIndexDelivered, left.deliveredEngineIndex());
        }
    }

    @Test
    void archiveRefusesWhileAProcessHasTheJournalsOpenAndMovesNothing() throws Exception {
        final SluiceDeployment.GatewaySpec gateway = new SluiceDeployment.GatewaySpec(1, FixTransport.UDS,
                List.of(SessionIdentity.ofSluiceClient("TRADER", "secret")));
        try (SluiceDeployment sluice = SluiceDeployment.prepare(dir.resolve("sluice"), List.of(gateway),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS)) {
            final JavaProcess engine = sluice.launchEngine();
            assertTrue(engine.isAlive(), sluice.logs(3_000));
            final Run refused = archive(sluice.journals(), dir.resolve("archive"), "--keep-days", "1");
            assertEquals(ArchiveMain.EXIT_PROCESSES_RUNNING, refused.exit, refused.out);
            assertTrue(refused.out.contains("refused: ") && refused.out.contains("engine (pid " + engine.pid()), refused.out);
            assertTrue(refused.out.lines().noneMatch(l -> l.startsWith("moved ")), refused.out);
            engine.stop(10);
            final Run stopped = archive(sluice.journals(), dir.resolve("archive"), "--keep-days", "1");
            assertEquals(0, stopped.exit, stopped.out);
        }
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() throws Exception {
        final Path root = dir.resolve("journals");
        Files.createDirectories(root);
        final Run inside = archive(root, root.resolve("old"));
        assertEquals(ArchiveMain.EXIT_BAD_ARGUMENTS, inside.exit);
        final Run noDays = archive(root, dir.resolve("archive"), "--keep-days", "0");
        assertEquals(ArchiveMain.EXIT_BAD_ARGUMENTS, noDays.exit);
    }

    /** The tests' market without pretouching, remembering 500 completed orders. */
    static EngineConfig config(final Path root) {
        return TwoInstrumentMarket.config(root).pretouch(false).completedOrderMemory(500);
    }

    /**
     * Past days of a deployment with gateways 1 and 2 and the engine: each {@link #day} the gateways append
     * {@value #COMMANDS_PER_DAY} commands each (the seeded mix of {@link MixedOrderFlow}) and the engine consumes them,
     * with the engine's own classes as {@link EngineService} runs them, every journal's clock set to that day.
     */
    private static final class PastDays implements AutoCloseable {
        private final SetTimeProvider clock = new SetTimeProvider();
        private final ChronicleQueue[] outJournals;
        private final GatewayRecords[] outWriters = new GatewayRecords[2];
        private final long[] delivered = new long[2];
        private final long[] sentSeq = new long[2];
        private final SentMessage sent = new SentMessage(64);
        private final SessionCheckpoint checkpoint = new SessionCheckpoint();
        private final UnsafeBuffer body = new UnsafeBuffer("37=1\u0001".getBytes(StandardCharsets.US_ASCII));
        private final ExcerptAppender appender;
        private final ChronicleQueue engineJournal;
        private final ChronicleQueue[] gatewayJournals = new ChronicleQueue[2];
        private final GatewayToEngine[] writers = new GatewayToEngine[2];
        private final MixedOrderFlow[] flows = new MixedOrderFlow[2];
        private final InputSources sources;
        private final JournalingInput input;

        PastDays(final EngineConfig config) {
            this(config, true);
        }

        /**
         * @param deliveries true to also write each gateway's own journal as it writes it: a checkpoint at the start of
         *                   each day, and the delivery of the day's last report at its end
         */
        PastDays(final EngineConfig config, final boolean deliveries) {
            final Path root = config.journalRoot();
            outJournals = deliveries ? new ChronicleQueue[2] : new ChronicleQueue[0];
            for (int i = 0; i < outJournals.length; i++) {
                outJournals[i] = Journals.open(Journals.gatewayDeliveries(root, i + 1), clock);
                outWriters[i] = outJournals[i].methodWriter(GatewayRecords.class);
            }
            engineJournal = Journals.open(Journals.engineJournal(root), clock);
            for (int i = 0; i < 2; i++) {
                gatewayJournals[i] = Journals.open(Journals.gatewayJournal(root, i + 1), clock);
                writers[i] = gatewayJournals[i].methodWriter(GatewayToEngine.class);
                flows[i] = new MixedOrderFlow(i + 1, i + 1, config.instruments(), 3);
            }
            sources = new InputSources(root, config.gatewayIds());
            appender = engineJournal.createAppender();
            final JournalOutput output = new JournalOutput();
            final Engine engine = new Engine(config, output);
            input = new JournalingInput(appender, engine);
            output.goLive(appender);
        }

        void day(final LocalDate day) {
            clock.currentTimeMillis(noon(day));
            for (int i = 0; i < outJournals.length; i++) {
                outWriters[i].checkpoint(checkpoint.set(SESSION, sentSeq[i] + 1, 1, 0, delivered[i], delivered[i] == 0 ? 0 : 1, -1, 0));
            }
            for (int i = 0; i < 2; i++) {
                for (int c = 0; c < COMMANDS_PER_DAY; c++) {
                    flows[i].next(writers[i]);
                }
            }
            boolean consumed = true;
            while (consumed) {
                consumed = false;
                for (int i = 0; i < sources.count(); i++) {
                    consumed |= sources.get(i).poll(input);
                }
            }
            for (int i = 0; i < outJournals.length; i++) {
                delivered[i] = appender.lastIndexAppended();
                outWriters[i].sent(sent.set(SESSION, ++sentSeq[i], '8', noon(day), delivered[i], body, 0, body.capacity()));
            }
        }

        @Override
        public void close() {
            sources.close();
            engineJournal.close();
            for (final ChronicleQueue journal : gatewayJournals) {
                journal.close();
            }
            for (final ChronicleQueue journal : outJournals) {
                journal.close();
            }
        }
    }

    /** Gateway {@code id} writing today with the system clock, its event ids going on after {@code written}. */
    private static final class LiveGateway implements AutoCloseable {
        private final ChronicleQueue journal;
        private final GatewayToEngine writer;
        private final MixedOrderFlow flow;

        LiveGateway(final Path root, final int id, final long written) {
            journal = Journals.open(Journals.gatewayJournal(root, id));
            writer = journal.methodWriter(GatewayToEngine.class);
            flow = new MixedOrderFlow(id, id, config(root).instruments(), 3);
            for (long e = 0; e < written; e++) {
                flow.next(DISCARD);
            }
        }

        void write(final int count) {
            for (int c = 0; c < count; c++) {
                flow.next(writer);
            }
        }

        @Override
        public void close() {
            journal.close();
        }
    }

    private static final GatewayToEngine DISCARD = new NoOpGatewayToEngine();

    private record Run(int exit, String out) {
    }

    private static Run archive(final Path root, final Path to, final String... more) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final String[] args = Stream.concat(Stream.of("--root", root.toString(), "--to", to.toString()), Stream.of(more))
                .toArray(String[]::new);
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = ArchiveMain.run(out, args);
        }
        return new Run(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    /** @return every day file under {@code root} as journal/file */
    private static Set<String> dayFiles(final Path root) throws IOException {
        if (!Files.exists(root)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".cq4"))
                    .map(f -> root.relativize(f).toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static String line(final String out, final String start) {
        return out.lines().filter(l -> l.startsWith(start)).findFirst().orElse("(no line starting '" + start + "')");
    }

    private static String file(final int daysAgo) {
        return RetentionPolicy.fileName((int) TODAY.minusDays(daysAgo).toEpochDay());
    }

    private static String today() {
        return file(0);
    }

    private static long noon(final LocalDate day) {
        return day.atTime(12, 0).toInstant(ZoneOffset.UTC).toEpochMilli();
    }
}
