package io.sluice.gateway;

import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.util.ArrayList;
import java.util.List;

/**
 * Which market data one session may subscribe to, as its {@code !Session} entry gives it. For example
 * {@code marketData: { symbols: [SLC, ABC], maxSubscriptions: 8 }}; {@code "*"} means every instrument. A session
 * without it is entitled to none.
 */
public final class MarketDataEntitlement extends SelfDescribingMarshallable {
    /** The symbol that entitles a session to every instrument. */
    public static final String EVERY_SYMBOL = "*";
    /** The most subscriptions one session may hold. */
    public static final int MAX_SUBSCRIPTIONS = 256;

    private List<String> symbols = new ArrayList<>();
    private int maxSubscriptions = 16;

    public MarketDataEntitlement() {
    }

    public MarketDataEntitlement(final List<String> symbols, final int maxSubscriptions) {
        this.symbols = new ArrayList<>(symbols);
        this.maxSubscriptions = maxSubscriptions;
    }

    /** @return the symbols the session may subscribe to ({@value #EVERY_SYMBOL} for all); empty for none */
    public List<String> symbols() {
        return symbols == null ? List.of() : symbols;
    }

    /** @return how many subscriptions (one per symbol of a request) the session may hold at once */
    public int maxSubscriptions() {
        return symbols().isEmpty() ? 0 : maxSubscriptions;
    }

    /** Adds what is wrong with this entitlement of session {@code session} to {@code problems}. */
    void validate(final String session, final List<String> instruments, final List<String> problems) {
        if (maxSubscriptions < 1 || maxSubscriptions > MAX_SUBSCRIPTIONS) {
            problems.add("session " + session + ": marketData.maxSubscriptions must be 1 to " + MAX_SUBSCRIPTIONS
                    + ", got " + maxSubscriptions);
        }
        for (final String symbol : symbols()) {
            if (!EVERY_SYMBOL.equals(symbol) && !instruments.contains(symbol)) {
                problems.add("session " + session + ": marketData.symbols names " + symbol
                        + ", which the gateway's marketData.instruments does not list");
            }
        }
    }
}
