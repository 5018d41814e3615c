package io.sluice.marketdata.book;

/** What became of one feed message applied to {@link OrderBooks}: taken, or why not. */
public enum Applied {
    /** The book changed as the message said (or the message changes no book: checksum, end of snapshot). */
    OK,
    /** The message names an instrument the books do not have. */
    UNKNOWN_INSTRUMENT,
    /** A modify, delete or trade names an order not in the book. */
    UNKNOWN_ORDER,
    /** An add names an order already in the book. */
    DUPLICATE_ORDER,
    /** No order slot or price level left. */
    NO_ROOM,
    /** Not a feed message type. */
    UNKNOWN_TYPE
}
