package io.sluice.marketdata.handler;

import io.sluice.marketdata.EngineBooks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reference feed handler rebuilds the engine's books from the feed alone, order by order, whatever the network
 * does to the packets (lost, repeated, reordered, the last one lost with only a heartbeat to tell), whenever it joins,
 * and every book checksum of the feed equals its own.
 */
final class FeedHandlerTest {
    @TempDir
    Path dir;

    @Test
    void lostRepeatedAndReorderedPacketsAreRecoveredAndTheBooksAreTheEngines() throws Exception {
        try (FeedRig rig = new FeedRig(dir, 21, 60_000)) {
            final FeedHandler handler = rig.join();
            rig.untilCaughtUp();
            rig.incremental.drop(300).drop(301).duplicate(900).delay(1_500).drop(2_400).duplicate(2_401).delay(3_500);
            for (int stretch = 0; stretch < 10; stretch++) {
                rig.engine.trade(500, 397);
                rig.untilCaughtUp();
                EngineBooks.assertSameBooks(rig.engine, handler.books());
            }
            assertTrue(rig.service.nextSequence() > 4_000, "messages: " + rig.service.nextSequence());
            assertTrue(handler.gaps() >= 3, "gaps " + handler.gaps());
            assertTrue(handler.requests() >= 3, "requests " + handler.requests());
            assertTrue(handler.duplicates() >= 2, "duplicates " + handler.duplicates());
            assertTrue(handler.checksumsMatched() > 10, "checksums " + handler.checksumsMatched());
            assertEquals(0, handler.checksumsMismatched());
            assertEquals(0, handler.diverged());
            assertEquals(1, handler.joins());
        }
    }

    @Test
    void aLostLastPacketIsFoundByTheNextHeartbeat() throws Exception {
        try (FeedRig rig = new FeedRig(dir, 22, 5)) {
            final FeedHandler handler = rig.join();
            rig.untilCaughtUp();
            final long last = rig.service.nextSequence();
            rig.engine.trade(20, 1_000);
            rig.service.doWork();
            rig.incremental.drop(rig.service.nextSequence() - 1);
            rig.untilCaughtUp();
            assertTrue(rig.service.nextSequence() > last, "the order made messages");
            assertEquals(1, handler.gaps());
            EngineBooks.assertSameBooks(rig.engine, handler.books());
        }
    }

    @Test
    void aHandlerJoiningMidDayBuildsTheBookFromASnapshotPlusTheIncrementalsItKept() throws Exception {
        try (FeedRig rig = new FeedRig(dir, 23, 60_000)) {
            final FeedHandler early = rig.join();
            rig.engine.trade(3_000, 397);
            rig.untilCaughtUp();
            final FeedHandler late = rig.join();
            rig.engine.trade(3_000, 397);
            rig.untilCaughtUp();
            EngineBooks.assertSameBooks(rig.engine, late.books());
            EngineBooks.assertSameBooks(rig.engine, early.books());
            assertEquals(1, late.joins());
            assertTrue(late.applied() < early.applied(), "the late handler took the first part from a snapshot");
            assertEquals(0, late.checksumsMismatched());
        }
    }
}
