package io.sluice.contracts.journal;

import net.openhft.chronicle.core.io.Closeable;
import net.openhft.chronicle.core.time.SystemTimeProvider;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.core.values.LongValue;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How Sluice names and opens its journals. All journals of one deployment live under one root directory:
 * <pre>
 *   &lt;root&gt;/gateway-&lt;id&gt;/   commands written by gateway &lt;id&gt; ({@code GatewayToEngine})
 *   &lt;root&gt;/gateway-&lt;id&gt;-out/  gateway &lt;id&gt;'s own records ({@code GatewayRecords}): deliveries
 *                           ({@code GatewayDeliveries}), FIX session state and the messages kept for resends
 *   &lt;root&gt;/engine/         reports written by the engine ({@code EngineToGateway})
 *   &lt;root&gt;/snapshots/      snapshots of the engine's state ({@code EngineSnapshots}), written by {@code ./sluice snapshot}
 *   &lt;root&gt;/marketdata/     the market-data feed derived from the engine journal, written by {@code ./sluice marketdata}
 * </pre>
 * Each is a binary Chronicle Queue rolling daily ({@link RollCycles#FAST_DAILY}: one file per UTC day,
 * named {@code yyyyMMdd'F'.cq4} ({@link #cycleFile}), 80 MiB sparse, growing in 64 MiB steps). Sluice never
 * deletes a cycle: the journals are the record that restarts and replays are built from. {@code ./sluice archive}
 * moves the old cycles that no restart, replay or resend needs out of a stopped deployment (its retention policy
 * says which); the {@code metadata.cq4t} file must stay.
 */
public final class Journals {
    /** The directory name of the engine's journal. */
    public static final String ENGINE = "engine";
    /** The directory name of the engine snapshot journal ({@code EngineSnapshots}). */
    public static final String SNAPSHOTS = "snapshots";
    /** The directory name of the market-data journal (the feed's messages, in batches: the marketdata module's). */
    public static final String MARKET_DATA = "marketdata";
    /** The directory name of the deployment's admin journal ({@code AdminCommands}). */
    public static final String ADMIN = "admin";
    /**
     * The MetaData sourceId of every admin command: no gateway has it (gateway ids are positive), so the engine
     * journal tells the commands it consumed from the admin journal apart from those of the gateways.
     */
    public static final int ADMIN_SOURCE_ID = 0;
    /** The prefix of a gateway journal's directory name; the gateway id follows. */
    public static final String GATEWAY_PREFIX = "gateway-";
    /** The suffix of a gateway's own journal (deliveries, session state) after its command journal's name. */
    public static final String OUT_SUFFIX = "-out";

    private Journals() {
    }

    /** @return the directory of gateway {@code gatewayId}'s command journal under {@code root}. */
    public static Path gatewayJournal(final Path root, final int gatewayId) {
        if (gatewayId <= 0) {
            throw new IllegalArgumentException("gateway ids are positive, got " + gatewayId);
        }
        return root.resolve(GATEWAY_PREFIX + gatewayId);
    }

    /** @return the directory of gateway {@code gatewayId}'s own journal: deliveries and FIX session state. */
    public static Path gatewayDeliveries(final Path root, final int gatewayId) {
        return root.resolve(gatewayJournal(root, gatewayId).getFileName() + OUT_SUFFIX);
    }

    /** @return the directory of the engine's report journal under {@code root}. */
    public static Path engineJournal(final Path root) {
        return root.resolve(ENGINE);
    }

    /** @return the directory of the market-data journal under {@code root}. */
    public static Path marketDataJournal(final Path root) {
        return root.resolve(MARKET_DATA);
    }

    /** @return the directory of the deployment's admin journal under {@code root} ({@code AdminCommands}). */
    public static Path adminJournal(final Path root) {
        return root.resolve(ADMIN);
    }

    /** @return the directory of the engine snapshot journal under {@code root} ({@code EngineSnapshots}). */
    public static Path snapshotJournal(final Path root) {
        return root.resolve(SNAPSHOTS);
    }

    /**
     * The key, in a journal's {@code metadata.cq4t} table store, of the journal format it was written with
     * (see {@link #FORMAT_VERSION}).
     */
    public static final String FORMAT_KEY = "sluice.journalFormat";
    /**
     * The binary layout of Sluice's commands and reports (method ids, field order, MetaData, the
     * {@link io.sluice.contracts.RecordChecksum} after every record): every journal records it when it is created,
     * and every journal open refuses journals with another. Bump it on any change of layout.
     * 2: a CRC32C after every record; order commands carry the session's firm after the session.
     * 3: commands and reports carry the client's OnBehalfOfCompID (115) and DeliverToCompID (128).
     * 4: mass cancels and their reports, the admin journal's commands and their outcomes.
     * 5: gateways' session checkpoints ({@code GatewayRecords.checkpoint}), so that old days can be archived.
     * 6: execution reports end with their {@code BookEffect}, so that market data is derived from the engine journal.
     * 7: reports carry the owning session's firm after its session, so that gateways route drop copies by firm.
     */
    public static final long FORMAT_VERSION = 7;

    /**
     * Opens (creating if needed) the journal in {@code dir} for appending and reading; a new one records
     * {@link #FORMAT_VERSION}, an existing one must have recorded it (else an {@link IllegalArgumentException}
     * says which format it has). Safe when several processes open a new journal at the same moment (the engine and
     * its gateways starting together): the format is recorded under the table store's file lock, as Chronicle
     * adds its own keys, since two processes adding a key to {@code metadata.cq4t} at once corrupt it.
     */
    public static ChronicleQueue open(final Path dir) {
        return open(dir, SystemTimeProvider.INSTANCE);
    }

    /**
     * As {@link #open(Path)}, with the clock that decides which day's cycle file an append goes to: the processes use
     * the system clock ({@link #open(Path)}); tests that need journals of several days (retention, archiving) write
     * the past days through a {@code SetTimeProvider} instead of waiting for them.
     */
    public static ChronicleQueue open(final Path dir, final TimeProvider clock) {
        final SingleChronicleQueue queue = builder(dir).timeProvider(clock).build();
        try {
            final long format = queue.metaStore().doWithExclusiveLock(store -> {
                final LongValue value = store.acquireValueFor(FORMAT_KEY, Long.MIN_VALUE);
                try {
                    value.compareAndSwapValue(Long.MIN_VALUE, FORMAT_VERSION);
                    return value.getVolatileValue();
                } finally {
                    Closeable.closeQuietly(value);
                }
            });
            if (format != FORMAT_VERSION) {
                throw new IllegalArgumentException("the journal " + dir.toAbsolutePath() + " was written in journal format "
                        + format + "; this Sluice reads and writes format " + FORMAT_VERSION
                        + " (records with checksums): use the Sluice version that wrote it");
            }
        } catch (final RuntimeException e) {
            queue.close();
            throw e;
        }
        return queue;
    }

    /**
     * @return the journal format {@code queue} records (see {@link #FORMAT_VERSION}), or {@link Long#MIN_VALUE}
     * if it records none (written before format versions, or not by Sluice)
     */
    public static long formatOf(final ChronicleQueue queue) {
        final SingleChronicleQueue single = (SingleChronicleQueue) queue;
        final boolean[] present = {false};
        single.metaStore().forEachKey(present, (found, key, value) -> found[0] |= FORMAT_KEY.contentEquals(key));
        return present[0] ? single.tableStoreGet(FORMAT_KEY) : Long.MIN_VALUE;
    }

    /**
     * @return whether a journal has been created in {@code dir} in full: its {@code metadata.cq4t} exists and records
     * a journal format, which its writer records just after creating it. One its writer is still creating (whose
     * read-only open fails, its metadata not yet filled in) is not there yet; one of another format is, so that
     * opening it fails with the reason
     */
    public static boolean isCreated(final Path dir) {
        if (!Files.exists(dir.resolve("metadata.cq4t"))) {
            return false;
        }
        try (ChronicleQueue queue = openReadOnly(dir)) {
            return formatOf(queue) != Long.MIN_VALUE;
        } catch (final RuntimeException beingCreated) {
            return false;
        }
    }

    /**
     * Opens an existing journal in {@code dir} read-only: it never writes to the files, so tailers and
     * replays cannot disturb a live writer or alter a recorded journal.
     *
     * @throws IllegalArgumentException if {@code dir} holds no journal
     */
    public static ChronicleQueue openReadOnly(final Path dir) {
        if (!Files.isDirectory(dir) || !Files.exists(dir.resolve("metadata.cq4t"))) {
            throw new IllegalArgumentException("no Sluice journal at " + dir.toAbsolutePath()
                    + " (expected a directory with metadata.cq4t)");
        }
        return builder(dir).readOnly(true).build();
    }

    /**
     * @return a method writer of {@code type} that appends one excerpt per call through {@code appender}
     * itself; {@code queue.methodWriter(type)} instead looks up the calling thread's appender on every call.
     * Use it on the thread that owns {@code appender}; a call made while that appender holds an excerpt open
     * (see {@code JournalingInput}) lands in that excerpt.
     */
    public static <T> T methodWriter(final ExcerptAppender appender, final Class<T> type) {
        return appender.methodWriterBuilder(type).marshallableOut(appender).build();
    }

    /**
     * @return the real file of cycle {@code cycle} of {@code journal}, named as Chronicle names it from the roll
     * cycle's format (for {@link RollCycles#FAST_DAILY} {@code yyyyMMdd'F'}, e.g. {@code 20261125F.cq4}), whether
     * or not it exists
     */
    public static Path cycleFile(final ChronicleQueue journal, final int cycle) {
        final RollCycle rollCycle = journal.rollCycle();
        final long epoch = journal instanceof SingleChronicleQueue single ? single.epoch() : 0;
        final String name = DateTimeFormatter.ofPattern(rollCycle.format()).withZone(ZoneOffset.UTC)
                .format(Instant.ofEpochMilli((long) cycle * rollCycle.lengthInMillis() + epoch));
        return Path.of(journal.fileAbsolutePath()).resolve(name + SingleChronicleQueue.SUFFIX);
    }

    /**
     * @return the byte offset in its cycle file of the excerpt at {@code index} of {@code journal} (where its
     * content starts, after the 4-byte header), or -1 if no excerpt can be read there. Moves a new tailer there:
     * for error messages, not for a loop.
     */
    public static long excerptOffset(final ChronicleQueue journal, final long index) {
        try (ExcerptTailer tailer = journal.createTailer()) {
            if (!tailer.moveToIndex(index)) {
                return -1;
            }
            try (DocumentContext dc = tailer.readingDocument(true)) {
                return dc.isPresent() ? dc.wire().bytes().readPosition() : -1;
            }
        } catch (final RuntimeException unreadable) {
            return -1;
        }
    }

    /**
     * Records anew, in {@code dir}'s {@code metadata.cq4t}, which cycle files the journal holds, after some were moved
     * out of it while no process had it open ({@code ./sluice archive}). Chronicle keeps the lowest and highest cycle
     * there and rescans the directory only when a writer opens the journal: a read-only opener (replay, the
     * snapshotter, dump) would otherwise look for the first cycle file that is gone (a known Chronicle Queue
     * behaviour: https://github.com/OpenHFT/Chronicle-Queue/issues/1480).
     */
    public static void refreshListing(final Path dir) {
        try (SingleChronicleQueue queue = builder(dir).build()) {
            queue.refreshDirectoryListing();
        }
    }

    private static SingleChronicleQueueBuilder builder(final Path dir) {
        return SingleChronicleQueueBuilder.binary(dir.toFile()).rollCycle(RollCycles.FAST_DAILY);
    }
}
