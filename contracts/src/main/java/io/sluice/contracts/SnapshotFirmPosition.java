package io.sluice.contracts;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.ShortTextLongConverter;

/**
 * In an engine snapshot ({@link EngineSnapshots}): one firm's exposure in one instrument, after its {@link SnapshotFirm}.
 * Its filled net position and its open quantity per side; written only where one of them is not zero.
 */
public final class SnapshotFirmPosition extends BytesInBinaryMarshallable {
    private int slot;
    @LongConversion(ShortTextLongConverter.class)
    private long symbol;
    private long position;
    private long openBuyQty;
    private long openSellQty;
    private final transient RecordOut out = new RecordOut();
    private final transient RecordIn in = new RecordIn();

    /**
     * @param slot        the firm's slot in the engine's risk table
     * @param symbol      the instrument
     * @param position    the firm's net filled quantity (short: negative)
     * @param openBuyQty  the quantity of its open buy orders
     * @param openSellQty the quantity of its open sell orders
     */
    public SnapshotFirmPosition set(final int slot, final long symbol, final long position, final long openBuyQty,
                                    final long openSellQty) {
        this.slot = slot;
        this.symbol = symbol;
        this.position = position;
        this.openBuyQty = openBuyQty;
        this.openSellQty = openSellQty;
        return this;
    }

    public int slot() {
        return slot;
    }

    public long symbol() {
        return symbol;
    }

    public long position() {
        return position;
    }

    public long openBuyQty() {
        return openBuyQty;
    }

    public long openSellQty() {
        return openSellQty;
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        out.begin(bytes);
        out.writeInt(slot);
        out.writeLong(symbol);
        out.writeLong(position);
        out.writeLong(openBuyQty);
        out.writeLong(openSellQty);
        out.end();
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        in.begin(bytes);
        slot = in.readInt();
        symbol = in.readLong();
        position = in.readLong();
        openBuyQty = in.readLong();
        openSellQty = in.readLong();
        in.end();
    }
}
