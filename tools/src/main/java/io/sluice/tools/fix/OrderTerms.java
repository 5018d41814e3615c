package io.sluice.tools.fix;

/**
 * The fixed terms of the limit orders a load client sends (everything but the ClOrdID). They are held as ASCII bytes so
 * each order is encoded without allocating.
 *
 * @param account     Account (1)
 * @param symbol      Symbol (55)
 * @param side        Side (54): '1' buy, '2' sell
 * @param quantity    OrderQty (38)
 * @param price       Price (44) as FIX text, e.g. "100.25"
 * @param timeInForce TimeInForce (59): '0' day, '3' IOC, '4' FOK
 */
public record OrderTerms(byte[] account, byte[] symbol, char side, long quantity, byte[] price, char timeInForce) {
    public static final char BUY = '1';
    public static final char SELL = '2';
    public static final char DAY = '0';
    public static final char IMMEDIATE_OR_CANCEL = '3';

    /** @return terms with the given texts converted to ASCII. */
    public static OrderTerms of(final String account, final String symbol, final char side, final long quantity,
                                final String price, final char timeInForce) {
        return new OrderTerms(FixClientSession.ascii(account), FixClientSession.ascii(symbol), side, quantity,
                FixClientSession.ascii(price), timeInForce);
    }
}
