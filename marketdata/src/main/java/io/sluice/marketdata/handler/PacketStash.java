package io.sluice.marketdata.handler;

import io.sluice.marketdata.feed.FeedLayout;
import io.sluice.marketdata.feed.PacketHeader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Incremental packets a feed handler cannot apply yet (it is joining, or a packet before them is missing), copied into
 * slots allocated at start, found again by the sequence they cover. When every slot is taken a packet is turned away:
 * it is retransmitted later like any lost one.
 */
final class PacketStash {
    private final UnsafeBuffer slots;
    private final long[] firstSequences;
    private final int[] counts;
    private final int[] lengths;
    private int used;

    PacketStash(final int capacity) {
        slots = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity * FeedLayout.MAX_PACKET));
        firstSequences = new long[capacity];
        counts = new int[capacity];
        lengths = new int[capacity];
    }

    /** Keeps a copy of a packet; @return false if there is no room */
    boolean keep(final DirectBuffer packet, final int offset, final int length) {
        if (used == firstSequences.length || length > FeedLayout.MAX_PACKET) {
            return false;
        }
        slots.putBytes(used * FeedLayout.MAX_PACKET, packet, offset, length);
        firstSequences[used] = PacketHeader.sequence(packet, offset);
        counts[used] = PacketHeader.count(packet, offset);
        lengths[used] = length;
        used++;
        return true;
    }

    /** @return the slot of a packet that holds {@code sequence}, or -1; drops every packet wholly below it on the way */
    int covering(final long sequence) {
        for (int slot = 0; slot < used; ) {
            final long first = firstSequences[slot];
            if (first + counts[slot] <= sequence) {
                drop(slot);
            } else if (first <= sequence) {
                return slot;
            } else {
                slot++;
            }
        }
        return -1;
    }

    /** @return the lowest first sequence of a kept packet, or {@link Long#MAX_VALUE} if none is kept */
    long lowest() {
        long lowest = Long.MAX_VALUE;
        for (int slot = 0; slot < used; slot++) {
            lowest = Math.min(lowest, firstSequences[slot]);
        }
        return lowest;
    }

    /** @return the buffer a slot's packet starts in, at {@link #offset} */
    DirectBuffer buffer() {
        return slots;
    }

    int offset(final int slot) {
        return slot * FeedLayout.MAX_PACKET;
    }

    int length(final int slot) {
        return lengths[slot];
    }

    /** Copies a slot's packet into {@code target} at 0 and frees the slot. @return its length */
    int take(final int slot, final UnsafeBuffer target) {
        final int length = lengths[slot];
        target.putBytes(0, slots, offset(slot), length);
        drop(slot);
        return length;
    }

    int size() {
        return used;
    }

    void clear() {
        used = 0;
    }

    private void drop(final int slot) {
        final int last = used - 1;
        if (slot != last) {
            slots.putBytes(offset(slot), slots, offset(last), lengths[last]);
            firstSequences[slot] = firstSequences[last];
            counts[slot] = counts[last];
            lengths[slot] = lengths[last];
        }
        used--;
    }
}
