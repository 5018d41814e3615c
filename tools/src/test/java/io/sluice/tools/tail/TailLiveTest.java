package io.sluice.tools.tail;

import io.sluice.contracts.latency.Hop;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.testkit.LatencyPattern;
import io.sluice.testkit.SyntheticJournals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** A live tail follows journals as they grow, from their start or from now, until it is stopped. */
class TailLiveTest {
    private static final int GATEWAYS = 2;
    private static final long BATCH = 1_000;
    private static final LatencyPattern PATTERN = LatencyPattern.realistic();
    private static final long TEN_MILLIS_TICKS = 100_000;

    @TempDir
    Path root;

    @Test
    void fromTheStartItReadsWhatIsThereAndWhatFollows() throws InterruptedException {
        final SyntheticJournals journals = new SyntheticJournals(GATEWAYS, PATTERN);
        journals.write(root, 1, BATCH);
        final Tail tail = new Tail(new TailOptions().root(root).fromStart(true).intervalTicks(TEN_MILLIS_TICKS), quiet());
        final AgentThread thread = start(tail);
        try {
            awaitRecords(tail, recordsOf(1, BATCH));
            journals.write(root, BATCH + 1, 2 * BATCH);
            awaitRecords(tail, recordsOf(1, 2 * BATCH));
        } finally {
            stop(tail, thread);
        }
        assertMatches(new KnownLatencies(PATTERN, GATEWAYS, 1, 2 * BATCH, (gateway, eventId) -> true), tail);
    }

    @Test
    void fromNowItCountsOnlyMessagesArrivingAfterItStarted() throws InterruptedException {
        new SyntheticJournals(GATEWAYS, PATTERN).write(root, 1, BATCH);
        final Tail tail = new Tail(new TailOptions().root(root).intervalTicks(TEN_MILLIS_TICKS), quiet());
        final AgentThread thread = start(tail);
        try {
            await("the tail follows the journals", tail::following);
            // Later inputs arrive after the tail started: their FIX receive times are from now on.
            new SyntheticJournals(GATEWAYS, PATTERN, SluiceClock.nowTicks()).write(root, BATCH + 1, 2 * BATCH);
            awaitRecords(tail, recordsOf(BATCH + 1, 2 * BATCH));
        } finally {
            stop(tail, thread);
        }
        assertMatches(new KnownLatencies(PATTERN, GATEWAYS, BATCH + 1, 2 * BATCH, (gateway, eventId) -> true), tail);
        for (final Finding finding : Finding.values()) {
            assertEquals(0, tail.findings().total(finding), finding.description());
        }
    }

    /** @return the tail running as {@code ./sluice tail} runs it: an agent on a thread of its own */
    private static AgentThread start(final Tail tail) {
        return AgentThread.start(tail, Tail.IDLE.newStrategy(), CpuPinning.NONE, AgentThread.Priority.NORMAL);
    }

    private static void stop(final Tail tail, final AgentThread thread) {
        assertTrue(thread.close(30, TimeUnit.SECONDS), "the tail stops when asked");
        assertNull(thread.failure(), "the tail ran without a failure");
    }

    /** @return commands, reports and deliveries of inputs {@code first..last} of every gateway. */
    private static long recordsOf(final long first, final long last) {
        long records = 0;
        for (long eventId = first; eventId <= last; eventId++) {
            records += GATEWAYS * (1 + 2L * SyntheticJournals.reportsFor(eventId));
        }
        return records;
    }

    private static void awaitRecords(final Tail tail, final long records) {
        await("the tail reads " + records + " records", () -> tail.recordsRead() >= records);
        assertEquals(records, tail.recordsRead(), "no more than what was written");
    }

    private static void await(final String what, final BooleanSupplier condition) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(what + ": not within 30 s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static void assertMatches(final KnownLatencies known, final Tail tail) {
        for (final Hop hop : Hop.values()) {
            assertEquals(known.count(hop), tail.statistics(hop).total().getTotalCount(), hop.label());
            assertTrue(tail.statistics(hop).total().getMaxValue() >= known.maxNanos(hop), hop.label());
        }
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
