package io.sluice.engine;

import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.engine.process.GatewayJournalWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A standby's engine follows its replica root read-only before the promotion, writing nothing under it, and once
 * promoted re-runs only what came since, going live in the state a cold start would have rebuilt.
 */
final class ReplicaFollowerTest {
    /** Turns of the follower at most while a test waits for it to re-run what the journals hold. */
    private static final int TURNS = 1_000_000;

    @TempDir
    Path root;

    @Test
    void aStandbysEngineFollowsTheReplicaWritingNothingAndOncePromotedReRunsOnlyWhatCameSince() {
        final EngineConfig config = TwoInstrumentMarket.config(root);
        try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1)) {
            gateway.write(200);
            answer(config, 200); // the history a receiver would have written
            final Map<Path, Long> before = contents(root);

            final EngineContext context = new EngineContext().config(config);
            final ReplicaFollower follower = context.followReplica();
            followUntil(follower, 200);
            assertEquals(ReplicaFollower.State.FOLLOWING, follower.state());
            assertEquals(before, contents(root), "following writes nothing under the root");

            gateway.write(100); // more arrives while it follows
            answer(config, 100);
            followUntil(follower, 300);
            gateway.write(50); // and some after it last looked, before the promotion
            answer(config, 50);

            try (EngineService promoted = EngineService.launch(context)) {
                assertEquals(350, promoted.recovered());
                assertEquals(300, promoted.context().followedBeforePromotion());
                gateway.write(20);
                while (promoted.processed() < 20) {
                    promoted.poll();
                }
            }
        }
        try (EngineService cold = EngineService.launch(config)) { // re-runs everything, comparing every report
            assertEquals(370, cold.recovered());
            assertEquals(0, cold.context().followedBeforePromotion());
        }
    }

    @Test
    void aFollowerThatFoundNoJournalsLeavesThePromotionToRecoverAsAColdStartDoes() {
        final EngineConfig config = TwoInstrumentMarket.config(root);
        final EngineContext context = new EngineContext().config(config);
        final ReplicaFollower follower = context.followReplica();
        assertEquals(0, follower.doWork());
        assertEquals(ReplicaFollower.State.AWAITING_JOURNALS, follower.state());
        try (GatewayJournalWriter gateway = new GatewayJournalWriter(root, 1, 1)) {
            gateway.write(30);
            answer(config, 30);
        }
        try (EngineService promoted = EngineService.launch(context)) {
            assertEquals(30, promoted.recovered());
            assertEquals(0, promoted.context().followedBeforePromotion());
        }
    }

    /** Runs a primary's engine on the root until it has answered {@code count} new inputs: a receiver's writes. */
    private static void answer(final EngineConfig config, final long count) {
        try (EngineService primary = EngineService.launch(config)) {
            while (primary.processed() < count) {
                primary.poll();
            }
        }
    }

    private static void followUntil(final ReplicaFollower follower, final long followed) {
        for (int turn = 0; turn < TURNS && follower.inputs() < followed; turn++) {
            follower.doWork();
        }
        assertEquals(followed, follower.inputs(), "inputs followed; the follower is " + follower.state());
    }

    /** @return every file under {@code dir} with a checksum of its bytes */
    private static Map<Path, Long> contents(final Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            final Map<Path, Long> checksums = new TreeMap<>();
            files.filter(Files::isRegularFile).forEach(file -> checksums.put(dir.relativize(file), checksum(file)));
            return checksums;
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long checksum(final Path file) {
        final CRC32C crc = new CRC32C();
        final byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                crc.update(buffer, 0, read);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return crc.getValue();
    }
}
