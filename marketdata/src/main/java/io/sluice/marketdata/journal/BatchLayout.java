package io.sluice.marketdata.journal;

/**
 * The layout of one excerpt of the market-data journal: the feed messages derived from one engine-journal excerpt. They
 * are numbered from {@code firstSequence}, as the message blocks of a feed packet ({@code FeedLayout}), so that the
 * publisher and the retransmission service copy them out unchanged. A CRC32C of everything before it ends the
 * excerpt ({@code RecordChecksum}, as every Sluice record).
 * <pre>
 *   0 engineIndex (8: the engine-journal excerpt, -1 for the statuses written when the journal was created)
 *   | 8 firstSequence (8) | 16 count (4) | 20 blocksLength (4) | 24 message blocks | then the checksum (4)
 * </pre>
 */
public final class BatchLayout {
    public static final int ENGINE_INDEX = 0;
    public static final int FIRST_SEQUENCE = ENGINE_INDEX + Long.BYTES;
    public static final int COUNT = FIRST_SEQUENCE + Long.BYTES;
    public static final int BLOCKS_LENGTH = COUNT + Integer.BYTES;
    public static final int BLOCKS = BLOCKS_LENGTH + Integer.BYTES;
    /** The engine index of the first batch, the statuses every instrument starts with: it answers no engine excerpt. */
    public static final long NO_ENGINE_INDEX = -1;

    private BatchLayout() {
    }
}
