package io.sluice.tools.fix;

/**
 * The orders every load against Sluice in this module sends (demo, benchmarks). Day buys of 10 at 100.00, each of which
 * fills at once against the resting day sells of 1,000,000 at 100.00 that a {@link LiquiditySeeder} keeps in the book
 * of {@value SluiceDeployment#SYMBOL}.
 */
public final class StandardOrders {
    /** Every load order: buy 10 at 100.00, day. */
    public static final OrderTerms BUY = OrderTerms.of("ACC1", SluiceDeployment.SYMBOL, OrderTerms.BUY, 10, "100",
            OrderTerms.DAY);
    /** Every resting liquidity order: sell 1,000,000 at 100.00, day. */
    public static final OrderTerms RESTING_SELL = OrderTerms.of("MM1", SluiceDeployment.SYMBOL, OrderTerms.SELL,
            1_000_000, "100", OrderTerms.DAY);
    /** How many resting sells the seeder keeps. */
    public static final int RESTING_ORDERS = 4;

    private StandardOrders() {
    }

    /** @return a seeder of the standard resting sells on {@code session} (not yet logged on). */
    public static LiquiditySeeder seeder(final FixClientSession session) {
        return new LiquiditySeeder(session, RESTING_SELL, RESTING_ORDERS, 1);
    }
}
