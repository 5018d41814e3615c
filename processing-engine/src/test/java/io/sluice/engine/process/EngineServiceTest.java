package io.sluice.engine.process;

import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.contracts.journal.CorruptJournalException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The engine process's loop on real journals: one excerpt per input, recovery after a stop, corrupt input. */
final class EngineServiceTest {
    @TempDir
    Path root;

    /** How often tests poll a condition: leaves the CPU to the engine under test on a 2-core machine. */
    static final long POLL_NANOS = 2_000_000;

    @Test
    void everyInputOfTwoGatewaysIsAnsweredOnceInOneExcerpt() throws Exception {
        final EngineConfig config = TwoInstrumentMarket.config(root);
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1);
             GatewayJournalWriter gateway2 = new GatewayJournalWriter(root, 2, 2)) {
            gateway1.write(300);
            gateway2.write(200);
        }
        final Running engine = Running.start(config);
        awaitExcerpts(500);
        engine.stop();

        final List<EngineJournalContents.Excerpt> excerpts = EngineJournalContents.read(root);
        EngineJournalContents.assertExactlyOnceInOrder(excerpts, Map.of(1, 300L, 2, 200L));
        assertEquals(EngineJournalContents.freshRun(config, root), excerpts);
    }

    @Test
    void aRestartResumesWithTheFirstUnansweredInputOfEveryGateway() throws Exception {
        final EngineConfig config = TwoInstrumentMarket.config(root);
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1);
             GatewayJournalWriter gateway2 = new GatewayJournalWriter(root, 2, 2)) {
            gateway1.write(100);
            gateway2.write(50);
            Running engine = Running.start(config);
            awaitExcerpts(150);
            engine.stop();

            gateway1.write(20);
            gateway2.write(100);
            engine = Running.start(config);
            awaitExcerpts(270);
            engine.stop();
        }
        final List<EngineJournalContents.Excerpt> excerpts = EngineJournalContents.read(root);
        EngineJournalContents.assertExactlyOnceInOrder(excerpts, Map.of(1, 120L, 2, 150L));
        assertEquals(EngineJournalContents.freshRun(config, root), excerpts);
    }

    @Test
    void withCountersOffTheEngineAnswersEveryInputAndKeepsNoCountersFile() throws Exception {
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1)) {
            gateway1.write(40);
        }
        final Path countersFile = io.sluice.runtime.counters.CountersFile.path(root,
                io.sluice.engine.EngineCounters.PROCESS);
        try (EngineService service = EngineService.launch(TwoInstrumentMarket.config(root).counters(false))) {
            final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (service.processed() < 40 && System.nanoTime() < deadline) {
                service.poll();
            }
            assertEquals(40, service.processed());
        }
        assertEquals(40, EngineJournalContents.read(root).size());
        assertTrue(!java.nio.file.Files.exists(countersFile), "no counters file with counters: false");
        try (EngineService service = EngineService.launch(TwoInstrumentMarket.config(root))) {
            service.poll();
        }
        assertTrue(java.nio.file.Files.exists(countersFile), "counters on by default: " + countersFile);
    }

    @Test
    void anInputFromTheWrongSourceStopsTheEngineNamingTheJournalAndPosition() throws Exception {
        try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1)) {
            gateway.write(1);
        }
        // Gateway 2's journal holding a command stamped as gateway 1's: not what the engine may consume.
        try (GatewayJournalWriter impostor = new GatewayJournalWriter(root.resolve("impostor"), 1, 1)) {
            impostor.write(1);
        }
        copyJournal(root.resolve("impostor").resolve("gateway-1"), root.resolve("gateway-2"));
        final EngineService service = EngineService.launch(TwoInstrumentMarket.config(root));
        final CorruptJournalException e = assertInstanceOf(CorruptJournalException.class, failureOf(service));
        assertTrue(e.getMessage().contains(root.resolve("gateway-2").toAbsolutePath().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("excerpt index 0x"), e.getMessage());
        assertTrue(e.getMessage().contains("source 1 in gateway 2"), e.getMessage());
    }

    @Test
    void anAdminJournalOthersCouldWriteStopsTheEngineAtStartNamingIt() throws Exception {
        final Path admin = java.nio.file.Files.createDirectories(io.sluice.contracts.journal.Journals.adminJournal(root));
        java.nio.file.Files.setPosixFilePermissions(admin, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> EngineService.launch(TwoInstrumentMarket.config(root)));
        assertTrue(e.getMessage().contains("admin journal " + admin.toAbsolutePath()), e.getMessage());
        assertTrue(e.getMessage().contains("mode rwxr-xr-x"), e.getMessage());

        final Path configFile = java.nio.file.Files.writeString(root.resolve("engine.yaml"), TwoInstrumentMarket.config(root).toString());
        try (io.sluice.runtime.process.JavaProcess engine = io.sluice.runtime.process.JavaProcess.start("engine",
                root.resolve("engine.log"), List.of("-XX:TieredStopAtLevel=1"), io.sluice.engine.EngineMain.class,
                "--config", configFile.toString())) {
            assertEquals(io.sluice.engine.EngineMain.EXIT_BAD_CONFIG, engine.waitFor(60), engine.logText());
            assertTrue(engine.logText().contains("engine: admin journal " + admin.toAbsolutePath()), engine.logText());
        }
    }

    @Test
    void theEngineCreatesTheAdminJournalOwnerOnlyAndAnswersItsCommands() throws Exception {
        final EngineConfig config = TwoInstrumentMarket.config(root);
        try (EngineService service = EngineService.launch(config)) {
            assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files
                    .getPosixFilePermissions(io.sluice.contracts.journal.Journals.adminJournal(root))));
            try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1);
                 io.sluice.runtime.admin.AdminJournal admin = io.sluice.runtime.admin.AdminJournal.open(root)) {
                gateway.write(20);
                admin.append(new io.sluice.contracts.AdminCommand().action(io.sluice.contracts.AdminAction.CANCEL_ALL));
                admin.append(new io.sluice.contracts.AdminCommand().action(io.sluice.contracts.AdminAction.KILL_SWITCH_OFF));
            }
            while (service.processed() < 22) {
                service.poll();
            }
        }
        final List<EngineJournalContents.Excerpt> excerpts = EngineJournalContents.read(root);
        EngineJournalContents.assertExactlyOnceInOrder(excerpts, Map.of(0, 2L, 1, 20L));
        for (final EngineJournalContents.Excerpt excerpt : excerpts.stream().filter(x -> x.sourceId() == 0).toList()) {
            final List<String> reports = excerpt.reports();
            assertTrue(reports.getLast().contains("AdminOutcome"), "an admin command's last report is its outcome: " + reports);
            assertEquals(1, reports.stream().filter(r -> r.contains("AdminOutcome")).count(), reports.toString());
        }
    }

    private void awaitExcerpts(final int count) {
        awaitTrue(() -> EngineJournalContents.read(root).size() >= count, "engine journal reaching " + count + " excerpts");
    }

    static void awaitTrue(final BooleanSupplier condition, final String what) {
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for " + what);
            }
            LockSupport.parkNanos(POLL_NANOS); // the interval between polls of a condition
        }
    }

    private static void copyJournal(final Path from, final Path to) {
        try (var files = java.nio.file.Files.walk(from)) {
            java.nio.file.Files.createDirectories(to);
            for (final Path file : files.filter(java.nio.file.Files::isRegularFile).toList()) {
                java.nio.file.Files.copy(file, to.resolve(file.getFileName()));
            }
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** @return {@code service} started as the engine process runs it: an agent on a thread of its own */
    static AgentThread start(final EngineService service) {
        return AgentThread.start(service, new org.agrona.concurrent.BackoffIdleStrategy(),
                CpuPinning.NONE, AgentThread.Priority.NORMAL);
    }

    /** @return what stopped {@code service}, run until it stops by itself (at most 30 s) */
    static Throwable failureOf(final EngineService service) throws InterruptedException {
        final AgentThread thread = start(service);
        assertTrue(thread.awaitClosed(30, TimeUnit.SECONDS), "the engine to stop by itself");
        return thread.failure();
    }

    /** An engine service running on its own thread. */
    private record Running(AgentThread thread) {
        static Running start(final EngineConfig config) {
            return new Running(EngineServiceTest.start(EngineService.launch(config)));
        }

        void stop() {
            thread.close();
            if (thread.failure() != null) {
                throw new AssertionError("the engine failed", thread.failure());
            }
        }
    }
}
