package io.sluice.replication;

import io.sluice.contracts.journal.Journals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Finds the journals under a primary root that a shipper does not ship yet (a new gateway's appear while it runs),
 * and keeps the order it frames them in: inputs first (the admin journal, the gateways' command journals), then the
 * engine's, then the effects of the engine's (the gateways' own records, the market-data journal), so that a cause
 * read in the same pass as its effect precedes it.
 */
final class JournalDiscovery {
    private static final Comparator<ShippedJournal> CAUSES_FIRST = Comparator
            .<ShippedJournal>comparingInt(journal -> switch (journal.name.kind()) {
                case ADMIN, GATEWAY_COMMANDS -> 0;
                case ENGINE -> 1;
                case GATEWAY_OUT, MARKET_DATA -> 2;
            })
            .thenComparing(journal -> journal.name.name());

    private JournalDiscovery() {
    }

    /**
     * Opens every journal under {@code root} not in {@code journals}, adds it there and re-sorts {@code ordered}.
     *
     * @return the journals found
     */
    static List<ShippedJournal> discover(final Path root, final Map<String, ShippedJournal> journals,
                                         final List<ShippedJournal> ordered) {
        final List<ShippedJournal> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(root)) {
            for (final Path dir : entries.sorted().toList()) {
                final String name = dir.getFileName().toString();
                final JournalName journal = JournalName.parse(name);
                if (journal == null || journals.containsKey(name) || !Journals.isCreated(dir)) {
                    continue;
                }
                final ShippedJournal shipped = new ShippedJournal(journal, dir);
                journals.put(name, shipped);
                found.add(shipped);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list the journal root " + root.toAbsolutePath(), e);
        }
        if (!found.isEmpty()) {
            ordered.addAll(found);
            ordered.sort(CAUSES_FIRST);
        }
        return found;
    }
}
