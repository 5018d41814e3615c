package io.sluice.gateway;

import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.SessionProgress;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.testkit.fix.FixFields;
import io.sluice.testkit.fix.TestFixClient;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway whose own journal lost its older days to archiving ({@code ./sluice archive} moves them; here the test
 * moves them the same way: the day files before a day, then Chronicle's listing refreshed): it restarts with the same
 * sequence numbers, because it wrote a checkpoint of everything it recovered when it last started, and a client's
 * ResendRequest over messages of archived days gets a SequenceReset-GapFill over them (and the stored messages still
 * kept, resent with PossDupFlag), with a log line naming the session and the range. The past days are written through
 * the contracts' own writer with a Chronicle {@code SetTimeProvider}, as the gateway writes them, each in its own day
 * file; the gateway itself runs today.
 */
class ArchivedDaysTest {
    private static final LocalDate TODAY = LocalDate.now(ZoneOffset.UTC);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

    @TempDir
    Path dir;

    @Test
    void afterItsOldDaysAreArchivedAGatewayKeepsItsSequenceNumbersAndGapFillsAResendOfThem() throws Exception {
        final Path root = dir.resolve("journals");
        final Path out = Journals.gatewayDeliveries(root, 1);
        final long client1 = ShortTextLongConverter.INSTANCE.parse("CLIENT1");
        final SetTimeProvider clock = new SetTimeProvider();
        try (ChronicleQueue records = Journals.open(out, clock)) {
            final GatewayRecords writer = records.methodWriter(GatewayRecords.class);
            final SentMessage sent = new SentMessage(64);
            final SessionProgress progress = new SessionProgress();
            clock.currentTimeMillis(noon(TODAY.minusDays(3)));
            for (int seq = 1; seq <= 5; seq++) {
                final UnsafeBuffer body = body(seq);
                writer.sent(sent.set(client1, seq, MsgTypes.EXECUTION_REPORT, noon(TODAY.minusDays(3)), 0, body, 0,
                        body.capacity()));
            }
            writer.received(progress.set(client1, 6, 4, 0));
            clock.currentTimeMillis(noon(TODAY.minusDays(2)));
            for (int seq = 6; seq <= 8; seq++) {
                final UnsafeBuffer body = body(seq);
                writer.sent(sent.set(client1, seq, MsgTypes.EXECUTION_REPORT, noon(TODAY.minusDays(2)), 0, body, 0,
                        body.capacity()));
            }
            writer.received(progress.set(client1, 9, 6, 0));
        }
        final GatewayConfig config = new GatewayConfig().gatewayId(1).journalRoot(root)
                .listen("unix:" + dir.resolve("gw.sock")).session(new SessionConfig("CLIENT1", "SLUICE", "secret1"));
        try (RunningGateway started = new RunningGateway(config)) {
            started.address(); // it recovered and wrote its checkpoint
        }
        archiveDaysBefore(out, TODAY.minusDays(2));

        final CapturedErr log = CapturedErr.start();
        final long clientNext;
        try (RunningGateway gateway = new RunningGateway(config);
             TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", 6)) {
            client.logon("secret1");
            assertEquals(9, client.expect("A").seqNum(), "the gateway's sequence goes on after 8");
            client.send(MsgTypes.RESEND_REQUEST, r -> r.longField(FixTags.BEGIN_SEQ_NO, 1).longField(FixTags.END_SEQ_NO, 0));
            assertGapFill(client.expect("4"), 1, 6);
            for (int seq = 6; seq <= 8; seq++) {
                final FixFields resent = client.expect("8");
                assertEquals(seq, resent.seqNum());
                assertEquals("Y", resent.get(FixTags.POSS_DUP_FLAG));
                assertEquals("O" + seq, resent.get(37), "the stored body: " + resent);
            }
            assertGapFill(client.expect("4"), 9, 10); // the Logon, administrative
            clientNext = client.nextSeq();
        }
        assertTrue(log.text().contains("session CLIENT1 -> SLUICE asked for a resend of MsgSeqNum 1 to 5, no longer kept"),
                log.stop());
        log.stop();

        archiveDaysBefore(out, TODAY);
        try (RunningGateway gateway = new RunningGateway(config);
             TestFixClient client = new TestFixClient(gateway.address(), "CLIENT1", clientNext)) {
            client.logon("secret1");
            assertEquals(10, client.expect("A").seqNum(), "recovered from the checkpoint alone");
            client.send(MsgTypes.RESEND_REQUEST, r -> r.longField(FixTags.BEGIN_SEQ_NO, 1).longField(FixTags.END_SEQ_NO, 0));
            assertGapFill(client.expect("4"), 1, 11);
            client.expectNothingElse();
        }
    }

    @Test
    void aRunningGatewayWritesACheckpointIntoEachNewDaysFile() {
        final Path out = Journals.gatewayDeliveries(dir.resolve("journals"), 1);
        final SetTimeProvider clock = new SetTimeProvider();
        clock.currentTimeMillis(noon(TODAY.minusDays(2)));
        try (ChronicleQueue records = Journals.open(out, clock)) {
            records.methodWriter(GatewayRecords.class).received(new SessionProgress()
                    .set(ShortTextLongConverter.INSTANCE.parse("CLIENT1"), 3, 4, 0));
            try (JournalSessionStore store = new JournalSessionStore(records, 64)) {
                store.checkpoint(); // at start
                final long atStart = SessionStoreRecovery.read(records).lastCheckpointIndex();
                store.checkpointOnNewDay();
                assertEquals(atStart, SessionStoreRecovery.read(records).lastCheckpointIndex(), "same day: none more");
                clock.currentTimeMillis(noon(TODAY.minusDays(1)));
                store.checkpointOnNewDay();
                final long nextDay = SessionStoreRecovery.read(records).lastCheckpointIndex();
                assertEquals(records.rollCycle().toCycle(atStart) + 1, records.rollCycle().toCycle(nextDay),
                        "one in the next day's file");
                assertEquals(4, SessionStoreRecovery.read(records).nextTargetSeq(ShortTextLongConverter.INSTANCE.parse("CLIENT1")));
            }
        }
    }

    private static void assertGapFill(final FixFields message, final long seq, final long newSeqNo) {
        assertEquals(seq, message.seqNum(), message.toString());
        assertEquals("Y", message.get(FixTags.GAP_FILL_FLAG), message.toString());
        assertEquals(Long.toString(newSeqNo), message.get(FixTags.NEW_SEQ_NO), message.toString());
    }

    /** Moves the day files of {@code journal} before {@code day} out, as {@code ./sluice archive} does. */
    private void archiveDaysBefore(final Path journal, final LocalDate day) throws IOException {
        final Path archive = dir.resolve("archive").resolve(journal.getFileName());
        Files.createDirectories(archive);
        try (Stream<Path> files = Files.list(journal)) {
            for (final Path file : files.toList()) {
                final String name = file.getFileName().toString();
                if (name.endsWith("F.cq4") && LocalDate.parse(name.substring(0, 8), DAY).isBefore(day)) {
                    Files.move(file, archive.resolve(name));
                }
            }
        }
        Journals.refreshListing(journal);
        try (Stream<Path> left = Files.list(journal)) {
            assertTrue(left.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".cq4"))
                    .allMatch(n -> !LocalDate.parse(n.substring(0, 8), DAY).isBefore(day)), "archived");
        }
    }

    private static UnsafeBuffer body(final int seq) {
        return new UnsafeBuffer(("37=O" + seq + "\u000111=C" + seq + "\u000117=E" + seq + "\u0001")
                .getBytes(StandardCharsets.US_ASCII));
    }

    private static long noon(final LocalDate day) {
        return day.atTime(12, 0).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /** What is written to System.err (where the gateway's log goes) while it is captured, still passed on. */
    private static final class CapturedErr {
        private final PrintStream original = System.err;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        static CapturedErr start() {
            final CapturedErr captured = new CapturedErr();
            System.setErr(new PrintStream(new OutputStream() {
                @Override
                public void write(final int b) {
                    captured.original.write(b);
                    synchronized (captured.bytes) {
                        captured.bytes.write(b);
                    }
                }
            }, true, StandardCharsets.UTF_8));
            return captured;
        }

        String text() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }

        String stop() {
            System.setErr(original);
            return text();
        }
    }
}
