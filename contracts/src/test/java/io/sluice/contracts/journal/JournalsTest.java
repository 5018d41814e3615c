package io.sluice.contracts.journal;

import io.sluice.contracts.EventFixtures;
import io.sluice.contracts.GatewayToEngine;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Journal naming and opening: the real cycle file of an excerpt, and journals of another format refused. */
final class JournalsTest {
    @TempDir
    Path root;

    @Test
    void theCycleFileOfAnExcerptIsTheFileChronicleWroteItTo() throws Exception {
        final Path dir = Journals.gatewayJournal(root, 1);
        try (ChronicleQueue queue = Journals.open(dir)) {
            queue.methodWriter(GatewayToEngine.class).newOrder(EventFixtures.newOrder());
            final long index = queue.lastIndex();
            final Path file = Journals.cycleFile(queue, queue.rollCycle().toCycle(index));
            assertTrue(Files.exists(file), file + " exists");
            assertTrue(file.getFileName().toString().matches("\\d{8}F\\.cq4"), file.toString());
            assertEquals(dir.toAbsolutePath(), file.getParent().toAbsolutePath());
            final long offset = Journals.excerptOffset(queue, index);
            assertTrue(offset > 0 && offset < Files.size(file), "offset " + offset);
        }
    }

    @Test
    void aJournalOfAnotherFormatIsRefusedNamingBoth() {
        final Path dir = Journals.engineJournal(root);
        Journals.open(dir).close();
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir).rollCycle(RollCycles.FAST_DAILY).build()) {
            queue.tableStorePut(Journals.FORMAT_KEY, Journals.FORMAT_VERSION + 1); // as a later Sluice would leave it
        }
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Journals.open(dir));
        assertTrue(e.getMessage().contains(dir.toAbsolutePath() + " was written in journal format " + (Journals.FORMAT_VERSION + 1)
                + "; this Sluice reads and"
                + " writes format " + Journals.FORMAT_VERSION), e.getMessage());
    }
}
