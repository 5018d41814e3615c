package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * In an engine snapshot ({@link EngineSnapshots}): one firm of the engine's risk table, its limits and what it uses.
 * The firm's slot in the table (slots are taken in input order, so a restore takes them again in the same order), its
 * limits as they are now (live changes included), its kill switch, its open orders and open notional per side, and
 * its rate windows: orders and limit rejects counted in the latest second of journal time seen. Its positions and open
 * quantities per instrument follow as {@link SnapshotFirmPosition} records.
 */
public final class SnapshotFirm extends BytesInBinaryMarshallable {
    private int slot;
    @LongConversion(ShortTextLongConverter.class)
    private long firm;
    private byte killSwitch;
    private final long[] limits = new long[FirmLimit.values().length];
    private long openOrders;
    private long openBuyNotional;
    private long openSellNotional;
    private long orderSecond;
    private long ordersInSecond;
    private long rejectSecond;
    private long rejectsInSecond;
    private long limitRejects;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    /** Sets which firm this is: its slot in the engine's risk table and its name (packed short text). */
    public SnapshotFirm firm(final int slot, final long firm) {
        this.slot = slot;
        this.firm = firm;
        return this;
    }

    /** Sets the value of {@code limit} ({@link FirmLimit#NONE} for none). */
    public SnapshotFirm limit(final FirmLimit limit, final long value) {
        limits[limit.ordinal()] = value;
        return this;
    }

    /** Sets the firm's kill switch, as the ordinal of the engine's state for it (off, on, tripped). */
    public SnapshotFirm killSwitch(final int ordinal) {
        killSwitch = (byte) ordinal;
        return this;
    }

    /** Sets the firm's open orders and open notional per side (fixed point). */
    public SnapshotFirm open(final long openOrders, final long openBuyNotional, final long openSellNotional) {
        this.openOrders = openOrders;
        this.openBuyNotional = openBuyNotional;
        this.openSellNotional = openSellNotional;
        return this;
    }

    /**
     * Sets the firm's rate windows: the latest second of journal time an order was counted in, and how many; the same
     * for limit rejects ({@code -1}: none counted yet); and every limit reject so far.
     */
    public SnapshotFirm rates(final long orderSecond, final long ordersInSecond, final long rejectSecond,
                              final long rejectsInSecond, final long limitRejects) {
        this.orderSecond = orderSecond;
        this.ordersInSecond = ordersInSecond;
        this.rejectSecond = rejectSecond;
        this.rejectsInSecond = rejectsInSecond;
        this.limitRejects = limitRejects;
        return this;
    }

    /** @return the firm's slot in the engine's risk table */
    public int slot() {
        return slot;
    }

    /** @return the firm (a session without a firm: its CompID), packed short text */
    public long firm() {
        return firm;
    }

    /** @return the value of {@code limit}, or {@link FirmLimit#NONE} */
    public long limit(final FirmLimit limit) {
        return limits[limit.ordinal()];
    }

    /** @return the ordinal of the firm's kill switch state */
    public int killSwitch() {
        return killSwitch;
    }

    public long openOrders() {
        return openOrders;
    }

    public long openBuyNotional() {
        return openBuyNotional;
    }

    public long openSellNotional() {
        return openSellNotional;
    }

    public long orderSecond() {
        return orderSecond;
    }

    public long ordersInSecond() {
        return ordersInSecond;
    }

    public long rejectSecond() {
        return rejectSecond;
    }

    public long rejectsInSecond() {
        return rejectsInSecond;
    }

    public long limitRejects() {
        return limitRejects;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeInt(slot);
        out.writeLong(firm);
        out.writeByte(killSwitch);
        for (final long limit : limits) {
            out.writeLong(limit);
        }
        out.writeLong(openOrders);
        out.writeLong(openBuyNotional);
        out.writeLong(openSellNotional);
        out.writeLong(orderSecond);
        out.writeLong(ordersInSecond);
        out.writeLong(rejectSecond);
        out.writeLong(rejectsInSecond);
        out.writeLong(limitRejects);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        slot = in.readInt();
        firm = in.readLong();
        killSwitch = in.readByte();
        for (int i = 0; i < limits.length; i++) {
            limits[i] = in.readLong();
        }
        openOrders = in.readLong();
        openBuyNotional = in.readLong();
        openSellNotional = in.readLong();
        orderSecond = in.readLong();
        ordersInSecond = in.readLong();
        rejectSecond = in.readLong();
        rejectsInSecond = in.readLong();
        limitRejects = in.readLong();
        in.end();
    }
}
