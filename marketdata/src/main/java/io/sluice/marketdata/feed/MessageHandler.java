package io.sluice.marketdata.feed;

import org.agrona.DirectBuffer;

/** Takes one feed message, at {@code offset} of {@code buffer}, valid during the call only. */
@FunctionalInterface
public interface MessageHandler {
    void onMessage(DirectBuffer buffer, int offset, int length);

    /**
     * Hands every message block between {@code from} and {@code to} of {@code buffer} to {@code handler}, in order.
     *
     * @return how many messages
     */
    static int forEach(final DirectBuffer buffer, final int from, final int to, final MessageHandler handler) {
        int count = 0;
        for (int at = from; at + FeedLayout.BLOCK_LENGTH_PREFIX <= to; ) {
            final int length = buffer.getShort(at, FeedLayout.ORDER) & 0xFFFF;
            handler.onMessage(buffer, at + FeedLayout.BLOCK_LENGTH_PREFIX, length);
            at += FeedLayout.BLOCK_LENGTH_PREFIX + length;
            count++;
        }
        return count;
    }
}
