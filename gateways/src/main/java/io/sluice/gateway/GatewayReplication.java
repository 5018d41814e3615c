package io.sluice.gateway;

/**
 * When a gateway lets a message reach its client, relative to the replication of its journals (the gateway YAML's
 * {@code replication}).
 */
public enum GatewayReplication {
    /**
     * {@code none} (the default): as soon as its record is in the gateway's journal. A shipper, if one runs, copies
     * the journals asynchronously: a client may have seen messages a replica does not hold yet.
     */
    NONE,
    /**
     * {@code acknowledged}: only once Kafka has acknowledged ({@code acks=all}) the {@code gateway-N-out} excerpt that
     * records it, as the shipper publishes in its counters file. Held, never sent, while no shipper acknowledges.
     */
    ACKNOWLEDGED;

    /** @return the mode a config value names ({@code none}, {@code acknowledged}) */
    public static GatewayReplication parse(final String value) {
        for (final GatewayReplication mode : values()) {
            if (mode.name().equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("replication must be none or acknowledged, got '" + value + "'");
    }
}
