package io.sluice.gateway.marketdata;

/** MDReqRejReason (281) values the gateway answers a MarketDataRequest with, and their Text (58). */
public final class MdReqRejReason {
    /** A MarketDataRequestReject without a reason: an unknown MDReqID to unsubscribe, or one too long to keep. */
    public static final int NONE = -1;
    public static final int UNKNOWN_SYMBOL = 0;
    public static final int DUPLICATE_MD_REQ_ID = 1;
    public static final int INSUFFICIENT_PERMISSIONS = 3;
    public static final int UNSUPPORTED_SUBSCRIPTION_REQUEST_TYPE = 4;
    public static final int UNSUPPORTED_MARKET_DEPTH = 5;
    public static final int UNSUPPORTED_MD_ENTRY_TYPE = 8;

    public static final String UNKNOWN_SYMBOL_TEXT = "Unknown symbol";
    public static final String DUPLICATE_MD_REQ_ID_TEXT = "Duplicate MDReqID";
    public static final String NOT_ENTITLED_TEXT = "Not entitled to market data for this symbol";
    /** Followed by the session's limit and " per session". */
    public static final String TOO_MANY_TEXT = "Too many market data subscriptions: at most ";
    public static final String UNSUPPORTED_SUBSCRIPTION_REQUEST_TYPE_TEXT =
            "SubscriptionRequestType must be 0 (snapshot), 1 (subscribe) or 2 (unsubscribe)";
    /** Followed by the gateway's {@code marketData.maxDepth} and " (the best N levels of each side)". */
    public static final String UNSUPPORTED_MARKET_DEPTH_TEXT = "MarketDepth must be 0 (full book) or 1 to ";
    public static final String UNSUPPORTED_MD_ENTRY_TYPE_TEXT = "MDEntryType must be 0 (bid), 1 (offer) or 2 (trade)";
    public static final String UNKNOWN_MD_REQ_ID_TEXT = "Unknown MDReqID: no subscription to end";
    public static final String MD_REQ_ID_TOO_LONG_TEXT = "MDReqID longer than " + Subscriptions.MAX_REQ_ID
            + " characters";

    private MdReqRejReason() {
    }
}
