package io.sluice.marketdata.handler;

/**
 * What a feed handler tells whoever watches it. Each incremental message applied to its books (with the engine's
 * reportWriting behind it, for order-to-tick), and each book checksum it compared with its own.
 */
public interface BookListener {
    /** Listens to nothing. */
    BookListener NONE = new BookListener() {
    };

    /** An incremental message of {@code sequence} was applied; {@code reportWritingTicks} is its timestamp. */
    default void onApplied(final long sequence, final long reportWritingTicks) {
    }

    /** The feed's checksum of instrument {@code instrument} at {@code sequence}, and the handler's. */
    default void onChecksum(final int instrument, final long sequence, final long feed, final long handler) {
    }
}
