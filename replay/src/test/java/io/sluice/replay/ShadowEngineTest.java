package io.sluice.replay;

import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.CpuPinning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A shadow engine ({@link ShadowEngine}, on its agent thread) following a replica root whose journals arrive in
 * steps and out of step with each other, as a replication receiver fills them one journal at a time
 * ({@link ExcerptCopier} copies the shared recording's excerpts over): an engine journal ahead of its gateway
 * journals, gateway journals ahead of the engine journal, journals that are not there yet. It waits at exactly the
 * input that has not arrived and ends identical; with a changed config it stops at the first divergent report.
 */
final class ShadowEngineTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** Between two looks at the shadow's output. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    @TempDir
    Path dir;

    @Test
    void anEngineJournalAheadOfItsGatewayJournalsWaitsAtTheFirstInputNotReplicated() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final List<RecordedReports> recorded = RecordedReports.read(session.root());
        final long inputs = inputs(recorded, recorded.size());
        final Path replica = dir.resolve("replica");
        final RunningShadow shadow = RunningShadow.start(new Replay(replica, session.config()).output(dir.resolve("out")), 0);

        shadow.awaitOutput("shadow: waiting for journals under " + replica.toAbsolutePath() + ": engine, gateway-1, gateway-2");
        try (ExcerptCopier engine = copier(session, replica, Journals.ENGINE);
             ExcerptCopier gateway1 = copier(session, replica, "gateway-1");
             ExcerptCopier gateway2 = copier(session, replica, "gateway-2")) {
            engine.copyRest();
            shadow.awaitOutput("shadow: 0 inputs followed, 0 reports compared, identical so far; " + count(inputs)
                    + " inputs behind the engine journal; waiting for event 1 of gateway " + recorded.getFirst().sourceId());
            gateway1.copyRest();
            final int firstOfGateway2 = firstReportOf(recorded, 2, 1);
            shadow.awaitOutput("shadow: " + count(inputs(recorded, firstOfGateway2)) + " inputs followed, "
                    + count(firstOfGateway2) + " reports compared, identical so far; "
                    + count(inputs - inputs(recorded, firstOfGateway2))
                    + " inputs behind the engine journal; waiting for event 1 of gateway 2");
            while (gateway2.copy(50) > 0) {
                // the rest of gateway 2's journal arrives in steps
            }
            shadow.awaitOutput("shadow: " + count(inputs) + " inputs followed, " + count(recorded.size())
                    + " reports compared, identical so far; 0 inputs behind the engine journal; waiting for the engine journal to grow");
        }
        final ReplayResult result = shadow.stop();
        assertTrue(result.identical(), result::summary);
        assertEquals(inputs, result.inputs());
        assertEquals(recorded.size(), result.reports());
        assertTrue(shadow.output().contains("identical, " + recorded.size() + " reports"), shadow.output());
    }

    @Test
    void gatewayJournalsAheadOfTheEngineJournalWaitForThePrimaryEnginesNextInput() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final List<RecordedReports> recorded = RecordedReports.read(session.root());
        final long inputs = inputs(recorded, recorded.size());
        final Path replica = dir.resolve("replica");
        try (ExcerptCopier engine = copier(session, replica, Journals.ENGINE);
             ExcerptCopier gateway1 = copier(session, replica, "gateway-1");
             ExcerptCopier gateway2 = copier(session, replica, "gateway-2")) {
            gateway1.copyRest();
            gateway2.copyRest();
            final RunningShadow shadow = RunningShadow.start(new Replay(replica, session.config())
                    .output(dir.resolve("out")).stopAt(inputs), 0);
            shadow.awaitOutput("shadow: 0 inputs followed, 0 reports compared, identical so far; 0 inputs behind the engine journal;"
                    + " waiting for the engine journal to grow");
            engine.copy(100);
            final int reportsOfTheFirst100 = firstReportOfInput(recorded, 100);
            shadow.awaitOutput("shadow: 100 inputs followed, " + count(reportsOfTheFirst100) + " reports compared, identical so far;"
                    + " 0 inputs behind the engine journal; waiting for the engine journal to grow");
            engine.copyRest();

            final ReplayResult result = shadow.awaitStopped(); // by itself, at --stop-at
            assertEquals(ShadowEngine.State.STOPPED, shadow.agent.state());
            assertTrue(result.identical(), result::summary);
            assertEquals(inputs, result.inputs());
            assertEquals(recorded.size(), result.reports());
        }
    }

    @Test
    void aShadowWithALowerMaxOrderQtyStopsAtTheJumboOrdersFirstReportAsItArrives() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final List<RecordedReports> recorded = RecordedReports.read(session.root());
        final int jumboReport = firstReportOf(recorded, 1, RecordedSession.JUMBO_AT);
        final Path replica = dir.resolve("replica");
        try (ExcerptCopier engine = copier(session, replica, Journals.ENGINE);
             ExcerptCopier gateway1 = copier(session, replica, "gateway-1");
             ExcerptCopier gateway2 = copier(session, replica, "gateway-2")) {
            gateway2.copyRest();
            final RunningShadow shadow = RunningShadow.start(new Replay(replica, session.configWithVodMaxOrderQty(200))
                    .output(dir.resolve("out")), 0);
            while (engine.copy(10) + gateway1.copy(7) > 0) {
                // the engine journal and gateway 1's arrive in steps of their own
            }

            final ReplayResult result = shadow.awaitStopped();
            assertEquals(ShadowEngine.State.DIVERGED, shadow.agent.state());
            assertFalse(result.identical());
            final Divergence divergence = result.divergence();
            assertEquals(jumboReport, divergence.reportNumber());
            assertEquals(RecordedReports.read(replica).get(jumboReport).excerptIndex(), divergence.excerptIndex());
            assertEquals(1, divergence.sourceId());
            assertEquals(RecordedSession.JUMBO_AT, divergence.eventId());
            assertTrue(divergence.input().contains("orderQty: " + RecordedSession.JUMBO_QTY), divergence.input());
            assertTrue(divergence.expected().contains("execType: NEW"), divergence.expected());
            assertTrue(divergence.actual().contains("execType: REJECTED"), divergence.actual());
            assertEquals(jumboReport, result.reports(), "every report before the jumbo order's was identical");
            assertTrue(shadow.output().contains(divergence.describe()), shadow.output());
        }
    }

    @Test
    void withAnIdleLimitAShadowOfAFinishedRecordingStopsByItselfAtItsEnd() throws Exception {
        final RecordedSession session = RecordedSession.shared();
        final List<RecordedReports> recorded = RecordedReports.read(session.root());

        final RunningShadow shadow = RunningShadow.start(new Replay(session.root(), session.config()).output(dir.resolve("out")),
                TimeUnit.MILLISECONDS.toNanos(200));

        final ReplayResult result = shadow.awaitStopped();
        assertEquals(ShadowEngine.State.STOPPED, shadow.agent.state());
        assertNull(shadow.thread.failure());
        assertTrue(result.identical(), result::summary);
        assertEquals(inputs(recorded, recorded.size()), result.inputs());
        assertEquals(recorded.size(), result.reports());
    }

    /** @return {@code n} as the status line prints it */
    private static String count(final long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    @Test
    void anOutputDirectoryItCannotWriteToIsRefusedAtOnceNotOnceTheJournalsAreThere() throws Exception {
        final Path root = Files.createDirectories(dir.resolve("no-journals-yet"));

        final RunningShadow shadow = RunningShadow.start(new Replay(root, RecordedSession.shared().config()).output(root), 0);

        assertTrue(shadow.thread.awaitClosed(PATIENCE.toSeconds(), TimeUnit.SECONDS), shadow::output);
        assertEquals(ShadowEngine.State.FAILED, shadow.agent.state());
        assertInstanceOf(ReplayException.class, shadow.thread.failure());
        assertTrue(shadow.thread.failure().getMessage().contains("is the recorded directory"), shadow.thread.failure().getMessage());
    }

    private static ExcerptCopier copier(final RecordedSession session, final Path replica, final String journal) {
        return new ExcerptCopier(session.root().resolve(journal), replica.resolve(journal));
    }

    /** @return how many inputs (excerpts) the first {@code reports} recorded reports belong to */
    private static long inputs(final List<RecordedReports> recorded, final int reports) {
        return recorded.subList(0, reports).stream().mapToLong(RecordedReports::excerptIndex).distinct().count();
    }

    /** @return the number of the first report of the {@code input}-th recorded input, counting both from 0 */
    private static int firstReportOfInput(final List<RecordedReports> recorded, final int input) {
        int report = 0;
        while (report < recorded.size() && inputs(recorded, report + 1) <= input) {
            report++;
        }
        return report;
    }

    private static int firstReportOf(final List<RecordedReports> recorded, final int sourceId, final long eventId) {
        for (int i = 0; i < recorded.size(); i++) {
            if (recorded.get(i).sourceId() == sourceId && recorded.get(i).eventId() == eventId) {
                return i;
            }
        }
        throw new AssertionError("no report of input " + eventId + " of gateway " + sourceId);
    }

    /** A shadow on its agent thread, as {@code ./sluice replay --follow} runs it, printing into memory. */
    private record RunningShadow(ShadowEngine agent, AgentThread thread, ByteArrayOutputStream printed) {
        static RunningShadow start(final Replay replay, final long untilIdleNanos) {
            final ByteArrayOutputStream printed = new ByteArrayOutputStream();
            final ShadowEngine agent = new ShadowEngine(replay, new PrintStream(printed, true, StandardCharsets.UTF_8),
                    untilIdleNanos);
            return new RunningShadow(agent, AgentThread.start(agent, new IdleConfig().newStrategy(), CpuPinning.NONE,
                    AgentThread.Priority.NORMAL), printed);
        }

        String output() {
            return printed.toString(StandardCharsets.UTF_8);
        }

        /** Waits until the shadow has printed a line starting with {@code line}. */
        void awaitOutput(final String line) throws InterruptedException {
            final long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (output().lines().noneMatch(printed -> printed.startsWith(line))) {
                if (thread.awaitClosed(0, TimeUnit.SECONDS)) {
                    throw new AssertionError("the shadow stopped before printing\n" + line + "\nit printed:\n" + output()
                            + "failure: " + thread.failure());
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the shadow did not print\n" + line + "\nit printed:\n" + output());
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
        }

        ReplayResult awaitStopped() throws InterruptedException {
            if (!thread.awaitClosed(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the shadow did not stop by itself; it printed:\n" + output());
            }
            assertNull(thread.failure(), () -> "failed: " + thread.failure() + "\n" + output());
            return agent.result();
        }

        ReplayResult stop() {
            thread.close();
            assertNull(thread.failure(), () -> "failed: " + thread.failure() + "\n" + output());
            return agent.result();
        }
    }
}
