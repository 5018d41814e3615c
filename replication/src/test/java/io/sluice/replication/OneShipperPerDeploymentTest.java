package io.sluice.replication;

import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.process.JavaProcess;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One shipper per deployment, with a real broker and shippers as child processes: a second shipper on the same root is
 * refused at start (the root's shipper lock, naming the root and the holder's pid); a shipper fenced by a newer one of
 * its deployment (another root, another host) stops with its own exit code and says why, instead of re-initialising
 * and fencing the newer one back.
 */
final class OneShipperPerDeploymentTest {
    @RegisterExtension
    static final BrokerPerTestClass kafka = new BrokerPerTestClass();

    @TempDir
    Path dir;

    @Test
    void aSecondShipperOnTheSameRootIsRefusedNamingTheRootAndTheHolder() throws Exception {
        final Path primary = dir.resolve("primary");
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess first = Replicas.ship(dir, "shipper-1", "locked", primary, kafka.bootstrapServers())) {
            Replicas.await("the first shipper resumes", 60, () -> first.logText().contains("resumes from its first excerpt"),
                    first);
            final JavaProcess second = Replicas.ship(dir, "shipper-2", "locked", primary, kafka.bootstrapServers());
            assertEquals(ReplicateMain.EXIT_REFUSED, second.waitFor(60), second.logText());
            assertTrue(second.logText().contains("shipper: refused: a shipper is already shipping the root "
                    + primary.toAbsolutePath()), second.logText());
            assertTrue(second.logText().contains("is locked by shipper pid " + first.pid()), second.logText());
            assertFalse(second.logText().contains("initialising transactions"), second.logText());
            Replicas.awaitGrowth(primary, 500, first);
            assertTrue(first.isAlive(), first.logText());
            assertFalse(first.logText().contains("fenced"), first.logText());
            Replicas.stop(dir, flow);
        }
    }

    @Test
    void aShipperFencedByANewerShipperOfItsDeploymentStopsWithItsOwnExitCode() throws Exception {
        final Path primary = dir.resolve("primary");
        final Path copy = dir.resolve("copy");
        try (JavaProcess flow = Replicas.flowUntilStopped(dir, primary, 1000);
             JavaProcess older = Replicas.ship(dir, "older", "fence", primary, kafka.bootstrapServers())) {
            Replicas.awaitGrowth(primary, 1000, older);
            Replicas.stop(dir, flow);
            awaitShipped(primary, older);
            copyTree(primary, copy); // the same journals on another root, as on a second host

            final int journals = Excerpts.journals(primary).size();
            try (JavaProcess newer = Replicas.ship(dir, "newer", "fence", copy, kafka.bootstrapServers())) {
                Replicas.await("the newer shipper resumes every journal", 60, () -> newer.logText().lines()
                        .filter(line -> line.contains(" resumes after ")).count() == journals, newer);
                // The older one learns it was fenced at its next transaction: more to ship on its root.
                final Path more = Files.createDirectories(dir.resolve("more"));
                try (JavaProcess flowMore = Replicas.flow(more, primary, 200, 1000)) {
                    assertEquals(ReplicateMain.EXIT_FENCED, older.waitFor(60), older.logText());
                    flowMore.waitFor(60);
                }
                assertTrue(older.logText().contains("shipper: fenced by a newer shipper of deployment fence "
                        + "(transactional.id sluice-shipper-fence): this shipper stops; run one shipper per deployment"),
                        older.logText());
                assertFalse(older.logText().contains("replacing it"), older.logText());
                assertTrue(newer.isAlive(), newer.logText());
                assertFalse(newer.logText().contains("fenced"), newer.logText());
                assertFalse(newer.logText().contains("aborting"), newer.logText());
            }
        }
    }

    /** Waits until Kafka has committed every excerpt of every journal under {@code root}. */
    private static void awaitShipped(final Path root, final JavaProcess shipper) throws Exception {
        for (final Map.Entry<String, Path> journal : Excerpts.journals(root).entrySet()) {
            final List<Long> indexes = Excerpts.of(journal.getValue()).indexes();
            try (AcknowledgedIndexReader reader = new AcknowledgedIndexReader(root, journal.getKey(), SystemNanoClock.INSTANCE)) {
                Replicas.await("Kafka to commit all of " + journal.getKey(), 60,
                        () -> reader.acknowledgedIndex() == indexes.getLast(), shipper);
            }
        }
    }

    /** Copies a root as {@code cp -a} would, permissions included (the admin journal must stay owner-only). */
    private static void copyTree(final Path from, final Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            paths.forEach(path -> {
                try {
                    final Path target = to.resolve(from.relativize(path).toString());
                    if (Files.isDirectory(path)) {
                        Files.createDirectories(target);
                        Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(path));
                    } else {
                        Files.copy(path, target, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
