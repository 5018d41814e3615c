package io.sluice.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A standby config file and its lease: the lease of the primary it becomes reaches that primary's shipper, and a standby
 * that could take over before the primary it fences stops taking orders is refused.
 */
final class StandbyConfigTest {
    private static final String STANDBY = """
            !StandbyConfig { deployment: prod-1, name: standby-b, root: replica, start: [ "./sluice engine" ]%s }
            """;

    @TempDir
    Path dir;

    @Test
    void theDefaultLeaseEndsBeforeTheDefaultFailoverAndReachesThePromotedRootsShipper() throws IOException {
        final StandbyConfig defaults = load("");
        assertEquals(ReplicationConfig.DEFAULT_LEASE_MILLIS, defaults.leaseMillis());
        assertEquals(ReplicationConfig.DEFAULT_LEASE_MILLIS, defaults.shipper("holder").leaseMillis());

        final StandbyConfig configured = load(", failoverAfterMillis: 5000, leaseMillis: 3000");
        assertEquals(3000, configured.shipper("holder").leaseMillis());
    }

    @Test
    void aFailoverNoLongerThanTheLeaseIsRefused() throws IOException {
        assertRefused(", failoverAfterMillis: 1500, leaseMillis: 1500", "failoverAfterMillis (1500) must be longer than"
                + " leaseMillis (1500): a standby must not take over before the primary it fences has stopped taking"
                + " orders by its lease (the deployment's leaseMillis, the same on every host)");
        assertRefused(", leaseMillis: 2000", "failoverAfterMillis (2000) must be longer than leaseMillis (2000): a"
                + " standby must not take over before the primary it fences has stopped taking orders by its lease (the"
                + " deployment's leaseMillis, the same on every host)");
    }

    @Test
    void aLeaseNotPositiveIsRefused() throws IOException {
        assertRefused(", leaseMillis: 0", "leaseMillis must be positive (the lease of the primary this standby"
                + " becomes), got 0");
    }

    @Test
    void theExampleStandbyConfigReads() {
        final StandbyConfig example = StandbyConfig.load(Path.of("src/main/resources/standby-example.yaml"));
        assertEquals(2000, example.failoverAfterMillis());
        assertEquals(1500, example.leaseMillis());
    }

    private void assertRefused(final String settings, final String reason) throws IOException {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> load(settings));
        assertEquals("standby config " + dir.resolve("standby.yaml").toAbsolutePath() + ": " + reason,
                refused.getMessage());
    }

    private StandbyConfig load(final String settings) throws IOException {
        final Path file = Files.writeString(dir.resolve("standby.yaml"), STANDBY.formatted(settings));
        return StandbyConfig.load(file);
    }
}
