package io.sluice.bench.marketdata;

import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment.GatewaySpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which gateway the market-data subscribers beside the order path log on to: the trading sessions' own, whose one
 * thread then writes their sockets between orders, or a gateway of their own, as venues separate order entry from
 * market data. Named on the command line and in the JSON by {@link #toString()}.
 */
enum SubscriberGateway {
    /** Gateway 1 serves the trading sessions and the subscribers. */
    ORDER_GATEWAY("order-gateway", 1),
    /** Gateway 1 serves the trading sessions, with no {@code marketData} section; gateway 2 the subscribers. */
    OWN_GATEWAY("own-gateway", 2);

    private static final int ORDER_GATEWAY_ID = 1;

    private final String label;
    private final int marketDataGateway;

    SubscriberGateway(final String label, final int marketDataGateway) {
        this.label = label;
        this.marketDataGateway = marketDataGateway;
    }

    /** @return the id of the gateway the trading sessions log on to */
    int orderGateway() {
        return ORDER_GATEWAY_ID;
    }

    /** @return the id of the gateway the subscribers log on to */
    int marketDataGateway() {
        return marketDataGateway;
    }

    /**
     * The deployment's gateways.
     *
     * @param trading      the sessions that send orders
     * @param subscribers  the market-data sessions
     * @param entitlements their {@code marketData} entitlements by SenderCompID
     * @param marketData   the {@code marketData} section of the gateway that serves them
     */
    List<GatewaySpec> gateways(final List<SessionIdentity> trading, final List<SessionIdentity> subscribers,
                               final Map<String, String> entitlements, final String marketData) {
        if (this == ORDER_GATEWAY) {
            final List<SessionIdentity> all = new ArrayList<>(trading);
            all.addAll(subscribers);
            return List.of(new GatewaySpec(ORDER_GATEWAY_ID, FixTransport.TCP, all, entitlements, marketData));
        }
        return List.of(new GatewaySpec(ORDER_GATEWAY_ID, FixTransport.TCP, trading),
                new GatewaySpec(marketDataGateway, FixTransport.TCP, subscribers, entitlements, marketData));
    }

    @Override
    public String toString() {
        return label;
    }
}
