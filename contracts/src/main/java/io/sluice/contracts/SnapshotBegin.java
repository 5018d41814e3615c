package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

/**
 * The first record of an engine snapshot ({@link EngineSnapshots}): its format, the engine journal position of the
 * state, counters and capacities. The position is the excerpt at {@link #engineIndex()}, which answered input {@link
 * #eventId()} of gateway {@link #sourceId()}, and whose bytes have the CRC32C {@link #excerptChecksum()}; then how many
 * inputs that is, the engine's id counters and the check of the key they are permuted with, the kill switch and the
 * primary's lease, the
 * capacities the state was built under, and the check of its risk section with how many firms and session kill switches
 * follow. A restart uses a snapshot only if the
 * engine journal holds that same excerpt at that index and its config has the same capacities and instruments.
 */
public final class SnapshotBegin extends BytesInBinaryMarshallable {
    /** The snapshot format this build writes and reads; bump it on any change of the snapshot records
     * (2: orders carry their routing CompIDs; 3: the kill switch, each instrument's trading session and halt, and the
     * admin journal among the sources; 4: the check of the key that permutes OrderIDs and ExecIDs; 5: the firms' risk
     * state, the sessions' kill switches and the check of the risk section they were built under; each instrument's
     * last trade price; 6: the primary's lease). */
    public static final int FORMAT_VERSION = 6;
    /** How many {@link SnapshotOrder} records a writer puts in one excerpt. */
    public static final int ORDERS_PER_EXCERPT = 1024;

    private int formatVersion;
    private long engineIndex;
    private int excerptChecksum;
    private int sourceId;
    private long eventId;
    private long inputs;
    private long lastOrderId;
    private long lastExecId;
    private int openOrders;
    private int completedOrders;
    private int maxOpenOrders;
    private int completedOrderMemory;
    private int maxPriceLevels;
    private int sources;
    private int instruments;
    private KillSwitch killSwitch = KillSwitch.OFF;
    private PrimaryLease primaryLease = PrimaryLease.HELD;
    private long idKeyCheck;
    private long riskCheck;
    private int firms;
    private int sessionKillSwitches;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    /** Sets the position: the engine journal excerpt the state is the state after, and the input it answered. */
    public SnapshotBegin position(final long engineIndex, final int excerptChecksum, final int sourceId,
                                  final long eventId, final long inputs) {
        formatVersion = FORMAT_VERSION;
        this.engineIndex = engineIndex;
        this.excerptChecksum = excerptChecksum;
        this.sourceId = sourceId;
        this.eventId = eventId;
        this.inputs = inputs;
        return this;
    }

    /** Sets the engine's counters and how many of each record follow. */
    public SnapshotBegin state(final long lastOrderId, final long lastExecId, final int openOrders,
                               final int completedOrders, final int sources, final int instruments) {
        this.lastOrderId = lastOrderId;
        this.lastExecId = lastExecId;
        this.openOrders = openOrders;
        this.completedOrders = completedOrders;
        this.sources = sources;
        this.instruments = instruments;
        return this;
    }

    /** Sets the engine-wide trading state: the kill switch. */
    public SnapshotBegin killSwitch(final KillSwitch killSwitch) {
        this.killSwitch = killSwitch;
        return this;
    }

    /** Sets whether the primary's lease is held, lapsed or fenced. */
    public SnapshotBegin primaryLease(final PrimaryLease primaryLease) {
        this.primaryLease = primaryLease;
        return this;
    }

    /** @return the primary's lease, as it was; null if the snapshot holds an unknown value */
    public PrimaryLease primaryLease() {
        return primaryLease;
    }

    /** Sets the check of the key the state's OrderIDs and ExecIDs were permuted with ({@link PublicIds#keyCheck}). */
    public SnapshotBegin idKeyCheck(final long idKeyCheck) {
        this.idKeyCheck = idKeyCheck;
        return this;
    }

    /**
     * Sets the risk state's frame: the check of the risk section the state was built under ({@code RiskConfig#check},
     * 0 for none), how many {@link SnapshotFirm} and {@link SnapshotSessionKillSwitch} records follow.
     */
    public SnapshotBegin risk(final long riskCheck, final int firms, final int sessionKillSwitches) {
        this.riskCheck = riskCheck;
        this.firms = firms;
        this.sessionKillSwitches = sessionKillSwitches;
        return this;
    }

    /** @return the check of the engine config's risk section the state was built under, 0 for none */
    public long riskCheck() {
        return riskCheck;
    }

    /** @return how many {@link SnapshotFirm} records follow */
    public int firms() {
        return firms;
    }

    /** @return how many {@link SnapshotSessionKillSwitch} records follow */
    public int sessionKillSwitches() {
        return sessionKillSwitches;
    }

    /** @return the check of the key the state's OrderIDs and ExecIDs were permuted with, 0 for none */
    public long idKeyCheck() {
        return idKeyCheck;
    }

    /** @return the kill switch, as it was; null if the snapshot holds an unknown value */
    public KillSwitch killSwitch() {
        return killSwitch;
    }

    /** Sets the capacities of the config the state was built under. */
    public SnapshotBegin capacities(final int maxOpenOrders, final int completedOrderMemory, final int maxPriceLevels) {
        this.maxOpenOrders = maxOpenOrders;
        this.completedOrderMemory = completedOrderMemory;
        this.maxPriceLevels = maxPriceLevels;
        return this;
    }

    public int formatVersion() {
        return formatVersion;
    }

    /** @return the index, in the engine journal, of the excerpt of the last input the state includes */
    public long engineIndex() {
        return engineIndex;
    }

    /** @return the CRC32C of that excerpt's bytes */
    public int excerptChecksum() {
        return excerptChecksum;
    }

    /** @return the gateway of the last input the state includes */
    public int sourceId() {
        return sourceId;
    }

    /** @return the event id of the last input the state includes */
    public long eventId() {
        return eventId;
    }

    /** @return how many inputs the state includes: the engine journal's excerpts up to {@link #engineIndex()} */
    public long inputs() {
        return inputs;
    }

    public long lastOrderId() {
        return lastOrderId;
    }

    public long lastExecId() {
        return lastExecId;
    }

    /** @return how many resting orders follow */
    public int openOrders() {
        return openOrders;
    }

    /** @return how many completed orders follow the resting ones */
    public int completedOrders() {
        return completedOrders;
    }

    public int maxOpenOrders() {
        return maxOpenOrders;
    }

    public int completedOrderMemory() {
        return completedOrderMemory;
    }

    public int maxPriceLevels() {
        return maxPriceLevels;
    }

    /** @return how many {@link SnapshotSource} records follow */
    public int sources() {
        return sources;
    }

    /** @return how many {@link SnapshotInstrument} records follow */
    public int instruments() {
        return instruments;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeInt(formatVersion);
        out.writeLong(engineIndex);
        out.writeInt(excerptChecksum);
        out.writeInt(sourceId);
        out.writeLong(eventId);
        out.writeLong(inputs);
        out.writeLong(lastOrderId);
        out.writeLong(lastExecId);
        out.writeInt(openOrders);
        out.writeInt(completedOrders);
        out.writeInt(maxOpenOrders);
        out.writeInt(completedOrderMemory);
        out.writeInt(maxPriceLevels);
        out.writeInt(sources);
        out.writeInt(instruments);
        out.writeByte((byte) (killSwitch == null ? -1 : killSwitch.ordinal()));
        out.writeLong(idKeyCheck);
        out.writeLong(riskCheck);
        out.writeInt(firms);
        out.writeInt(sessionKillSwitches);
        out.writeByte((byte) (primaryLease == null ? -1 : primaryLease.ordinal()));
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        formatVersion = in.readInt();
        engineIndex = in.readLong();
        excerptChecksum = in.readInt();
        sourceId = in.readInt();
        eventId = in.readLong();
        inputs = in.readLong();
        lastOrderId = in.readLong();
        lastExecId = in.readLong();
        openOrders = in.readInt();
        completedOrders = in.readInt();
        maxOpenOrders = in.readInt();
        completedOrderMemory = in.readInt();
        maxPriceLevels = in.readInt();
        sources = in.readInt();
        instruments = in.readInt();
        killSwitch = KillSwitch.fromOrdinal(in.readByte());
        idKeyCheck = formatVersion >= 4 ? in.readLong() : 0;
        final boolean withRisk = formatVersion >= 5;
        riskCheck = withRisk ? in.readLong() : 0;
        firms = withRisk ? in.readInt() : 0;
        sessionKillSwitches = withRisk ? in.readInt() : 0;
        primaryLease = formatVersion >= 6 ? PrimaryLease.fromOrdinal(in.readByte()) : PrimaryLease.HELD;
        in.end();
    }
}
