package io.sluice.replay;

import io.sluice.contracts.journal.Journals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static io.sluice.replay.ReplayAssertions.assertReplaysIdentically;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's regression test over a recorded session is one line ({@link #aRecordedSessionReplaysIdentically});
 * the session here was recorded by real gateway and engine processes ({@link RecordedSession}).
 */
final class ReplayExampleTest {
    private static final int ALL_INPUTS = RecordedSession.COMMANDS[0] + RecordedSession.COMMANDS[1] + RecordedSession.COMMANDS[2];

    @TempDir
    Path out;

    @Test
    void aRecordedSessionReplaysIdentically() throws Exception {
        final RecordedSession session = RecordedSession.shared();

        final ReplayResult result = assertReplaysIdentically(session.root(), session.config());

        assertEquals(ALL_INPUTS, result.inputs());
        assertEquals(RecordedReports.read(session.root()).size(), result.reports());
    }

    @Test
    void theNewEngineJournalHoldsTheRecordedReportsStampedByThisRun() throws Exception {
        final RecordedSession session = RecordedSession.shared();

        new Replay(session.root(), session.config()).output(out).run();

        final List<RecordedReports> recorded = RecordedReports.read(session.root());
        final List<RecordedReports> replayed = RecordedReports.read(out);
        assertEquals(recorded.size(), replayed.size());
        for (int i = 0; i < recorded.size(); i++) {
            assertEquals(recorded.get(i).withoutRunTimestamps(), replayed.get(i).withoutRunTimestamps(), "report " + i);
            assertNotEquals(recorded.get(i).report().metaData().reportWriting(), replayed.get(i).report().metaData().reportWriting(),
                    "report " + i + " is stamped when this replay wrote it");
        }
    }

    @Test
    void replayNeverWritesToTheRecordedJournals() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final Map<String, String> before = fingerprint(session.root());

        new Replay(session.root(), session.config()).output(out).run();

        assertEquals(before, fingerprint(session.root()));
    }

    @Test
    void stopAtReplaysOnlyTheFirstInputs() throws Exception {
        final RecordedSession session = RecordedSession.shared();

        final ReplayResult result = assertReplaysIdentically(new Replay(session.root(), session.config()).output(out).stopAt(100));

        assertEquals(100, result.inputs());
        final List<RecordedReports> recorded = RecordedReports.read(session.root());
        final List<Long> firstHundredExcerpts = recorded.stream().map(RecordedReports::excerptIndex).distinct().limit(100).toList();
        final long reportsOfFirstHundred = recorded.stream().filter(r -> firstHundredExcerpts.contains(r.excerptIndex())).count();
        assertEquals(reportsOfFirstHundred, result.reports());
        assertEquals(reportsOfFirstHundred, RecordedReports.read(out).size());
    }

    @Test
    void aGatewayWhoseOrdersMeetNoOtherReplaysAlone() throws Exception {
        final RecordedSession session = RecordedSession.shared();

        final ReplayResult result = assertReplaysIdentically(new Replay(session.root(), session.config()).output(out).sources(2));

        assertEquals(RecordedSession.COMMANDS[2], result.inputs());
        assertEquals(RecordedReports.read(session.root()).stream().filter(r -> r.sourceId() == 2).count(), result.reports());
    }

    @Test
    void recordedPaceTakesAtLeastAsLongAsTheRecordingDid() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final List<RecordedReports> recorded = RecordedReports.read(session.root());
        final long recordedSpanNanos = (recorded.getLast().report().metaData().commandWriting()
                - recorded.getFirst().report().metaData().commandWriting()) * 100;
        assertTrue(recordedSpanNanos > 1_000_000, "the recording spans " + recordedSpanNanos + " ns");

        final ReplayResult result = assertReplaysIdentically(new Replay(session.root(), session.config()).output(out).pace(Pace.RECORDED));

        assertEquals(ALL_INPUTS, result.inputs());
        assertTrue(result.elapsedNanos() >= recordedSpanNanos,
                "paced replay took " + result.elapsedNanos() + " ns, the recording " + recordedSpanNanos + " ns");
    }

    /** @return each file under {@code root} (but the logs) with a digest of its content. */
    private static Map<String, String> fingerprint(final Path root) throws IOException {
        final Map<String, String> digests = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (final Path file : files.filter(Files::isRegularFile).filter(f -> !f.startsWith(root.resolve("logs"))).toList()) {
                digests.put(root.relativize(file) + " " + Files.getLastModifiedTime(file), sha256(file));
            }
        }
        assertTrue(digests.keySet().stream().anyMatch(name -> name.startsWith(Journals.ENGINE)), digests.toString());
        return digests;
    }

    private static String sha256(final Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
