package io.sluice.replay;

import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.Price;
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
            assertTrue(text.contains("orderQty: " + RecordedSession.JUMBO_QTY), text);
            assertTrue(text.contains("expected (recorded):") && text.contains("execType: NEW"), text);
            assertTrue(text.contains("actual (this replay):") && text.contains("execType: REJECTED"), text);
        }
    }

    @Test
    void aShadowWithANarrowerPriceBandPrintsTheFirstDivergenceWithBothReportsAndExitsThree() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final List<RecordedReports> recorded = RecordedReports.read(session.root());
        final int firstAbove101 = firstAcceptedVodOrderPricedAbove(recorded, 101 * Price.SCALE);
        final Path changed = Files.writeString(dir.resolve("changed.yaml"),
                RecordedSession.configYamlWithVodPriceHigh(session.root(), 101));

        try (JavaProcess shadow = replay("--follow", session.root().toString(), "--config", changed.toString(),
                "--out", dir.resolve("out").toString())) {
            assertEquals(ReplayMain.EXIT_SHADOW_DIVERGED, shadow.waitFor(60), shadow.logText());
            final String text = shadow.logText();
            assertTrue(text.contains("first divergence at report " + firstAbove101 + " of the engine journal"), text);
            assertTrue(text.contains("caused by input " + recorded.get(firstAbove101).eventId() + " of gateway 1"), text);
            assertTrue(text.contains("expected (recorded):") && text.contains("execType: NEW"), text);
            assertTrue(text.contains("actual (this replay):") && text.contains("execType: REJECTED"), text);
            assertTrue(text.contains("shadow: the recorded engine journal is " + session.root().resolve("engine").toAbsolutePath()
                    + ", the shadow's is " + dir.resolve("out").resolve("engine").toAbsolutePath()), text);
        }
    }

    /** @return the number of the first recorded report accepting a VOD.L order (gateway 1's) priced above {@code price} */
    private static int firstAcceptedVodOrderPricedAbove(final List<RecordedReports> recorded, final long price) {
        for (int i = 0; i < recorded.size(); i++) {
            if (recorded.get(i).sourceId() == 1 && recorded.get(i).report() instanceof ExecutionReport report
                    && report.execType() == ExecType.NEW && report.price() > price) {
                return i;
            }
        }
        throw new AssertionError("the recording accepted no VOD.L order priced above " + price);
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
