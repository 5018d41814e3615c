package io.sluice.marketdata.journal;

import org.agrona.DirectBuffer;

/** Takes one batch of the market-data journal as {@link BatchReader} reads it; the buffer is valid during the call only. */
@FunctionalInterface
public interface BatchHandler {
    /**
     * @param engineIndex   the engine-journal excerpt the messages come from ({@link BatchLayout#NO_ENGINE_INDEX})
     * @param firstSequence the sequence of the first message
     * @param count         how many messages
     * @param blocks        the message blocks, from offset 0 to {@code length}
     */
    void onBatch(long engineIndex, long firstSequence, int count, DirectBuffer blocks, int length);
}
