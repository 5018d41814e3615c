package io.sluice.engine.snapshot;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.InputSources;
import net.openhft.chronicle.queue.ChronicleQueue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The snapshots of a deployment's snapshot journal with the journal positions a start from each one reads from. Also
 * whether the engine's restart would use it (the checks of {@link SnapshotRestore}, without loading anything): what a
 * retention policy ({@code ./sluice archive}) must keep. Opens every journal read-only. Start-up code: it allocates.
 */
public final class SnapshotPositions {
    /** Where a snapshot says one gateway's inputs were consumed up to. */
    public record Source(int gatewayId, long eventId, long journalIndex) {
    }

    /**
     * One snapshot.
     *
     * @param beginIndex  its first excerpt in the snapshot journal
     * @param engineIndex the engine journal excerpt it was taken after (0 if its begin record cannot be read)
     * @param inputs      how many inputs it holds
     * @param sources     each gateway's position in it
     * @param unusable    null if a restart would use it, else why not (as the engine would report it)
     */
    public record Snapshot(long beginIndex, long engineIndex, long inputs, List<Source> sources, String unusable) {
        /** @return true if a restart (or a replay from it) can start from it */
        public boolean usable() {
            return unusable == null;
        }

        /** @return its position in gateway {@code gatewayId}'s journal, or null if it includes no input of it */
        public Source source(final int gatewayId) {
            for (final Source source : sources) {
                if (source.gatewayId() == gatewayId && source.eventId() != 0) {
                    return source;
                }
            }
            return null;
        }
    }

    private SnapshotPositions() {
    }

    /**
     * @param root       the deployment's journal root
     * @param config     the engine config the restart runs with, or null to leave out the check of the config each
     *                   snapshot was taken under
     * @param gatewayIds the gateway journals the engine reads
     * @return every snapshot, oldest first; none if there is no snapshot journal or engine journal
     */
    public static List<Snapshot> read(final Path root, final EngineConfig config, final int... gatewayIds) {
        final Path dir = Journals.snapshotJournal(root);
        final Path engine = Journals.engineJournal(root);
        if (!Files.exists(dir.resolve("metadata.cq4t")) || !Files.exists(engine.resolve("metadata.cq4t"))) {
            return List.of();
        }
        final List<Snapshot> snapshots = new ArrayList<>();
        try (ChronicleQueue snapshotJournal = Journals.openReadOnly(dir);
             ChronicleQueue engineJournal = Journals.openReadOnly(engine);
             InputSources sources = new InputSources(root, true, gatewayIds);
             ConsumptionOrder order = new ConsumptionOrder(engineJournal)) {
            for (final SnapshotCatalog.Entry entry : SnapshotCatalog.read(snapshotJournal)) {
                final String problem = SnapshotRestore.check(entry, config, snapshotJournal, order, sources);
                final List<Source> positions = new ArrayList<>();
                for (final SnapshotCatalog.Source s : entry.sources) {
                    positions.add(new Source(s.gatewayId(), s.eventId(), s.journalIndex()));
                }
                snapshots.add(new Snapshot(entry.beginIndex, entry.begin == null ? 0 : entry.begin.engineIndex(),
                        entry.begin == null ? 0 : entry.begin.inputs(), List.copyOf(positions), problem));
                order.toStart();
            }
        }
        return snapshots;
    }
}
