package io.sluice.contracts;

import net.openhft.chronicle.bytes.MethodId;

/**
 * The snapshot journal ({@code <root>/snapshots}, {@link io.sluice.contracts.journal.Journals#snapshotJournal}) of the
 * engine's snapshots. Each snapshot of the engine's whole state is a run of excerpts, written by one writer, in this
 * order:
 * <ol>
 *   <li>one excerpt: {@link #snapshotBegin} (format version, the engine journal position the state corresponds to,
 *   the id counters, the capacities it was taken under), then one {@link #snapshotSource} per gateway (the last input
 *   of that gateway the state includes) and one {@link #snapshotInstrument} per configured instrument;</li>
 *   <li>excerpts of up to {@code SnapshotBegin#ORDERS_PER_EXCERPT} records each: first, with firm limits, every firm
 *   of the risk table in slot order ({@link #snapshotFirm}, each followed by its {@link #snapshotFirmPosition}s); then
 *   every session whose kill switch is on ({@link #snapshotSessionKillSwitch}); then the {@link #snapshotOrder}s: every
 *   resting order, book by book in config order, bids then asks, best level first, each level in time priority; then the
 *   remembered completed orders, oldest first;</li>
 *   <li>one excerpt: {@link #snapshotEnd}, which makes the snapshot valid: it carries the checksum of every excerpt
 *   before it.</li>
 * </ol>
 * A snapshot without its end (its writer was killed part way) is torn and never used. Every record carries its
 * {@link RecordChecksum}. {@code ./sluice dump <root>/snapshots} prints them as YAML.
 */
public interface EngineSnapshots {
    @MethodId(RecordLayout.SNAPSHOT_BEGIN)
    void snapshotBegin(SnapshotBegin begin);

    @MethodId(RecordLayout.SNAPSHOT_SOURCE)
    void snapshotSource(SnapshotSource source);

    @MethodId(RecordLayout.SNAPSHOT_INSTRUMENT)
    void snapshotInstrument(SnapshotInstrument instrument);

    @MethodId(RecordLayout.SNAPSHOT_ORDER)
    void snapshotOrder(SnapshotOrder order);

    @MethodId(RecordLayout.SNAPSHOT_END)
    void snapshotEnd(SnapshotEnd end);

    @MethodId(RecordLayout.SNAPSHOT_FIRM)
    void snapshotFirm(SnapshotFirm firm);

    @MethodId(RecordLayout.SNAPSHOT_FIRM_POSITION)
    void snapshotFirmPosition(SnapshotFirmPosition position);

    @MethodId(RecordLayout.SNAPSHOT_SESSION_KILL_SWITCH)
    void snapshotSessionKillSwitch(SnapshotSessionKillSwitch session);
}
