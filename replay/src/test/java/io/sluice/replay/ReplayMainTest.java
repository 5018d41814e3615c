package io.sluice.replay;

import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./sluice replay} as an operator runs it: a separate process, its output and its exit code. */
final class ReplayMainTest {
    @TempDir
    Path dir;

    @Test
    void anIdenticalReplayPrintsTheReportCountAndRateAndExitsZero() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final int reports = RecordedReports.read(session.root()).size();

        try (JavaProcess replay = replay("--recorded", session.root().toString(), "--config", session.configFile().toString(),
                "--out", dir.resolve("out").toString())) {
            assertEquals(0, replay.waitFor(60), replay.logText());
            assertTrue(replay.logText().contains("identical, " + reports + " reports"), replay.logText());
            assertTrue(replay.logText().matches("(?s).*replay: 900 inputs in [0-9.]+ s: [0-9,]+ inputs/s.*"), replay.logText());
        }
    }

    @Test
    void aDivergentReplayPrintsTheInputAndBothReportsAndExitsOne() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final Path changed = Files.writeString(dir.resolve("changed.yaml"), RecordedSession.configYaml(session.root(), 200));

        try (JavaProcess replay = replay("--recorded", session.root().toString(), "--config", changed.toString(),
                "--out", dir.resolve("out").toString(), "--pace", "FLAT", "--quiet")) {
            assertEquals(ReplayMain.EXIT_DIVERGED, replay.waitFor(60), replay.logText());
            final String text = replay.logText();
            assertTrue(text.contains("first divergence at report "), text);
            assertTrue(text.contains("caused by input " + RecordedSession.JUMBO_AT + " of gateway 1"), text);
            assertTrue(text.contains("orderQty: " + FixOrderClient.JUMBO_QTY), text);
            assertTrue(text.contains("expected (recorded):") && text.contains("execType: NEW"), text);
            assertTrue(text.contains("actual (this replay):") && text.contains("execType: REJECTED"), text);
        }
    }

    @Test
    void aShadowWithAnotherConfigPrintsTheFirstDivergenceWithBothReportsAndExitsThree() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final int jumboReport = ShadowEngineTest.firstReportOf(RecordedReports.read(session.root()), 1, RecordedSession.JUMBO_AT);
        final Path changed = Files.writeString(dir.resolve("changed.yaml"), RecordedSession.configYaml(session.root(), 200));

        try (JavaProcess shadow = replay("--follow", session.root().toString(), "--config", changed.toString(),
                "--out", dir.resolve("out").toString())) {
            assertEquals(ReplayMain.EXIT_SHADOW_DIVERGED, shadow.waitFor(60), shadow.logText());
            final String text = shadow.logText();
            assertTrue(text.contains("first divergence at report " + jumboReport + " of the engine journal"), text);
            assertTrue(text.contains("caused by input " + RecordedSession.JUMBO_AT + " of gateway 1"), text);
            assertTrue(text.contains("expected (recorded):") && text.contains("execType: NEW"), text);
            assertTrue(text.contains("actual (this replay):") && text.contains("execType: REJECTED"), text);
            assertTrue(text.contains("shadow: the recorded engine journal is " + session.root().resolve("engine").toAbsolutePath()
                    + ", the shadow's is " + dir.resolve("out").resolve("engine").toAbsolutePath()), text);
        }
    }

    @Test
    void aMissingRecordingExitsTwoNamingTheDirectory() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final Path nowhere = dir.resolve("nowhere");

        try (JavaProcess replay = replay("--recorded", nowhere.toString(), "--config", session.configFile().toString(),
                "--out", dir.resolve("out").toString(), "--stop-at", "10", "--sources", "1,2")) {
            assertEquals(ReplayMain.EXIT_CANNOT_REPLAY, replay.waitFor(60), replay.logText());
            assertTrue(replay.logText().contains("replay: recorded gateway 1's journal is missing: no Sluice journal at "
                    + nowhere.resolve("gateway-1").toAbsolutePath()), replay.logText());
        }
    }

    private JavaProcess replay(final String... args) throws Exception {
        return JavaProcess.start("replay", dir.resolve("replay.log"), List.of("-Xmx256m"), ReplayMain.class, args);
    }
}
