package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.SnapshotBegin;
import io.sluice.contracts.SnapshotEnd;
import io.sluice.contracts.SnapshotFirm;
import io.sluice.contracts.SnapshotFirmPosition;
import io.sluice.contracts.SnapshotInstrument;
import io.sluice.contracts.SnapshotOrder;
import io.sluice.contracts.SnapshotSessionKillSwitch;
import io.sluice.contracts.SnapshotSource;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.config.RiskConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.InputSource;
import io.sluice.engine.recovery.InputSources;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Starts a fresh engine from a snapshot instead of from the first input. It serves the engine process on restart, the
 * snapshotter before it follows the journals on, and {@code replay --from-snapshot}. It takes the newest snapshot of
 * the snapshot journal (or the one asked for), reading the journal backward from its end
 * ({@link SnapshotCatalog.NewestFirst}: the snapshots older than the one used are never read), and uses it only if
 * <ul>
 *   <li>it is whole: its end record is there and its excerpts still give the checksum the end records;</li>
 *   <li>it was taken under this config: same format version, capacities, instruments and risk section;</li>
 *   <li>it matches these journals: the engine journal holds, at the index the snapshot records, an excerpt answering
 *   the same input with the same CRC32C, and each gateway journal holds, at the index recorded for it, the event
 *   recorded for it.</li>
 * </ul>
 * A snapshot that fails a check is reported (the snapshot journal, its index, the reason) and the next older one is
 * tried. The one that passes is loaded into the engine, and the engine journal's consumption order and the gateway
 * journals are left positioned right after it: the caller re-runs only what follows (comparing, as a full recovery
 * does). With none usable, the engine is untouched and the journals are at their start. Start-up code: it allocates.
 */
public final class SnapshotRestore {
    /** Asks for the newest valid snapshot. */
    public static final long LATEST = -1;

    /**
     * The snapshot a restore started from, and how long the restore took. The times are to find the snapshots it looked
     * at (newest first, up to the one used), check them and load the one used.
     */
    public record Restored(Path journal, long beginIndex, long engineIndex, long inputs, int openOrders,
                           int completedOrders, int lookedAt, long findNanos, long checkNanos, long loadNanos) {
        /** @return e.g. "1 snapshots found in 4 ms, checked in 35 ms, 125,000 orders loaded in 180 ms" */
        public String describeTimes() {
            return String.format(Locale.ROOT, "%,d snapshots found in %d ms, checked in %d ms, %,d orders"
                    + " loaded in %d ms", lookedAt, findNanos / 1_000_000, checkNanos / 1_000_000,
                    openOrders + completedOrders, loadNanos / 1_000_000);
        }

        /** @return e.g. "snapshot at engine index 0x4a0000002a (1,000,000 inputs, 5,012 resting orders) of data/snapshots" */
        public String describe() {
            return String.format("snapshot at engine index 0x%x (%,d inputs, %,d resting and %,d completed orders; "
                    + "snapshot journal %s, index 0x%x)", engineIndex, inputs, openOrders, completedOrders, journal, beginIndex);
        }
    }

    private SnapshotRestore() {
    }

    /**
     * Restores from the snapshot journal under {@code root}, if there is one (opened read-only).
     *
     * @see #restore(ChronicleQueue, EngineConfig, Engine, ConsumptionOrder, InputSources, long, NanoClock, Consumer)
     */
    public static Restored restore(final Path root, final EngineConfig config, final Engine engine,
                                   final ConsumptionOrder order, final InputSources sources, final long wanted,
                                   final NanoClock clock, final Consumer<String> log) {
        final Path dir = Journals.snapshotJournal(root);
        if (!Files.exists(dir.resolve("metadata.cq4t"))) {
            if (wanted != LATEST) {
                throw new IllegalArgumentException("no snapshot journal at " + dir.toAbsolutePath());
            }
            return null;
        }
        try (ChronicleQueue snapshots = Journals.openReadOnly(dir)) {
            return restore(snapshots, config, engine, order, sources, wanted, clock, log);
        }
    }

    /**
     * @param snapshots the snapshot journal
     * @param engine    a fresh engine, built from {@code config}
     * @param order     the engine journal's consumption order, at its start
     * @param sources   the gateway journals, at their start
     * @param wanted    {@link #LATEST}, or the engine journal index of the one snapshot to use
     * @param clock     times finding, checking and loading, for {@link Restored#describeTimes()}
     * @param log       told of every snapshot passed over, and why
     * @return the snapshot restored, or null if none could be (nothing changed)
     * @throws IllegalArgumentException if {@code wanted} names a snapshot that is not there or cannot be used
     */
    public static Restored restore(final ChronicleQueue snapshots, final EngineConfig config, final Engine engine,
                                   final ConsumptionOrder order, final InputSources sources, final long wanted,
                                   final NanoClock clock, final Consumer<String> log) {
        final Path dir = Path.of(snapshots.fileAbsolutePath());
        boolean found = false;
        long findNanos = 0;
        long checkNanos = 0;
        try (SnapshotCatalog.NewestFirst catalog = new SnapshotCatalog.NewestFirst(snapshots)) {
            while (true) {
                final long findStart = clock.nanoTime();
                final SnapshotCatalog.Entry entry = catalog.next();
                final long checkStart = clock.nanoTime();
                findNanos += checkStart - findStart;
                if (entry == null) {
                    break;
                }
                if (wanted != LATEST && (entry.begin == null || entry.begin.engineIndex() != wanted)) {
                    continue;
                }
                found = true;
                final String problem = check(entry, config, snapshots, order, sources);
                checkNanos += clock.nanoTime() - checkStart;
                if (problem == null) {
                    final long loadStart = clock.nanoTime();
                    load(snapshots, entry, engine);
                    return new Restored(dir, entry.beginIndex, entry.begin.engineIndex(), entry.begin.inputs(),
                            entry.begin.openOrders(), entry.begin.completedOrders(), catalog.found(), findNanos,
                            checkNanos, clock.nanoTime() - loadStart);
                }
                order.toStart();
                for (int s = 0; s < sources.count(); s++) {
                    sources.get(s).rewind();
                }
                final String message = "snapshot journal " + dir + ", snapshot at index 0x" + Long.toHexString(entry.beginIndex)
                        + (entry.begin == null ? "" : " (engine index 0x" + Long.toHexString(entry.begin.engineIndex()) + ")")
                        + " not used: " + problem;
                if (wanted != LATEST) {
                    throw new IllegalArgumentException(message);
                }
                log.accept(message);
            }
        }
        if (wanted != LATEST && !found) {
            throw new IllegalArgumentException("snapshot journal " + dir + " holds no snapshot at engine index 0x"
                    + Long.toHexString(wanted));
        }
        return null;
    }

    /**
     * @param config null to leave out the check of the config it was taken under ({@code ./sluice archive} without an
     *               engine config)
     * @return null if {@code entry} can be restored here, else why not; may move {@code order} and {@code sources}
     */
    static String check(final SnapshotCatalog.Entry entry, final EngineConfig config, final ChronicleQueue snapshots,
                                final ConsumptionOrder order, final InputSources sources) {
        // The format first: the records after the begin record of another format may not decode at all.
        if (entry.begin != null && entry.begin.formatVersion() != SnapshotBegin.FORMAT_VERSION) {
            return "written in snapshot format " + entry.begin.formatVersion() + "; this build reads format "
                    + SnapshotBegin.FORMAT_VERSION;
        }
        if (entry.unreadable != null) {
            return entry.unreadable;
        }
        if (entry.begin == null) {
            return "its begin record cannot be read";
        }
        if (entry.end == null) {
            return "torn: it has no end record (its writer stopped part way, or is still writing it)";
        }
        final SnapshotBegin begin = entry.begin;
        final String config1 = config == null ? null : configDifference(entry, config);
        if (config1 != null) {
            return "taken under another engine config: " + config1;
        }
        final String content = contentProblem(snapshots, entry);
        if (content != null) {
            return content;
        }
        try {
            if (!order.at(begin.engineIndex())) {
                return "the engine journal holds no input at index 0x" + Long.toHexString(begin.engineIndex())
                        + ": the snapshot was taken of other journals, or this one was cut short";
            }
            if (order.sourceId() != begin.sourceId() || order.eventId() != begin.eventId()) {
                return "the engine journal's excerpt at index 0x" + Long.toHexString(begin.engineIndex()) + " answers event "
                        + order.eventId() + " of " + source(order.sourceId()) + ", the snapshot was taken after event "
                        + begin.eventId() + " of " + source(begin.sourceId());
            }
            final int recorded = order.checksum();
            if (recorded != begin.excerptChecksum()) {
                return String.format("the engine journal's excerpt at index 0x%x has CRC32C %08x, the snapshot was taken"
                        + " after one with %08x: of other journals", begin.engineIndex(), recorded, begin.excerptChecksum());
            }
        } catch (final CorruptJournalException e) {
            return "the engine journal cannot be read at its index: " + e.getMessage();
        }
        final Set<Integer> named = new HashSet<>();
        for (final SnapshotCatalog.Source s : entry.sources) {
            final InputSource source = sources.bySourceId(s.gatewayId());
            if (source == null) {
                return "it includes inputs of " + source(s.gatewayId()) + (s.gatewayId() == Journals.ADMIN_SOURCE_ID
                        ? ", which is not there" : ", which the config does not name");
            }
            named.add(s.gatewayId());
            final String problem = source.resumeAfter(s.journalIndex(), s.eventId());
            if (problem != null) {
                return problem;
            }
        }
        for (int i = 0; i < sources.count(); i++) {
            if (!named.contains(sources.get(i).sourceId())) {
                sources.get(i).rewind();
            }
        }
        return null;
    }

    /** @return "gateway N", or "the admin journal" for its source id, for messages */
    private static String source(final int sourceId) {
        return sourceId == Journals.ADMIN_SOURCE_ID ? "the admin journal" : "gateway " + sourceId;
    }

    /** @return how {@code config} differs from the one the snapshot was taken under, or null */
    private static String configDifference(final SnapshotCatalog.Entry entry, final EngineConfig config) {
        final SnapshotBegin b = entry.begin;
        if (b.idKeyCheck() != config.publicIds().keyCheck()) {
            return "another idKey: its OrderIDs and ExecIDs were permuted with another key than the one configured";
        }
        if (b.maxOpenOrders() != config.maxOpenOrders() || b.completedOrderMemory() != config.completedOrderMemory()
                || b.maxPriceLevels() != config.maxPriceLevels()) {
            return "maxOpenOrders, completedOrderMemory, maxPriceLevels " + b.maxOpenOrders() + ", "
                    + b.completedOrderMemory() + ", " + b.maxPriceLevels() + " in the snapshot, " + config.maxOpenOrders()
                    + ", " + config.completedOrderMemory() + ", " + config.maxPriceLevels() + " configured";
        }
        if (b.riskCheck() != RiskConfig.checkOf(config.risk())) {
            return b.riskCheck() == RiskConfig.NO_RISK ? "it was taken without firm limits, the config has a risk section"
                    : config.risk() == null ? "it was taken with firm limits, the config has no risk section"
                    : "another risk section: maxFirms, the defaults or the firms listed, or their limits, differ";
        }
        final Set<SnapshotCatalog.Instrument> configured = new HashSet<>();
        for (final InstrumentConfig c : config.instruments()) {
            configured.add(new SnapshotCatalog.Instrument(c.symbol(), c.tickSize(), c.lotSize(), c.priceLow(),
                    c.priceHigh(), c.maxOrderQty(), c.maxNotional()));
        }
        if (!configured.equals(new HashSet<>(entry.instruments))) {
            final Set<SnapshotCatalog.Instrument> onlySnapshot = new HashSet<>(entry.instruments);
            onlySnapshot.removeAll(configured);
            final Set<SnapshotCatalog.Instrument> onlyConfig = new HashSet<>(configured);
            onlyConfig.removeAll(entry.instruments);
            return "instruments differ: only in the snapshot " + describe(onlySnapshot) + "; only in the config "
                    + describe(onlyConfig);
        }
        return null;
    }

    private static String describe(final Set<SnapshotCatalog.Instrument> instruments) {
        final StringBuilder text = new StringBuilder("[");
        final SnapshotInstrument record = new SnapshotInstrument();
        for (final SnapshotCatalog.Instrument i : instruments) {
            record.set(i.symbol(), i.tickSize(), i.lotSize(), i.priceLow(), i.priceHigh(), i.maxOrderQty(), i.maxNotional());
            text.append(text.length() > 1 ? ", " : "").append(record.toString().replaceAll("\\s+", " ").strip());
        }
        return text.append(']').toString();
    }

    /** @return null if the snapshot's excerpts are all there and give the checksum its end records, else what is wrong */
    private static String contentProblem(final ChronicleQueue snapshots, final SnapshotCatalog.Entry entry) {
        final SnapshotEnd end = entry.end;
        final SnapshotChecksum checksum = new SnapshotChecksum();
        try (ExcerptTailer tailer = snapshots.createTailer()) {
            if (!tailer.moveToIndex(entry.beginIndex)) {
                return "its begin excerpt is gone";
            }
            while (checksum.excerpts() < end.excerpts()) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return "it ends after " + checksum.excerpts() + " of its " + end.excerpts() + " excerpts";
                    }
                    if (dc.index() == entry.endIndex) {
                        return "its end record comes after " + checksum.excerpts() + " of its " + end.excerpts() + " excerpts";
                    }
                    final Bytes<?> bytes = dc.wire().bytes();
                    final int length = (int) bytes.readRemaining();
                    checksum.add(bytes.addressForRead(bytes.readPosition(), length), length);
                }
            }
        } catch (final RuntimeException e) {
            return "its excerpts cannot be read: " + e.getMessage();
        }
        if (checksum.value() != end.contentChecksum()) {
            return String.format("damaged: its %d excerpts give checksum %08x, its end record says %08x",
                    end.excerpts(), checksum.value(), end.contentChecksum());
        }
        return null;
    }

    /** Loads the orders of a checked snapshot into the fresh engine. */
    private static void load(final ChronicleQueue snapshots, final SnapshotCatalog.Entry entry, final Engine engine) {
        final SnapshotBegin begin = entry.begin;
        engine.restoreCounters(begin.lastOrderId(), begin.lastExecId());
        if (begin.killSwitch() == null) {
            throw new IllegalStateException("the snapshot at index 0x" + Long.toHexString(entry.beginIndex)
                    + " holds no readable kill switch state");
        }
        engine.restoreKillSwitch(begin.killSwitch());
        if (begin.primaryLease() == null) {
            throw new IllegalStateException("the snapshot at index 0x" + Long.toHexString(entry.beginIndex)
                    + " holds no readable primary lease state");
        }
        engine.restorePrimaryLease(begin.primaryLease());
        for (final SnapshotCatalog.TradingState state : entry.tradingStates) {
            engine.restoreTradingState(state.symbol(), state.session(), state.halt(), state.lastTradePrice());
        }
        final int[] firms = {0};
        try (ExcerptTailer tailer = snapshots.createTailer()) {
            final MethodReader reader = tailer.methodReader(new EngineSnapshots() {
                @Override
                public void snapshotBegin(final SnapshotBegin ignored) {
                }

                @Override
                public void snapshotSource(final SnapshotSource ignored) {
                }

                @Override
                public void snapshotInstrument(final SnapshotInstrument ignored) {
                }

                @Override
                public void snapshotFirm(final SnapshotFirm firm) {
                    engine.restoreFirm(firm);
                    firms[0]++;
                }

                @Override
                public void snapshotFirmPosition(final SnapshotFirmPosition position) {
                    engine.restoreFirmPosition(position);
                }

                @Override
                public void snapshotSessionKillSwitch(final SnapshotSessionKillSwitch session) {
                    engine.restoreSessionKillSwitch(session);
                }

                @Override
                public void snapshotOrder(final SnapshotOrder order) {
                    if (order.resting()) {
                        engine.restoreResting(order);
                    } else {
                        engine.restoreCompleted(order);
                    }
                }

                @Override
                public void snapshotEnd(final SnapshotEnd ignored) {
                }
            });
            if (!tailer.moveToIndex(entry.beginIndex)) {
                throw new IllegalStateException("the snapshot at index 0x" + Long.toHexString(entry.beginIndex) + " is gone");
            }
            for (int i = 0; i < entry.end.excerpts(); i++) {
                reader.readOne();
            }
        }
        if (engine.openOrders() != begin.openOrders() || engine.completedOrders().size() != begin.completedOrders()
                || firms[0] != begin.firms() || engine.sessionKillSwitches().count() != begin.sessionKillSwitches()) {
            throw new IllegalStateException("the snapshot at index 0x" + Long.toHexString(entry.beginIndex) + " says "
                    + begin.openOrders() + " resting and " + begin.completedOrders() + " completed orders, "
                    + begin.firms() + " firms and " + begin.sessionKillSwitches() + " session kill switches; loading it"
                    + " gave " + engine.openOrders() + ", " + engine.completedOrders().size() + ", " + firms[0] + " and "
                    + engine.sessionKillSwitches().count());
        }
    }
}
