package io.sluice.marketdata.feed;

/**
 * Why the retransmission service refused a request ({@link RetransmitRefusal}), with the text its log and the feed
 * handler print. After {@link #MALFORMED_REQUEST} and {@link #WRONG_SESSION} the service closes the connection.
 */
public enum RefusalReason {
    /** Not a request: a count of 0 or over the limit, or a sequence below 1. */
    MALFORMED_REQUEST('M', "malformed request: a sequence of at least 1 and a count of 1 to the limit"),
    /** The request names another feed session. */
    WRONG_SESSION('W', "the request names another session"),
    /** The first sequence asked for has not been published yet. */
    NOT_YET_PUBLISHED('N', "not published yet"),
    /** The first sequence asked for is no longer in the market-data journal (archived away): join from a snapshot. */
    ARCHIVED('A', "archived: no longer in the market-data journal; join from a snapshot");

    private final byte code;
    private final String text;

    RefusalReason(final char code, final String text) {
        this.code = (byte) code;
        this.text = text;
    }

    public byte code() {
        return code;
    }

    /** @return what the refusal means, for logs */
    public String text() {
        return text;
    }

    /** @return the reason with this code, or null */
    public static RefusalReason of(final byte code) {
        for (final RefusalReason reason : values()) {
            if (reason.code == code) {
                return reason;
            }
        }
        return null;
    }
}
