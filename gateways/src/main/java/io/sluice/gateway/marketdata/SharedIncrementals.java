package io.sluice.gateway.marketdata;

import io.sluice.gateway.codec.EncodedFields;

/**
 * The bodies of one feed message's incrementals (X), each encoded once for every subscriber whose entries are the same.
 * A body is found by its shape ({@link #shape}); the few shapes one message has take turns in {@value #BODIES} bodies.
 */
final class SharedIncrementals {
    static final int BODIES = 4;

    private final EncodedFields[] bodies = new EncodedFields[BODIES];
    private final long[] shapes = new long[BODIES];
    private int count;
    private int next;

    /** @param maxMessageBytes the largest message a session sends: a body is smaller */
    SharedIncrementals(final int maxMessageBytes) {
        for (int i = 0; i < BODIES; i++) {
            bodies[i] = new EncodedFields(maxMessageBytes);
        }
    }

    /**
     * @return the shape of an X's entries: which of a trade, the level, and the level a subscription's depth pushed out
     *         or pulled in it lists, with that depth when it names a level by it
     */
    static long shape(final boolean traded, final boolean book, final boolean pushedOut, final boolean pulledIn,
                      final int depth) {
        final long flags = (traded ? 1 : 0) | (book ? 2 : 0) | (pushedOut ? 4 : 0) | (pulledIn ? 8 : 0);
        return pushedOut || pulledIn ? flags | (long) depth << 4 : flags;
    }

    /** Forgets every body: a new feed message begins. */
    void clear() {
        count = 0;
        next = 0;
    }

    /** @return the body of {@code shape} encoded since {@link #clear}, or null */
    EncodedFields find(final long shape) {
        for (int i = 0; i < count; i++) {
            if (shapes[i] == shape) {
                return bodies[i];
            }
        }
        return null;
    }

    /** @return a body to encode {@code shape} into, in place of the oldest when all are taken */
    EncodedFields claim(final long shape) {
        final int index = next;
        next = (next + 1) % BODIES;
        count = Math.max(count, index + 1);
        shapes[index] = shape;
        return bodies[index];
    }
}
