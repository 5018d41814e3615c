package io.sluice.replication;

import io.sluice.runtime.agent.IdleConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A replication config file: the receiver's fetch batching and the agents' idle strategy, as read and as refused. */
final class ReplicationConfigTest {
    private static final String RECEIVER = """
            !ReplicationConfig { mode: receive, deployment: prod-1, root: replica, bootstrapServers: "127.0.0.1:9092"%s }
            """;

    @TempDir
    Path dir;

    @Test
    void aReceiverBatchesItsFetchesUnlessConfiguredOtherwise() throws IOException {
        final ReplicationConfig defaults = load("");
        assertEquals(ReplicationConfig.DEFAULT_FETCH_MIN_BYTES, defaults.fetchMinBytes());
        assertEquals(ReplicationConfig.DEFAULT_FETCH_MAX_WAIT_MILLIS, defaults.fetchMaxWaitMillis());

        final ReplicationConfig eager = load(", fetchMinBytes: 1, fetchMaxWaitMillis: 0");
        assertEquals(1, eager.fetchMinBytes());
        assertEquals(0, eager.fetchMaxWaitMillis());
    }

    @Test
    void aFileWithoutIdleParksWithoutSpinningOrYielding() throws IOException {
        assertEquals(ReplicationConfig.defaultIdle(), load("").idle());
        assertEquals(IdleConfig.of("yield"), load(", idle: yield").idle());
    }

    @Test
    void fetchSettingsOutOfRangeAreRefusedByName() throws IOException {
        assertRefused(", fetchMinBytes: 0", "fetchMinBytes must be 1 to 1048576, got 0");
        assertRefused(", fetchMaxWaitMillis: 501", "fetchMaxWaitMillis must be 0 to 500, got 501");
    }

    @Test
    void theExampleReceiverConfigReads() {
        final ReplicationConfig example = ReplicationConfig.load(Path.of("src/main/resources/replicate-receive-example.yaml"));
        assertEquals(16_384, example.fetchMinBytes());
        assertEquals(2, example.fetchMaxWaitMillis());
    }

    private void assertRefused(final String settings, final String expected) throws IOException {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> load(settings));
        assertTrue(refused.getMessage().contains(expected), refused.getMessage());
    }

    private ReplicationConfig load(final String settings) throws IOException {
        final Path file = Files.writeString(dir.resolve("replicate.yaml"), RECEIVER.formatted(settings));
        return ReplicationConfig.load(file);
    }
}
