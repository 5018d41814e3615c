package io.sluice.replay;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.fix.TestFixClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An engine and its gateways started at the same moment on an empty journal root, as a deployment script
 * does, all come up and serve: each process creates or opens the journals it shares with the others
 * (the engine journal, which every gateway tails, and each gateway's command journal, which the engine
 * tails) whichever gets there first, and nothing needs creating beforehand.
 */
final class SimultaneousStartTest {
    /** How many times to start the set afresh: 1 in the suite; more to hunt a race by hand. */
    private static final int ROUNDS = Integer.getInteger("sluice.simultaneousStartRounds", 1);

    @TempDir
    Path dir;

    @Test
    void engineAndGatewaysStartedAtOnceOnAnEmptyRootAllServe() throws Exception {
        for (int round = 1; round <= ROUNDS; round++) {
            startAllAtOnceAndTrade(Files.createDirectories(dir.resolve("round-" + round)));
        }
    }

    private static void startAllAtOnceAndTrade(final Path root) throws Exception {
        final Path configFile = Files.writeString(root.resolve("engine.yaml"), RecordedSession.configYaml(root, 1000));
        try (JavaProcess engine = RecordedSession.engine(root, configFile);
             JavaProcess gateway1 = RecordedSession.gateway(root, 1, 1);
             JavaProcess gateway2 = RecordedSession.gateway(root, 2, 3)) {
            RecordedSession.awaitListening(root, 1, gateway1);
            RecordedSession.awaitListening(root, 2, gateway2);
            try (TestFixClient client1 = RecordedSession.client(root, 1, 1);
                 TestFixClient client3 = RecordedSession.client(root, 2, 3)) {
                RecordedSession.sendFlow(client1, 10, 1, "VOD.L", 0);
                RecordedSession.sendFlow(client3, 10, 3, "AZN.L", 0);
                RecordedSession.awaitConsumed(root, 20, engine, client1, client3);
            }
        }
    }
}
