package io.sluice.contracts;

/**
 * What an execution report did to its order's place in the book, as the engine knows it when it writes the report. It
 * is what a market-data publisher needs to rebuild the order book from the engine journal alone. The engine decides
 * what happens next to an aggressor before it writes the aggressor's report, so the report after which an order
 * starts resting says so ({@link #ADDED}), though no report is written when it comes to rest.
 */
public enum BookEffect {
    /** The book does not change: a reject, an aggressor still matching or canceled before it rested. */
    NONE,
    /** The order now rests, at the back of its price level, with its LeavesQty. */
    ADDED,
    /** The order keeps its place, now with its LeavesQty: a passive partial fill, a replace that kept priority. */
    UPDATED,
    /** The order left the book: filled in full as the passive side, canceled, expired, or replaced at the back. */
    REMOVED,
    /**
     * The order left its place and rests again at the back of its (new) price level with its LeavesQty: a replace that
     * lost priority and crossed nothing.
     */
    REQUEUED;

    private static final BookEffect[] VALUES = values();

    /** @return the effect with this ordinal, or {@code null} if out of range (as stored in the journal). */
    public static BookEffect fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
