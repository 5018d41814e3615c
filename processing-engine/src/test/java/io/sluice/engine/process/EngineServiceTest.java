package io.sluice.engine.process;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineCounters;
import io.sluice.engine.EngineMain;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.RiskConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.engine.risk.FirmCounters;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine process's loop on real journals: one excerpt per input, recovery after a stop, corrupt input. */
final class EngineServiceTest {
    @TempDir
    Path root;

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
        final Path countersFile = CountersFile.path(root,
                EngineCounters.PROCESS);
        try (EngineService service = EngineService.launch(TwoInstrumentMarket.config(root).counters(false))) {
            final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (service.processed() < 40 && System.nanoTime() < deadline) {
                service.poll();
            }
            assertEquals(40, service.processed());
        }
        assertEquals(40, EngineJournalContents.read(root).size());
        assertTrue(!Files.exists(countersFile), "no counters file with counters: false");
        try (EngineService service = EngineService.launch(TwoInstrumentMarket.config(root))) {
            service.poll();
        }
        assertTrue(Files.exists(countersFile), "counters on by default: " + countersFile);
    }

    @Test
    void everyFirmRiskAllowsHasItsCountersInTheCountersFile() {
        final int firms = 100;
        try (GatewayJournalWriter gateway1 = new GatewayJournalWriter(root, 1, 1, firms)) {
            gateway1.write(10L * firms);
        }
        final EngineConfig config = TwoInstrumentMarket.config(root).risk(new RiskConfig().maxFirms(firms));
        try (EngineService service = EngineService.launch(config)) {
            final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (service.processed() < 10L * firms && System.nanoTime() < deadline) {
                service.poll();
            }
            service.poll(); // idle: the firms' counters are published
            final Set<String> counted = new CountersDirectory(root).read().getFirst().counters().stream()
                    .filter(counter -> counter.label().metric().equals(FirmCounters.OPEN_ORDERS))
                    .map(counter -> counter.label().labels().get("firm")).collect(Collectors.toSet());
            assertEquals(IntStream.range(0, firms).mapToObj(i -> "G1S" + i).collect(Collectors.toSet()), counted,
                    "each session without a firm is a firm of its own, and every one is counted");
        }
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
        final Path admin = Files.createDirectories(Journals.adminJournal(root));
        Files.setPosixFilePermissions(admin, PosixFilePermissions.fromString("rwxr-xr-x"));
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> EngineService.launch(TwoInstrumentMarket.config(root)));
        assertTrue(e.getMessage().contains("admin journal " + admin.toAbsolutePath()), e.getMessage());
        assertTrue(e.getMessage().contains("mode rwxr-xr-x"), e.getMessage());

        final Path configFile = Files.writeString(root.resolve("engine.yaml"), TwoInstrumentMarket.config(root).toString());
        try (JavaProcess engine = JavaProcess.start("engine",
                root.resolve("engine.log"), List.of("-XX:TieredStopAtLevel=1"), EngineMain.class,
                "--config", configFile.toString())) {
            assertEquals(EngineMain.EXIT_BAD_CONFIG, engine.waitFor(60), engine.logText());
            assertTrue(engine.logText().contains("engine: admin journal " + admin.toAbsolutePath()), engine.logText());
        }
    }

    @Test
    void theEngineCreatesTheAdminJournalOwnerOnlyAndAnswersItsCommands() throws Exception {
        final EngineConfig config = TwoInstrumentMarket.config(root);
        try (EngineService service = EngineService.launch(config)) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files
                    .getPosixFilePermissions(Journals.adminJournal(root))));
            try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1);
                 AdminJournal admin = AdminJournal.open(root, SystemNanoClock.INSTANCE)) {
                gateway.write(20);
                admin.append(new AdminCommand().action(AdminAction.CANCEL_ALL));
                admin.append(new AdminCommand().action(AdminAction.KILL_SWITCH_OFF));
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
        PollUntil.await(condition, Duration.ofSeconds(30), () -> what);
    }

    private static void copyJournal(final Path from, final Path to) {
        try (var files = Files.walk(from)) {
            Files.createDirectories(to);
            for (final Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return {@code service} started as the engine process runs it: an agent on a thread of its own */
    static AgentThread start(final EngineService service) {
        return AgentThread.start(service, new BackoffIdleStrategy(),
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
