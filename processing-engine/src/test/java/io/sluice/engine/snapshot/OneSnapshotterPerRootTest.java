package io.sluice.engine.snapshot;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.engine.process.EngineProcesses;
import io.sluice.engine.process.GatewayJournalWriter;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One snapshotter per journal root, enforced by the OS: while a snapshotter ({@code --follow}) writes the snapshot
 * journal, another one is refused at start with exit code 1, naming the journal and the pid of the one that writes it;
 * once that one is killed with {@code kill -9}, the kernel has released its lock and the next runs. SIGTERM stops a
 * following snapshotter with exit code 0.
 */
final class OneSnapshotterPerRootTest {
    @TempDir
    Path root;

    @Test
    void aSecondSnapshotterIsRefusedNamingTheFirstOnesPidAndOneRunsOnceItIsKilled() throws Exception {
        final EngineConfig config = TwoInstrumentMarket.config(root);
        try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1)) {
            gateway.write(20);
        }
        try (EngineService service = new EngineService(config)) { // the history, answered
            service.recover();
            while (service.processed() < 20) {
                service.poll();
            }
        }
        final Path configFile = Files.writeString(root.resolve("engine.yaml"), config.toString());
        final Path journal = Journals.snapshotJournal(root).toAbsolutePath();
        final Path lockFile = journal.resolve("writer.lock");

        try (JavaProcess follower = snapshot("follower", configFile, "--follow", "--every", "5")) {
            EngineProcesses.await(() -> follower.logText().contains("snapshot: following"), follower, "the follower");
            try (JavaProcess second = snapshot("second", configFile, "--at-end")) {
                assertEquals(SnapshotMain.EXIT_FAILED, second.waitFor(120), second.logText());
                assertTrue(second.logText().contains("snapshot: cannot start: journal " + journal + " is written by"
                        + " snapshot pid " + follower.pid() + " (it holds " + lockFile + "): one process writes a journal;"
                        + " stop that one first"), second.logText());
            }
            follower.kill9();
        }
        try (JavaProcess third = snapshot("third", configFile, "--at-end")) {
            assertEquals(0, third.waitFor(120), third.logText());
        }
        try (JavaProcess follower = snapshot("follower-2", configFile, "--follow")) {
            EngineProcesses.await(() -> follower.logText().contains("snapshot: following"), follower,
                    "the second follower");
            assertEquals(0, follower.stop(30), follower.logText()); // SIGTERM: a clean stop
        }
    }

    private JavaProcess snapshot(final String name, final Path configFile, final String... options) throws IOException {
        final List<String> args = new ArrayList<>(List.of("--config", configFile.toString()));
        args.addAll(List.of(options));
        return JavaProcess.start(name, root.resolve(name + ".log"), List.of("-XX:TieredStopAtLevel=1"), SnapshotMain.class,
                args.toArray(String[]::new));
    }
}
